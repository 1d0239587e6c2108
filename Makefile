# Entry points from a fresh clone: `make run`, `make test`, and `make play` (the bot in a local page, no token).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two stamps: hosting needs the bot's own dependencies only; the tools (tests, lint, types, the local
# page and its browser driver) come with `make install`, `test`, `lint`, `play` and `bench`.
RUN_STAMP := $(VENV)/.installed-run
STAMP := $(VENV)/.installed

.PHONY: install run test lint bench play chromium activity activity-check

$(RUN_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

# `play` too: tests/test_play.py runs the Preview in-process (the page's dependencies), in CI as well.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[dev,play]'
	touch $(STAMP)

install: $(STAMP)

# Options after ARGS=, e.g. make play ARGS="--lang de --port 8765 --seed 7 --keep game.sqlite3"
play: $(STAMP)
	$(BIN)/python scripts/play.py $(ARGS)

run: $(RUN_STAMP)
	$(BIN)/python -m bot

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# The browser tests (tests/test_play_browser.py) and bench/play_page.py drive Debian's Chromium: installed
# here where it is missing and apt-get can (CI runs as root); elsewhere one line says how.
chromium:
	@command -v chromium >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
	  && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } \
	  || echo "make: Chromium is missing (apt-get install chromium); the browser tests will be skipped"

# The Activity's page (activity/, docs/ACTIVITY.md), built into bot/assets/activity/, which is committed:
# `activity` rebuilds it, `activity-check` fails when the committed build is not what the source builds to.
activity:
	cd activity && npm ci --no-audit --no-fund && node build.mjs

activity-check:
	@command -v node >/dev/null || { echo "make: node is missing: the Activity's build was not checked"; exit 0; }; \
	  cd activity && npm ci --no-audit --no-fund --silent && node build.mjs --check && ./node_modules/.bin/tsc --noEmit

test: lint chromium activity-check
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python bench/engine.py
