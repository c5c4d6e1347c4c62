# The two set-up commands of the README: `make run` and `make test`. Both build everything
# they need on a fresh machine (virtualenv, Python packages, Debian packages) first.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench setup system-deps

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
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

lint: $(STAMP)
	$(PY) -m ruff check . && $(PY) -m ruff format --check . && $(PY) -m mypy app

bench: setup
	$(PY) benchmarks/grading.py
	$(PY) benchmarks/freetext.py
