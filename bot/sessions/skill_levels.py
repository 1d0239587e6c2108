"""The computer at a chosen skill, as the bot plays it: its calibration, shipped as
bot/assets/skill_calibration.json (written by `scripts/level_skill.py --skills`), read once, and which
skill "Add computer: your level" plays at."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from functools import cache
from importlib.resources import files

from bot.engine import Ruleset, TurnPolicies
from bot.engine.levels import LEVELS, strategy_for
from bot.engine.skilled import HIGHEST_SKILL, LOWEST_SKILL, Calibration, skill_level, skill_of_level
from bot.engine.strategies import Strategy
from bot.engine.win.tables import WinTables

CALIBRATION = files("bot") / "assets" / "skill_calibration.json"
LEVEL_SKILL = files("bot") / "assets" / "level_skill.json"
YOUR_LEVEL = "your"  # the Add-computer choice that plays at the host's skill
# A member's skill in a server (guild id, user id): rounded, None while they have too few decisions.
MemberSkill = Callable[[int, int], Awaitable[int | None]]


async def no_skill(guild_id: int, user_id: int) -> int | None:
    """Where no skill is kept (a manager without storage): every host's level is normal's."""
    return None


@cache
def calibration() -> Calibration:
    """Every calibrated target's (skill measured, temperature): the measured skill, not the target, is
    what the temperature plays at."""
    targets: dict[str, dict[str, float]] = json.loads(CALIBRATION.read_text())["targets"]
    return Calibration(tuple((point["skill"], point["temperature"]) for point in targets.values()))


def computer_strategy(
    level: str, rules: Ruleset, policies: TurnPolicies, tables: WinTables | None
) -> Strategy:
    """The computer of a seat's level ("expert", "skill:72") under `rules`, by these solved turns and
    win tables."""
    return strategy_for(level, rules, policies, tables, calibration())


@cache
def normal_skill() -> int:
    """The normal level's measured skill (bot/assets/level_skill.json): "your level" for a host who has
    no skill yet."""
    measured = json.loads(LEVEL_SKILL.read_text())["levels"]["normal"]["skill"]
    return round(float(measured))


def your_level(host_skill: int | None) -> int:
    """The skill "Add computer: your level" plays at: the host's (normal's while they have none), within
    the computer's range."""
    chosen = normal_skill() if host_skill is None else host_skill
    return min(max(chosen, LOWEST_SKILL), HIGHEST_SKILL)


def chosen_level(level: str, host_skill: int | None) -> str | None:
    """The level a seat stores for an Add-computer choice: a named level, "skill:NN" as it is, or "your"
    (the host's level); None when it is none of these."""
    if level == YOUR_LEVEL:
        return skill_level(your_level(host_skill))
    return level if level in LEVELS or skill_of_level(level) is not None else None
