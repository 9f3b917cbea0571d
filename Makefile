# Two commands on a fresh machine:  `make run`  (install and start the game)
#                                   `make test` (install and run every check)
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test install install-test lint bench clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# The editable install follows every Python change by itself: reinstall only when
# pyproject.toml or the compiled helper changes (a stamp file each), not on every start.
NATIVE := setup.py vira_desktop/ai/_native.c vira_desktop/ai/_solver.c

$(VENV)/.installed: pyproject.toml $(NATIVE) | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(NATIVE) | $(BIN)/python
	$(BIN)/python -m pip install -q -e ".[test]"
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed

install-test: $(VENV)/.installed-test

run: install
	$(BIN)/vira

test: install-test
	$(BIN)/ruff check vira_desktop tests benchmarks
	$(BIN)/mypy
	$(BIN)/python -m pytest -n auto

bench: install-test
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) build dist *.egg-info
