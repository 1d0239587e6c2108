"""Game button ids: short, bounded, and a forged id matches nothing instead of raising."""

from __future__ import annotations

import re

import pytest

from bot.render.components import TEMPLATE, ButtonRef

MATCH = re.compile(TEMPLATE)


def test_an_id_round_trips_within_discords_limit() -> None:
    ref = ButtonRef("a1b2c3d4e5", "123-45", "pick", "5")
    match = MATCH.fullmatch(ref.custom_id)
    assert match is not None and len(ref.custom_id) <= 100
    assert ButtonRef(match["game"], match["seq"], match["action"], match["arg"]) == ref


@pytest.mark.parametrize(
    "forged",
    [
        "farkle:a1b2c3d4e5:" + "9" * 5000 + ":roll",
        "farkle:a1b2c3d4e5:1-1:pick:" + "9" * 5000,
        "farkle:" + "a" * 200 + ":1-1:roll",
        "farkle:a1b2c3d4e5:1-1:" + "x" * 50,
    ],
)
def test_a_forged_id_matches_nothing(forged: str) -> None:
    assert MATCH.fullmatch(forged) is None
