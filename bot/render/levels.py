"""Each computer level's skill, measured on the members' scale by scripts/level_skill.py and shipped as
bot/assets/level_skill.json, shown beside the level where a computer is added: a member reads which
computer plays at their level."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files

from bot.render.language import Translator

MEASURED = files("bot") / "assets" / "level_skill.json"


@cache
def level_skills() -> dict[str, float]:
    """Skill (0-100) by level name, as measured; empty if the file is missing."""
    if not MEASURED.is_file():
        return {}
    levels: dict[str, dict[str, float]] = json.loads(MEASURED.read_text())["levels"]
    return {level: float(measured["skill"]) for level, measured in levels.items()}


def with_skill(level: str, name: str, tr: Translator) -> str:
    """ "expert · skill 99": a level's name and its measured skill (the name alone if unmeasured)."""
    measured = level_skills().get(level)
    if measured is None:
        return name
    return tr.text("{level} · skill {skill}", level=name, skill=tr.decimal(measured, 0))
