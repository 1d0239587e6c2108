"""What scripts/screenshots.py compares before each capture, without a browser: the numbers the bot drew
against the page's text, and the lobby's skills against bot/assets/level_skill.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("playwright.async_api", reason="playwright is not installed (pip install '.[play]')")

import screenshots
from screenshots import measured_skills, numbers_missing, skill_figures

from bot.engine import LEVELS


def test_every_drawn_number_must_be_on_the_page_as_often_as_drawn() -> None:
    drawn = "**Alex** · 1,000 ▰▱ <t:1796000000:R> <:die_5:1456074443980800000> <@1456074443980800001> · 0 · 0"
    assert numbers_missing(drawn, "Alex · 1,000 ▰▱ in 2 minutes @Alex · 0 · 0 12/7/26") == []
    assert numbers_missing(drawn, "Alex · 1,000 in 2 minutes · 0") == ["0"]
    assert numbers_missing("Bank 350 · turn total 350", "Bank 300 · turn total 350") == ["350"]
    assert numbers_missing("Ziel 1.000", "Ziel 1.000") == []


def test_the_skills_are_read_from_the_add_computer_labels_in_any_language() -> None:
    labels = [
        "Start",
        "Add computer: easy · skill 37",
        "Computer hinzufügen: Experte · Können 94",
        "Ajouter un ordi : maître · habileté 100",
        "Computer 1 (expert)",
    ]
    assert skill_figures(labels) == [37, 94, 100]


def test_the_measured_skills_are_the_shipped_files_in_the_lobbys_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    skills = {level: 10.4 + 20 * n for n, level in enumerate(reversed(LEVELS))}
    measured = tmp_path / "level_skill.json"
    measured.write_text(json.dumps({"levels": {level: {"skill": skill} for level, skill in skills.items()}}))
    monkeypatch.setattr(screenshots, "LEVEL_SKILL", measured)
    named = [round(skills[level]) for level in LEVELS]
    assert measured_skills() == [*named, round(skills["normal"])], "then your level: normal's, for a new host"
