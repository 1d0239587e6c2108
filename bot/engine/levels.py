"""The computer levels by name: the registry the bot, the simulator and the tests pick players from.

Besides the four named levels, "skill:NN" plays at a chosen skill from 10 to 100 (`skilled.py`); which
temperature plays at which skill is the measured `Calibration` the caller passes in (the engine reads no
files: the session layer loads the shipped table).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.master import Master
from bot.engine.rules import Ruleset
from bot.engine.skilled import Calibration, Skilled, skill_of_level
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


def strategy_for(level: str, rules: Ruleset, calibration: Calibration | None = None) -> Strategy:
    """The computer player of this level for games under `rules` (cheap: solved policies and win tables
    are cached; master plays as expert where its tables don't reach). A "skill:NN" level needs the
    `calibration` its temperature is read from."""
    skill = skill_of_level(level)
    if skill is not None:
        if calibration is None:
            raise ValueError("A computer at a chosen skill needs the skill calibration.")
        return Skilled(rules, calibration.temperature(skill), tables_for(rules))
    if level not in _LEVEL_CLASSES:
        raise ValueError(f"There is no computer level called {level!r}: choose {', '.join(LEVELS)}.")
    return _LEVEL_CLASSES[level](rules)
