"""The drawing for a game's stage: the one function every place that shows a board calls."""

from __future__ import annotations

from bot.render.board import board, lobby
from bot.render.components import Rendered
from bot.render.dice import KEYCAP_ART, DiceArt
from bot.render.language import Translator
from bot.render.layout import ActionRow
from bot.render.parts import table_button
from bot.render.results import closed, results
from bot.render.review import odds_line, review_button
from bot.sessions.session import Snapshot


def render(
    snapshot: Snapshot,
    tr: Translator,
    art: DiceArt = KEYCAP_ART,
    *,
    watching: bool = False,
    at_the_table: bool = False,
) -> Rendered:
    """`watching`: a spectator's drawing, the roll drawn as faces (its die buttons are the player's);
    `at_the_table`: the Activity is set up, and a lobby or game offers "Play at the table"."""
    more = (table_button(tr),) if at_the_table else ()
    if snapshot.stage == "lobby":
        return lobby(snapshot, tr, more)
    if snapshot.stage == "closed":
        return closed(snapshot, tr)
    if snapshot.stage == "over":
        return results(snapshot, tr, extra=[ActionRow(review_button(snapshot.game_id, tr))])
    odds = [line for line in (odds_line(snapshot, tr),) if line]
    return board(snapshot, tr, art, extra_lines=odds, watching=watching, more=more)
