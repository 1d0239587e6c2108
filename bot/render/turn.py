"""The turn on a board: how the last turn ended, the dice set aside, the roll as die buttons, Roll and Bank.

Each die is drawn once: the roll only as its buttons (a selected die is a green button), the dice set
aside on one line with what they scored, hot dice as a 🔥 after the six that earned them. What ended
the previous turn is a quoted block naming its player, above the current player's heading, until the
current player rolls; the "Latest" list leaves out what that block (or the 🔥) already says.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import discord

from bot.engine import Event
from bot.engine.history import EntryFailed, Farkled, HotDice, PenaltyRoll, Piggybacked, Rolled, TurnStarted
from bot.render.components import rows
from bot.render.dice import DiceArt
from bot.render.language import Translator
from bot.render.layout import Button, Part, TextDisplay
from bot.render.parts import game_button
from bot.render.words import describe
from bot.sessions.actions import ButtonAction
from bot.sessions.session import Snapshot

NameOf = Callable[[str | int | None], str]
DICE_PER_ROW = 3  # thumb-sized buttons on a phone
SIX = 6
ENDED_BY_A_ROLL = (Farkled, PenaltyRoll, EntryFailed)  # the block shows the faces that ended the turn


@dataclass(frozen=True)
class LastTurn:
    """The previous turn's ending as drawn (None once the current player rolled), and which of the
    recent events it (or the set-aside line) shows, so "Latest" does not repeat them."""

    block: str | None
    shown: frozenset[int]


def _turn_start(recent: tuple[Event, ...], current: str) -> int | None:
    """Where the current player's turn starts in `recent` (None: not in the recent events)."""
    for index in range(len(recent) - 1, -1, -1):
        event = recent[index]
        if isinstance(event, TurnStarted):
            return index if event.player == current else None
    return None


def last_turn(snapshot: Snapshot, tr: Translator, art: DiceArt, name_of: NameOf) -> LastTurn:
    recent, current = snapshot.recent, str(snapshot.current)
    start = _turn_start(recent, current)
    if start is None:
        return LastTurn(None, frozenset())
    this_turn = range(start + 1, len(recent))
    hot = {i for i in this_turn if isinstance(recent[i], HotDice)}  # the set-aside line's 🔥 says it
    if any(isinstance(recent[i], Rolled | Piggybacked) for i in this_turn):
        return LastTurn(None, frozenset(hot))
    begin = next((i + 1 for i in range(start - 1, -1, -1) if isinstance(recent[i], TurnStarted)), 0)
    lines, shown = [], set(hot)
    for index in range(begin, start):
        event = recent[index]
        said = describe(event, name_of, tr)
        if not said:
            continue
        shown.add(index)
        rolled = next((e for e in reversed(recent[begin:index]) if isinstance(e, Rolled)), None)
        if isinstance(event, ENDED_BY_A_ROLL) and rolled is not None:
            said = f"{said} · {art.line(rolled.dice)}"
        lines.append(f"> {said}")
    return LastTurn("\n".join(lines) or None, frozenset(shown))


def set_aside_line(snapshot: Snapshot, tr: Translator, art: DiceArt) -> str | None:
    """The dice set aside this turn, once, with what they scored; a 🔥 after each six (hot dice)."""
    turn = snapshot.turn
    assert turn is not None
    inherited = 0
    if turn.piggybacked:
        inherited = next((e.points for e in snapshot.recent if isinstance(e, Piggybacked)), 0)
    return aside_text(turn.set_aside, turn.total - inherited, turn.hot_dice and not turn.roll, tr, art)


def aside_text(
    aside: tuple[int, ...], points: int, must_roll: bool, tr: Translator, art: DiceArt
) -> str | None:
    """ "Set aside: 1 5 5 (+200)", a 🔥 after each six; `must_roll`: hot dice waiting to be rolled."""
    if not aside:
        return None
    groups = [
        art.line(aside[i : i + SIX]) + (" 🔥" if len(aside) >= i + SIX else "")
        for i in range(0, len(aside), SIX)
    ]
    line = tr.text("Set aside: {dice} (+{points})", dice=" ".join(groups), points=tr.points(points))
    if must_roll:
        hot = tr.text("🔥 Hot dice! Roll all six again.")
        line = f"{line}\n{hot}"
    return line


def _die_button(snapshot: Snapshot, art: DiceArt, i: int, face: int) -> Button:
    """A die of the roll: its face, green while selected; a tap means the same twice (pick, drop)."""
    selected = i in snapshot.selection
    label, emoji = art.button(face)
    return game_button(
        snapshot,
        ButtonAction.DROP if selected else ButtonAction.PICK,
        label,
        emoji=emoji,
        arg=i,
        style=discord.ButtonStyle.success if selected else discord.ButtonStyle.secondary,
    )


