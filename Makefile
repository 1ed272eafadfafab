# Two commands on a fresh machine: `make run` starts the web app, `make test` runs every test.
# Each creates the virtualenv in .venv and installs what it needs.
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin

.PHONY: run test lint train bench

$(BIN)/btc-scorer: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

run: $(BIN)/btc-scorer
	$(BIN)/btc-scorer serve

# The browser tests drive Debian's chromium; install it when it is missing (needs root/apt).
/usr/bin/chromium:
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null

test: $(BIN)/btc-scorer /usr/bin/chromium
	$(BIN)/ruff check scorer web tests training bench
	$(BIN)/python -m pytest

lint: $(BIN)/btc-scorer
	$(BIN)/ruff check scorer web tests training bench

# Optional: retrain the tile classifier (needs ../shared/tile-art and torch, CPU build).
train: $(BIN)/btc-scorer
	$(BIN)/pip install --quiet -e '.[train]'
	$(BIN)/python -m training.train

bench: $(BIN)/btc-scorer
	$(BIN)/python bench/run_all.py
