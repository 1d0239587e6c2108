"""Game button ids: short, bounded, and a forged id matches nothing instead of raising; drawings sent are
freed at once."""

from __future__ import annotations

import gc
import re
import weakref

import pytest

from bot.render.components import TEMPLATE, ButtonRef, card
from bot.render.layout import ActionRow, Button, TextDisplay

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


def test_a_drawing_sent_is_freed_without_the_cycle_collector() -> None:
    """A drawing's parts link to nothing but their children: it is not cyclic garbage left for the
    collector (issue 40), and sent again (a redraw after a failed answer) it sends the same."""
    roll = Button(label="Roll", custom_id="farkle:1:1-1:roll")
    view = card([ActionRow(roll), TextDisplay("**ana's turn**")]).view
    sent = view.to_components()
    assert view.has_components_v2()
    assert view.to_components() == sent and sent[0]["components"][1]["content"] == "**ana's turn**"
    drawing = weakref.ref(view)
    gc.disable()
    try:
        del view
        assert drawing() is None, "the drawing waits for the cycle collector"
    finally:
        gc.enable()
