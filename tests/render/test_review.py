"""A review drawn in every language stays inside Discord's embed limits, even with eight players whose
names are long and whose every decision cost something."""

from __future__ import annotations

import re

import discord
import pytest

from bot.engine.review import COSTLIEST_SHOWN, Decision, GameReview, Move, PlayerReview
from bot.i18n import translator
from bot.render.language import LANGUAGES
from bot.render.review import REVIEW_TEMPLATE, review_button, review_embed
from tests.cogs.play import assert_within_discord_limits

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


def crowded(measure: str) -> tuple[GameReview, dict[str, str]]:
    players = tuple(
        PlayerReview(str(seat), 9999, 0.123, 9999, (WORST,) * COSTLIEST_SHOWN) for seat in range(8)
    )
    names = {str(seat): "W" * 200 for seat in range(8)}
    return GameReview(measure, players, (WORST,)), names  # type: ignore[arg-type]


class Drawn:
    """What `assert_within_discord_limits` reads of a message: its content, embeds and components."""

    def __init__(self, embed: object) -> None:
        self.content, self.embeds, self.components = "", [embed], []
        self.flags = discord.MessageFlags()


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("measure", ["win", "turn"])
def test_every_language_draws_a_crowded_review_within_discords_limits(language: str, measure: str) -> None:
    review, names = crowded(measure)
    embed = review_embed("a1b2c3d4e5", review, names, translator(language))
    assert_within_discord_limits(Drawn(embed))  # type: ignore[arg-type]
    assert len(embed.fields) == 8


def test_the_review_button_id_is_stable_and_matched() -> None:
    button = review_button("a1b2c3d4e5", translator("en"))
    assert button.custom_id == "farkle-review:a1b2c3d4e5"
    assert re.fullmatch(REVIEW_TEMPLATE, button.custom_id or "")
    assert re.fullmatch(REVIEW_TEMPLATE, "farkle-review:" + "a" * 5000) is None
