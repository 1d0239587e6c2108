"""The computer at a chosen skill as the bot plays it: the shipped calibration holds its four targets
within ±5 on the members' scale (measured by scripts/level_skill.py over 2,000 games each; the script's
measure is replayed here on a few games), and what "your level" and each Add-computer choice become."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bot.engine.rules import Ruleset
from bot.engine.skilled import Skilled
from bot.sessions.skill_levels import (
    CALIBRATION,
    calibration,
    chosen_level,
    computer_strategy,
    normal_skill,
    your_level,
)
from tests.solved import policies_for

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import level_skill

TARGETS = (20, 40, 60, 80)


def test_the_shipped_calibration_lands_each_target_within_five() -> None:
    table = json.loads(CALIBRATION.read_text())
    assert (table["rules"], table["opponent"]) == ("classic", "master")
    for target in TARGETS:
        point = table["targets"][str(target)]
        assert point["games"] >= 2000, f"target {target} measured over {point['games']} games"
        assert abs(point["skill"] - target) <= 5, (target, point)
        assert point["decisions"] > 20 * point["games"], "a game has tens of decisions"
    temperatures = [table["targets"][str(target)]["temperature"] for target in TARGETS]
    assert temperatures == sorted(temperatures, reverse=True), "warmer plays weaker"


def test_each_calibrated_skill_plays_at_its_measured_temperature() -> None:
    table = json.loads(CALIBRATION.read_text())["targets"]
    for point in table.values():
        assert calibration().temperature(point["skill"]) == pytest.approx(point["temperature"])
    assert calibration().temperature(100) == 0.0


def test_the_scripts_measure_runs_on_a_few_games() -> None:
    """What the table was made with, on two games: a master opponent, reviewed decisions, the skill."""
    cold, warm = level_skill.at(0.0005, 2, seed=3), level_skill.at(0.02, 2, seed=3)
    assert cold["games"] == warm["games"] == 2 and cold["decisions"] > 20 and warm["decisions"] > 20
    assert 0 < warm["skill"] < cold["skill"] <= 100


def test_what_each_add_computer_choice_becomes() -> None:
    assert chosen_level("expert", None) == "expert"
    assert chosen_level("skill:72", None) == "skill:72"
    assert chosen_level("your", 67) == "skill:67"
    assert chosen_level("your", None) == f"skill:{normal_skill()}"
    assert chosen_level("your", 5) == "skill:20" and chosen_level("your", 100) == "skill:100"
    for bad in ("grandmaster", "skill:101", "skill:19", "skill:", "skill:-5"):
        assert chosen_level(bad, 50) is None, bad
    assert your_level(None) == normal_skill() == 49
    classic = Ruleset.preset("classic")
    computer = computer_strategy("skill:72", classic, policies_for(classic), None)
    assert isinstance(computer, Skilled) and computer.temperature == calibration().temperature(72) > 0
