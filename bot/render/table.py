"""The drawing for a game's stage: the one function every place that shows a board calls."""

from __future__ import annotations

from bot.render.board import board, lobby
from bot.render.components import Rendered
from bot.render.dice import KEYCAP_ART, DiceArt
from bot.render.language import Translator
from bot.render.results import closed, results
from bot.sessions.session import Snapshot


def render(snapshot: Snapshot, tr: Translator, art: DiceArt = KEYCAP_ART) -> Rendered:
    if snapshot.stage == "lobby":
        return lobby(snapshot, tr)
    if snapshot.stage == "closed":
        return closed(snapshot, tr)
    if snapshot.stage == "over":
        return results(snapshot, tr)
    return board(snapshot, tr, art)
