"""Changed rules ("custom") are named in the reader's language; presets keep the names members type."""

from __future__ import annotations

from bot.engine import Ruleset
from bot.render.table import render
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
    assert lobby_title(Ruleset.preset("classic"), "de").startswith("### 🎲 Farkle-Lobby · Regeln: classic")
