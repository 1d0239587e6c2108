# Entry points from a fresh clone: `make run`, `make test`, and `make play` (the bot in a local page, no token).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test lint bench play

# `play` too: tests/test_play.py runs the Preview in-process (the page's dependencies), in CI as well.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[dev,play]'
	touch $(STAMP)

install: $(STAMP)

# Options after ARGS=, e.g. make play ARGS="--lang de --port 8765 --seed 7 --keep game.sqlite3"
play: $(STAMP)
	$(BIN)/python scripts/play.py $(ARGS)

run: $(STAMP)
	$(BIN)/python -m bot

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

test: lint
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python bench/engine.py
