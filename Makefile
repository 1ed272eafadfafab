# Two commands on a fresh machine: `make run` starts the web app, `make test` runs every test.
# Each creates the virtualenv in .venv and installs what it needs: the runtime alone for
# `run` (numpy, opencv, onnxruntime, flask, waitress, pillow, segno), plus test and training
# tools (pytest, playwright, ruff, torch CPU) for `test`.
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin

.PHONY: run run-lan test lint train bench fixtures

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.runtime: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev,train]'
	touch $@ $(VENV)/.runtime

run: $(VENV)/.runtime
	$(BIN)/btc-scorer serve

# The same, reachable from the phones on this Wi-Fi: prints the address and shows its QR code.
run-lan: $(VENV)/.runtime
	$(BIN)/btc-scorer serve --lan

# The browser tests drive Debian's chromium; install it when it is missing (needs root/apt).
/usr/bin/chromium:
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null

test: $(VENV)/.dev /usr/bin/chromium
	$(BIN)/ruff check scorer web tests training bench
	$(BIN)/python -m pytest

lint: $(VENV)/.dev
	$(BIN)/ruff check scorer web tests training bench

# Retrain both models (needs ../shared/tile-art; torch CPU build from the [train] extra).
train: $(VENV)/.dev
	$(BIN)/python -m training.train --out models

# Rewrite the committed photo fixtures and picker icons (drawn tiles only).
fixtures: $(VENV)/.dev
	$(BIN)/python -m training.make_fixtures

bench: $(VENV)/.dev
	$(BIN)/python bench/run_all.py
