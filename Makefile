# The two set-up commands of the README: `make run` and `make test`. Both build everything
# they need on a fresh machine first, in this order: check the interpreter (Python 3.11;
# another one is refused up front, and a .venv built with one is removed), the Debian
# packages (scripts/install-system-deps names or installs them), then the virtualenv.
# Another interpreter: PYTHON=/usr/bin/python3.11 make run
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
export PYTHON

# The steps of `setup` depend on each other's order (system packages before the venv).
.NOTPARALLEL:
.PHONY: run test lint bench setup venv python-check system-deps

python-check:
	@scripts/check-python "$(PYTHON)" "$(VENV)"

system-deps:
	scripts/install-system-deps

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV) || { echo "$(PYTHON) -m venv failed: sudo apt-get install -y python3-venv" >&2; exit 1; }
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[dev,grading,embedding]"
	$(PY) -m app.grading.freetext.encoder quantize  # the embedding verdict's int8 file, ~2 s
	touch $(STAMP)

# A sub-make, so the stamp is looked at after python-check may have removed a wrong .venv.
venv: python-check
	@$(MAKE) --no-print-directory $(STAMP)

setup: python-check system-deps
	@$(MAKE) --no-print-directory $(STAMP)

run: setup
	$(VENV)/bin/tapequiz serve

test: setup
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy app
	$(PY) -m pytest -n 2 --dist worksteal tests/grading tests/packs  # pure-Python graders and packs: CPU-bound, one worker per core
	$(PY) -m pytest --ignore=tests/grading --ignore=tests/packs  # servers, sandboxes, browser: one at a time
	scripts/test-rootless  # the sandbox suites again as a real non-root user (rootless backend)

lint: venv
	$(PY) -m ruff check . && $(PY) -m ruff format --check . && $(PY) -m mypy app

bench: setup
	$(PY) benchmarks/grading.py
	$(PY) benchmarks/freetext.py
