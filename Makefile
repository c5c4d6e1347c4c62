# The two set-up commands of the README: `make run` and `make test`. Both build everything
# they need on a fresh machine (virtualenv, Python packages, Debian packages) first.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench setup system-deps

$(STAMP): pyproject.toml
	python3 -m venv $(VENV) || { echo "python3 -m venv failed: sudo apt-get install -y python3-venv" >&2; exit 1; }
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[dev,grading]"
	touch $(STAMP)

system-deps:
	scripts/install-system-deps

setup: $(STAMP) system-deps

run: setup
	$(VENV)/bin/tapequiz serve

test: setup
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy app
	$(PY) -m pytest
	scripts/test-rootless  # the sandbox suites again as a real non-root user (rootless backend)

lint: $(STAMP)
	$(PY) -m ruff check . && $(PY) -m ruff format --check . && $(PY) -m mypy app

bench: setup
	$(PY) benchmarks/grading.py
	$(PY) benchmarks/freetext.py
