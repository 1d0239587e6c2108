"""The presets against the rule sheets they come from: every value a preset plays is one that the rules
catalogue (../shared/RULES.md, read from the five sheets in ../shared/seeds/) credits to that preset's
sheet, so a value taken from the wrong sheet, or mistyped, fails here."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.engine.rules import PRESET_NAMES, Ruleset
from bot.engine.rules.fields import RuleFields
from bot.engine.rules.presets import PRESETS

CATALOGUE = Path(__file__).resolve().parents[3].parent / "shared" / "RULES.md"

# The sheet each preset plays (issue 3): `classic` is sheet 001's core, whose scoring is the defaults.
SHEETS = {"classic": "001", "box": "003", "doubling": "000", "last-loses": "002", "family": "004"}


def _number(value: int) -> str:
    """A number as the catalogue writes it: 1000 or 10,000, negative with a minus sign."""
    digits = f"{abs(value):,}".replace(",", ",?")
    return rf"(?<![\d,]){'−' if value < 0 else ''}{digits}(?![\d,])"


def _words(phrases: dict[Any, str]) -> Callable[[Any], str]:
    return phrases.__getitem__


# Each rule's row in the catalogue, and how that row words a value of it.
ROWS: dict[str, tuple[str, Callable[[Any], str]]] = {
    "single_one": ("single 1", _number),
    "single_five": ("single 5", _number),
    "three_ones": ("three 1s", _number),
    "n_of_a_kind": (
        "four / five / six of a kind",
        _words(
            {
                "doubling": r"\*\*doubling\*\*",
                "multiples": r"\*\*multiples\*\*",
                "high_multiples": r"\*\*4×, 6×, 8×\*\*",
                "fixed": r"\*\*fixed\*\*",
                "none": "not scored beyond triple",
            }
        ),
    ),
    "six_of_a_kind": ("six of a kind, any face", _number),
    "straight": ("straight 1-2-3-4-5-6", _number),
    "three_pairs": ("three pairs", _number),
    "four_and_pair": ("four of a kind + a pair", _number),
    "two_triplets": ("two triplets", _number),
    "penalty_roll": ("five 6s and a 1", _number),
    "target": ("target score", _number),
    "entry_minimum": ('entry ("getting on the board")', _number),
    "entry_roll_limit": ("entry roll limit", lambda rolls: rf"within {rolls} rolls"),
    "bank_minimum": ("minimum to bank, every turn", _number),
    "hot_dice": (
        "hot dice",
        _words({"optional": "optional re-roll", "forced": r"\*\*mandatory\*\* re-roll"}),
    ),
    "three_farkles": ("three Farkles in a row", _words({"minus_1000": "−1000", "reset": "bank reset to 0"})),
    "piggyback": (
        "piggybacking / building",
        _words({"previous_points": "the previous turn's points", "bonus": "a 1000 bonus"}),
    ),
    "piggyback_needs_all_on_board": (
        "piggybacking / building",
        _words({True: "only once every player is on the board"}),
    ),
    "end_rule": (
        "end of game",
        _words({"last_loses": r"\*\*last loses\*\*", "exact": r"\*\*exact target\*\*"}),
    ),
    "tie_rule": ("ties at the top", _words({"playoff": "play-off turn", "share": "shared win"})),
}

# The rules of the catalogue's scoring table that classic, sheet 001's core, plays at their defaults.
CLASSIC_SCORING = ("single_one", "single_five", "three_ones", "n_of_a_kind", "straight")


def catalogue_rows() -> dict[str, tuple[str, str]]:
    """Each table row of the catalogue by its rule: (values, sheets)."""
    if not CATALOGUE.is_file():
        pytest.fail(f"the rules catalogue is missing: {CATALOGUE} (shared/ sits beside the repository)")
    rows: dict[str, tuple[str, str]] = {}
    for line in CATALOGUE.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 3:
            rows[cells[0]] = (cells[1], cells[2])
    return rows


def _clauses(values: str) -> list[str]:
    """The values cell cut at its semicolons outside brackets: one clause for each value it names."""
    clauses, depth, start = [], 0, 0
    for at, char in enumerate(values):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == ";" and depth == 0:
            clauses.append(values[start:at])
            start = at + 1
    return [*clauses, values[start:]]


def _bracket_after(text: str) -> str | None:
    """The first bracket in `text`, whole (brackets nest in the catalogue)."""
    opening = text.find("(")
    if opening < 0:
        return None
    depth = 0
    for at in range(opening, len(text)):
        depth += {"(": 1, ")": -1}.get(text[at], 0)
        if depth == 0:
            return text[opening : at + 1]
    return None


def credited_sheets(rule: str, value: Any) -> list[str]:
    """What the catalogue credits each mention of this value of the rule to: the bracket after it in its
    clause, else the clause itself with the row's sheets."""
    row, wording = ROWS[rule]
    values, sheets = catalogue_rows()[row]
    credits = []
    for clause in _clauses(values):
        for mention in re.finditer(wording(value), clause):
            bracket = _bracket_after(clause[mention.end() :])
            credits.append(bracket if bracket is not None else f"{clause} {sheets}")
    return credits


def _credits(credit: str, sheet: str) -> bool:
    return re.search(rf"\b({sheet}|all)\b", credit) is not None


PLAYED = [
    *((name, rule) for name in PRESET_NAMES for rule in ("target", *PRESETS[name])),
    *(("classic", rule) for rule in CLASSIC_SCORING),
]


@pytest.mark.parametrize(("name", "rule"), PLAYED, ids=[f"{name}-{rule}" for name, rule in PLAYED])
def test_every_value_a_preset_plays_comes_from_its_sheet(name: str, rule: str) -> None:
    value = getattr(Ruleset.preset(name), rule)
    credits = credited_sheets(rule, value)
    assert credits, f"the catalogue never names {rule} = {value!r}"
    assert any(_credits(credit, SHEETS[name]) for credit in credits), (
        f"{name} plays {rule} = {value!r}: the catalogue credits it to {credits}, not sheet {SHEETS[name]}"
    )


def test_the_credits_are_read_as_the_catalogue_states_them() -> None:
    """The reading itself: values the catalogue credits to other sheets only are not taken for a sheet's."""
    assert not any(_credits(credit, "003") for credit in credited_sheets("three_ones", 1000))
    assert not any(_credits(credit, "001") for credit in credited_sheets("piggyback", "previous_points"))
    assert credited_sheets("straight", 1400) == []


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_preset_is_the_defaults_with_what_presets_sets(name: str) -> None:
    rules = Ruleset.preset(name)
    assert rules.name == name
    defaults = RuleFields().model_dump(exclude={"name"})
    assert rules.model_dump(exclude={"name"}) == defaults | PRESETS[name]
