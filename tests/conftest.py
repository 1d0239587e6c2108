"""Shared fixtures: a real FarkleBot on a temporary database, driven through SimCord."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest
import simcord

from bot.app.client import FarkleBot
from bot.core.environment import GameSettings, Settings


@pytest.fixture(autouse=True)
def collector_thresholds() -> Iterator[None]:
    """A started bot sets the collector's thresholds for its process (`COLLECT_AFTER`) and pauses it in a
    burst; each test starts from CPython's own, so no test's memory depends on which tests ran before it."""
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)
    gc.enable()  # a test that ended in a burst leaves no paused collector behind


pytest_plugins = ["tests.databases"]


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(
        _env_file=None,
        discord_token=None,
        database_path=tmp_path / "data" / "farkle.sqlite3",
        solve_win_tables=False,  # minutes of CPU per preset: tests that need tables hand the bot a solver
        shard_count=1,  # what Discord recommends for a small bot; SimCord needs it said
        game=GameSettings(_env_file=None, computer_pause=0),
    )


@pytest.fixture
async def opened_bots() -> AsyncIterator[list[FarkleBot]]:
    """Every bot a test built, closed afterwards: SimCord never closes a bot, and an open database
    keeps its worker thread alive, so pytest would hang at exit."""
    bots: list[FarkleBot] = []
    yield bots
    for bot in bots:
        await bot.close()


@pytest.fixture
def make_bot(settings: Settings, opened_bots: list[FarkleBot]) -> Callable[[], FarkleBot]:
    """A factory, so restart tests can attach a fresh bot to the same database and world."""

    def make() -> FarkleBot:
        opened_bots.append(FarkleBot(settings))
        return opened_bots[-1]

    return make


@pytest.fixture
def simcord_bot(make_bot: Callable[[], FarkleBot]) -> FarkleBot:
    """The bot SimCord's `simcord_env` fixture runs (its teardown fails a test on swallowed errors)."""
    return make_bot()


@pytest.fixture
def env(simcord_env: simcord.Env) -> simcord.Env:
    return simcord_env
