"""The computer levels by name: the registry the bot, the simulator and the tests pick players from.

Besides the four named levels, "skill:NN" plays at a chosen skill from 10 to 100 (`skilled.py`); which
temperature plays at which skill is the measured `Calibration` the caller passes in (the engine reads no
files: the session layer loads the shipped table).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.master import Master
from bot.engine.policies import TurnPolicies
from bot.engine.rules import Ruleset
from bot.engine.skilled import Calibration, Skilled, skill_of_level
from bot.engine.strategies import Easy, Expert, Normal, Strategy
from bot.engine.win.tables import WinTables

LEVELS: tuple[str, ...] = ("easy", "normal", "expert", "master")

_Make = Callable[[Ruleset, TurnPolicies, "WinTables | None"], Strategy]
_LEVEL_CLASSES: dict[str, _Make] = {
    "easy": lambda rules, policies, tables: Easy(rules),
    "normal": lambda rules, policies, tables: Normal(rules),
    "expert": lambda rules, policies, tables: Expert(rules, policies),
    "master": lambda rules, policies, tables: Master(Expert(rules, policies), tables),
}


def strategy_for(
    level: str,
    rules: Ruleset,
    policies: TurnPolicies,
    tables: WinTables | None,
    calibration: Calibration | None = None,
) -> Strategy:
    """The computer player of this level for games under `rules`, playing by the solved turns and win
    tables handed in (cheap: nothing is solved here; master plays as expert where `tables` don't reach, or
    are None: not ready). A "skill:NN" level needs the `calibration` its temperature is read from."""
    skill = skill_of_level(level)
    if skill is not None:
        if calibration is None:
            raise ValueError("A computer at a chosen skill needs the skill calibration.")
        return Skilled(rules, calibration.temperature(skill), policies, tables)
    if level not in _LEVEL_CLASSES:
        raise ValueError(f"There is no computer level called {level!r}: choose {', '.join(LEVELS)}.")
    return _LEVEL_CLASSES[level](rules, policies, tables)
