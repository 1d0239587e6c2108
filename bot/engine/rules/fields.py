"""What a ruleset holds: every house rule in RULES.md as one typed field with its default.

`Ruleset` (in `rules`) adds the validation, the presets and edits; `RuleWords` (in `rulewords`) the
plain-words summary. The fields live here, below both, so each is declared once.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

NOfAKind = Literal["none", "doubling", "multiples", "high_multiples", "fixed"]


class RuleFields(BaseModel):
    """The options and their defaults; frozen, and no field beyond these (a misspelt rule is refused)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "custom"
    single_one: int = 100
    single_five: int = 50
    three_ones: int = 1000
    n_of_a_kind: NOfAKind = "none"
    six_of_a_kind: int | None = None
    six_ones: int | None = None
    six_ones_instant_win: bool = False
    straight: int | None = 1000
    three_pairs: int | None = None
    four_and_pair: int | None = None
    two_triplets: int | None = None
    penalty_roll: int | None = None
    target: int = 10000
    entry_minimum: int = 0
    entry_roll_limit: int | None = None
    bank_minimum: int = 0
    hot_dice: Literal["optional", "forced"] = "optional"
    three_farkles: Literal["none", "minus_1000", "reset"] = "none"
    piggyback: Literal["off", "previous_points", "bonus"] = "off"
    piggyback_bonus: int = 1000
    piggyback_needs_all_on_board: bool = False
    end_rule: Literal["highest", "last_loses", "exact"] = "highest"
    tie_rule: Literal["playoff", "share"] = "playoff"
    teams: int = 0
    min_players: int = 2
    max_players: int = 8


def triple_factor(mode: NOfAKind, n: int) -> int:
    """How many times the triple n (4-6) of a kind scores under a multiplying mode."""
    return {"doubling": 1 << (n - 3), "multiples": n - 2, "high_multiples": 2 * (n - 2)}[mode]
