"""What every game card shares: the game's buttons, seats named in the reader's language, the title."""

from __future__ import annotations

import re
from collections.abc import Callable

from discord import ButtonStyle, PartialEmoji

from bot.engine.messages import N_
from bot.engine.skilled import SKILL_PREFIX, skill_of_level
from bot.render.components import ButtonRef
from bot.render.language import Translator
from bot.render.layout import Button, TextDisplay
from bot.render.words import capped_name, clip
from bot.sessions.actions import ButtonAction
from bot.sessions.session import SeatView, Snapshot

TITLE_LIMIT = 256
TEAM_NAMES = (N_("Red"), N_("Blue"), N_("Green"), N_("Yellow"))
# The "Play at the table" button's id: it names no game (the Activity shows the channel's), so it never
# changes (`cogs/activity.py` answers it).
TABLE_BUTTON = "farkle-table"
LEVEL_NAMES = {"easy": N_("easy"), "normal": N_("normal"), "expert": N_("expert"), "master": N_("master")}


def game_button(
    snapshot: Snapshot,
    action: ButtonAction,
    label: str | None,
    *,
    arg: int | str | None = None,
    style: ButtonStyle = ButtonStyle.secondary,
    emoji: str | PartialEmoji | None = None,
    disabled: bool = False,
) -> Button:
    """A plain button with the game's custom id: the board edge answers it on any message."""
    ref = ButtonRef(snapshot.game_id, snapshot.seq, action, None if arg is None else str(arg))
    return Button(custom_id=ref.custom_id, label=label, style=style, emoji=emoji, disabled=disabled)


def table_button(tr: Translator) -> Button:
    """ "Play at the table": opens the Activity (`cogs/activity.py`); the same id on every board."""
    return Button(custom_id=TABLE_BUTTON, label=tr.text("Play at the table"), emoji="🎲")


def level_name(level: str, tr: Translator) -> str:
    return tr.term(LEVEL_NAMES.get(level, level))


def computer_name(number: int, level: str, tr: Translator) -> str:
    """A computer as drawn everywhere (board, odds, review, history): "Ordinateur 1 (expert)"."""
    skill = skill_of_level(level)
    if skill is not None:  # a computer at a chosen skill: "Computer 2 (skill 72)"
        return tr.text("Computer {number} (skill {skill})", number=number, skill=skill)
    return tr.text("Computer {number} ({level})", number=number, level=level_name(level, tr))


def seat_name(seat: SeatView, tr: Translator) -> str:
    """A seat as drawn: a member's display name, capped (a payload's can be far longer than Discord's own
    limit); a computer named in the reader's language ("Computer 1 (normal)" is how the session stores it)."""
    if seat.computer is None:
        return capped_name(seat.name)
    return computer_name(-seat.user_id, seat.computer, tr)


STORED_COMPUTER = re.compile(r"Computer (\d{1,2}) \((easy|normal|expert|master|skill (\d{2,3}))\)")


def stored_name(name: str, tr: Translator) -> str:
    """A name as a finished game keeps it (history, replay, review): a computer's, stored in English
    ("Computer 1 (master)"), drawn in the reader's language like a seat's."""
    match = STORED_COMPUTER.fullmatch(name)
    if match is None:
        return capped_name(name)
    return computer_name(int(match[1]), SKILL_PREFIX + match[3] if match[3] else match[2], tr)


def names(snapshot: Snapshot, tr: Translator) -> Callable[[str | int | None], str]:
    """Player ids (as events carry them) to seat names as drawn."""
    seats = {str(seat.user_id): seat for seat in snapshot.seats}

    def name_of(player: str | int | None) -> str:
        seat = seats.get(str(player))
        return seat_name(seat, tr) if seat is not None else tr.text("someone")

    return name_of


def team_name(team: int | None, tr: Translator) -> str:
    return tr.term(TEAM_NAMES[(team or 1) - 1])


def title_block(title: str, *lines: str) -> TextDisplay:
    """The card's header: a large title, then its lines."""
    return TextDisplay("\n".join([f"### {clip(title, TITLE_LIMIT)}", *lines]))
