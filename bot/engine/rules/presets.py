"""The preset rule sets by name: what each changes from the defaults (`Ruleset.preset` builds them)."""

from __future__ import annotations

from typing import Any

PRESET_NAMES: tuple[str, ...] = ("classic", "box", "doubling", "last-loses", "family")

PRESETS: dict[str, dict[str, Any]] = {
    "classic": {},
    "box": {
        "three_ones": 300,
        "n_of_a_kind": "fixed",
        "straight": 1500,
        "three_pairs": 1500,
        "four_and_pair": 1500,
        "two_triplets": 2500,
        "entry_minimum": 500,
    },
    "doubling": {
        "n_of_a_kind": "doubling",
        "three_pairs": 300,
        "entry_minimum": 500,
        "entry_roll_limit": 3,
        "tie_rule": "playoff",
        "piggyback": "previous_points",
        "piggyback_needs_all_on_board": True,
    },
    "last-loses": {
        "straight": 1500,
        "three_pairs": 500,
        "two_triplets": 2000,
        "piggyback": "previous_points",
        "three_farkles": "reset",
        "end_rule": "last_loses",
    },
    "family": {
        "n_of_a_kind": "multiples",
        "six_of_a_kind": 10000,
        "straight": 1500,
        "penalty_roll": -10000,
        "bank_minimum": 500,
        "hot_dice": "forced",
        "piggyback": "previous_points",
        "end_rule": "exact",
    },
}
