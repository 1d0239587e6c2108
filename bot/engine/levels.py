"""The computer levels by name: the registry the bot, the simulator and the tests pick players from."""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.master import Master
from bot.engine.rules import Ruleset
from bot.engine.strategies import Easy, Expert, Normal, Strategy
from bot.engine.win.tables import tables_for

LEVELS: tuple[str, ...] = ("easy", "normal", "expert", "master")


def _master(rules: Ruleset) -> Strategy:
    return Master(Expert(rules), tables_for(rules))


_LEVEL_CLASSES: dict[str, Callable[[Ruleset], Strategy]] = {
    "easy": Easy,
    "normal": Normal,
    "expert": Expert,
    "master": _master,
}


def strategy_for(level: str, rules: Ruleset) -> Strategy:
    """The computer player of this level for games under `rules` (cheap: solved policies and win tables
    are cached; master plays as expert where its tables don't reach)."""
    if level not in _LEVEL_CLASSES:
        raise ValueError(f"There is no computer level called {level!r}: choose {', '.join(LEVELS)}.")
    return _LEVEL_CLASSES[level](rules)
