"""Changed rules ("custom") are named in the reader's language; presets too, with the name members type
after it where the words differ."""

from __future__ import annotations

import pytest

from bot.engine import PRESET_NAMES, Ruleset
from bot.render.table import render
from bot.render.words import rules_name
from bot.services.i18n import translator
from bot.sessions.session import Seat, Session


def lobby_title(rules: Ruleset, language: str) -> str:
    session = Session(game_id="abc", guild_id=1, channel_id=2, host_id=10, rules=rules)
    session.seats = [Seat(10, "ana")]
    shown = [item for item in render(session.snapshot(), translator(language)).view.walk_parts()]
    return next(str(getattr(item, "content", "")) for item in shown if getattr(item, "content", None))


def test_custom_rules_are_named_in_german() -> None:
    custom = Ruleset.preset("classic").model_copy(update={"name": "custom"})
    assert lobby_title(custom, "de").startswith("### 🎲 Farkle-Lobby · Regeln: eigene")
    assert "custom" not in lobby_title(custom, "de")
    assert lobby_title(Ruleset.preset("classic"), "de").startswith(
        "### 🎲 Farkle-Lobby · Regeln: klassisch (classic)"
    )


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("en", "classic"),
        ("de", "klassisch (classic)"),
        ("fr", "classique (classic)"),
        ("es", "clásico (classic)"),
        ("pt-BR", "clássico (classic)"),
    ],
)
def test_a_presets_name_is_a_word_in_every_language_beside_the_name_typed(language: str, shown: str) -> None:
    assert rules_name("classic", translator(language)) == shown
    for preset in PRESET_NAMES:
        drawn = rules_name(preset, translator(language))
        assert drawn == preset or drawn.endswith(f"({preset})"), drawn
    assert rules_name("my-house", translator(language)) == "my-house", "a saved ruleset keeps its name"
