"""A review drawn in every language stays inside Discord's card limits, even with eight players whose
names are long and whose every decision cost something."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from bot.engine.luck import Moment
from bot.engine.review import COSTLIEST_SHOWN, Decision, GameReview, Move, PlayerReview
from bot.render.components import MOST_COMPONENTS, MOST_TEXT
from bot.render.language import LANGUAGES
from bot.render.layout import MediaGallery, TextDisplay
from bot.render.review import REVIEW_TEMPLATE, review_button, review_card, split_line
from bot.services.i18n import translator

WORST = Decision(
    "0",
    9999,
    3,
    (1, 5, 5, 2, 3, 4),
    Move("roll", (1, 5, 5), 123_450, 3),
    Move("piggyback", (), 123_450, 5),
    0.0,
    1_000_000.0,
    -100_000.0,
)


def crowded(measure: str, turning: Moment) -> tuple[GameReview, dict[str, str]]:
    players = tuple(
        PlayerReview(str(seat), 9999, 0.123, 9999, (WORST,) * COSTLIEST_SHOWN) for seat in range(8)
    )
    names = {str(seat): "W" * 200 for seat in range(8)}
    moments = (turning, *(replace(turning, player=str(seat), after=-1e9) for seat in range(1, 8)))
    return GameReview(measure, players, (WORST,), moments), names  # type: ignore[arg-type]


# The turning point as each kind of moment: a decision, a timeout, leaving, a farkle, a roll, a bank.
TURNING = [
    Moment("0", 9999, 3, "roll", (1, 5, 5, 2, 3, 4), False, 1e9, -1e9, -1e9),
    Moment("0", 9999, 4, "timeout", (), False, 1e9, -1e9, -1e9),
    Moment("0", 9999, 4, "leave", (), False, 1e9, -1e9, -1e9),
    Moment("0", 9999, 4, "roll", (2, 3, 4, 6, 2, 3), True, 1e9, 1e9, -1e9),
    Moment("0", 9999, 4, "roll", (1, 5, 5, 2, 3, 4), False, 1e9, 1e9, -1e9),
    Moment("0", 9999, 4, "bank", (), False, 1e9, 1e9, -1e9),
]


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("measure", ["win", "turn"])
@pytest.mark.parametrize("turning", TURNING)
def test_every_language_draws_a_crowded_review_within_discords_limits(
    language: str, measure: str, turning: Moment
) -> None:
    review, names = crowded(measure, turning)
    tr = translator(language)
    card = review_card("a1b2c3d4e5", review, names, tr, chart=True)
    shown = list(card.view.walk_parts())
    text = [item.content for item in shown if isinstance(item, TextDisplay)]
    assert len(shown) + 1 <= MOST_COMPONENTS and sum(len(t) for t in text) <= MOST_TEXT
    assert len(text) == 1 + 8 + 1, "the head, a block per player, the footer"
    head = text[0]
    assert "📍" in head and tr.number(9999) in head
    for seat, block in enumerate(text[1:9]):
        assert (split_line(review, str(seat), tr) or "?") in block
    galleries = [item for item in shown if isinstance(item, MediaGallery)]
    assert len(galleries) == 1 and len(galleries[0].items[0].description or "") <= 256


def test_the_review_button_id_is_stable_and_matched() -> None:
    button = review_button("a1b2c3d4e5", translator("en"))
    assert button.custom_id == "farkle-review:a1b2c3d4e5"
    assert re.fullmatch(REVIEW_TEMPLATE, button.custom_id or "")
    assert re.fullmatch(REVIEW_TEMPLATE, "farkle-review:" + "a" * 5000) is None