def watched_roll(snapshot: Snapshot, tr: Translator, art: DiceArt) -> str | None:
    """ "🎲 Roll: 1 5 2 3 5 1 · 2 dice picked": the roll a spectator can't press, each die once."""
    turn = snapshot.turn
    if turn is None or not turn.roll:
        return None
    line = tr.text("🎲 Roll: {dice}", dice=art.line(turn.roll))
    if snapshot.selection:
        picked = tr.plural("{count} die picked", "{count} dice picked", len(snapshot.selection))
        line = f"{line} · {picked}"
    return line


def _scores(snapshot: Snapshot) -> bool:
    """Whether the dice selected so far score (nothing selected yet is not a mistake)."""
    preview = snapshot.preview
    return preview is not None and not (snapshot.selection and preview.error)


def farkle_odds(chance: Fraction, tr: Translator) -> str:
    """ "28 %" (a tenth under 10 %: "2.3 %"), as the Roll button reads it."""
    return tr.percent(chance, 0 if chance >= Fraction(1, 10) else 1)


def roll_label(snapshot: Snapshot, tr: Translator) -> str:
    turn, preview = snapshot.turn, snapshot.preview
    assert turn is not None and preview is not None
    if turn.roll and not _scores(snapshot):
        return tr.text("Doesn't score")
    if turn.roll and not preview.points:
        return tr.text("Pick dice to keep")
    if not turn.roll and turn.piggyback_dice is not None:
        roll = tr.text("Roll 6 fresh dice")
    elif not turn.roll:
        roll = tr.plural("Roll {count} die", "Roll {count} dice", preview.dice_to_roll)
    else:
        roll = tr.plural(
            "Roll {count} die (+{points})",
            "Roll {count} dice (+{points})",
            preview.dice_to_roll,
            points=tr.points(preview.points or 0),
        )
    return with_odds(roll, snapshot.next_farkle_chance if preview.can_roll else None, tr)


def with_odds(roll: str, chance: Fraction | None, tr: Translator) -> str:
    """The Roll button's words with the chance that roll farkles: "Roll 3 dice (+400) · 28 % Farkle"."""
    return (
        roll
        if chance is None
        else tr.text("{roll} · {chance} Farkle", roll=roll, chance=farkle_odds(chance, tr))
    )


def bank_label(snapshot: Snapshot, tr: Translator) -> str:
    turn, preview = snapshot.turn, snapshot.preview
    assert turn is not None and preview is not None
    if turn.roll and not _scores(snapshot):
        return tr.text("Doesn't score")
    if snapshot.bank_all is not None:
        return tr.text("Bank all {points}", points=tr.points(snapshot.bank_all))
    total = preview.turn_total if preview.points or not turn.roll else turn.total
    return tr.text("Bank {points}", points=tr.points(total))


def piggyback_label(dice: int, tr: Translator) -> str:
    return tr.plural("Piggyback on {count} die", "Piggyback on {count} dice", dice)


def turn_rows(
    snapshot: Snapshot, tr: Translator, art: DiceArt, *, watching: bool = False, more: Sequence[Button] = ()
) -> list[Part]:
    """The roll as die buttons in rows of three, then Roll / Piggyback / Bank and `more`; for a spectator
    (`watching`), the roll as one line of faces and how many are picked, with no buttons."""
    turn, preview = snapshot.turn, snapshot.preview
    assert turn is not None and preview is not None
    if watching:
        return [TextDisplay(line) for line in (watched_roll(snapshot, tr, art),) if line]
    dice = [_die_button(snapshot, art, i, face) for i, face in enumerate(turn.roll)]
    roll = game_button(
        snapshot,
        ButtonAction.ROLL,
        roll_label(snapshot, tr),
        style=discord.ButtonStyle.primary,
        disabled=not preview.can_roll,
    )
    controls = [roll]
    if turn.piggyback_dice is not None and not turn.roll:
        label = piggyback_label(turn.piggyback_dice, tr)
        controls.append(game_button(snapshot, ButtonAction.PIGGYBACK, label))
    can_bank = preview.can_bank or snapshot.bank_all is not None
    bank = game_button(
        snapshot,
        ButtonAction.BANK,
        bank_label(snapshot, tr),
        style=discord.ButtonStyle.success,
        disabled=not can_bank,
    )
    return [*rows(dice, width=DICE_PER_ROW), *rows([*controls, bank, *more])]
