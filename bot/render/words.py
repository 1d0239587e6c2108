"""Engine events and numbers in the words players read on the board."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from bot.engine import Event
from bot.engine.events import (
    Banked,
    EntryFailed,
    Farkled,
    FinalRound,
    GameOver,
    HotDice,
    Left,
    Overflow,
    PenaltyRoll,
    Piggybacked,
    Playoff,
    Removed,
    RollOff,
    Safe,
    ThreeFarkles,
    TimedOut,
)

# Discord refuses a whole message over these limits, so every drawn text that can grow is clipped.
MESSAGE_LIMIT = 2000
TITLE_LIMIT = 256
FIELD_LIMIT = 1024
DESCRIPTION_LIMIT = 4096
NAME_LIMIT = 32  # Discord's own limit for display names; payloads can still carry longer ones
ECHO_LIMIT = 100

FACES = {1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅"}
KEYCAPS = {1: "1️⃣", 2: "2️⃣", 3: "3️⃣", 4: "4️⃣", 5: "5️⃣", 6: "6️⃣"}


def points(value: int) -> str:
    """Thousands separators and a real minus sign: "1,150", "−1,000"."""
    return f"−{-value:,}" if value < 0 else f"{value:,}"


def clip(text: str, limit: int) -> str:
    """At most `limit` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def echo(typed: str) -> str:
    """What a member typed, short enough to quote back in any reply."""
    return clip(typed, ECHO_LIMIT)


def capped_name(display_name: str) -> str:
    """A member's name as drawn on boards, lists and titles."""
    return clip(display_name, NAME_LIMIT)


def typed_words(value: object) -> str:
    """A setting's value as people type it: on/off for flags, off for an unset number."""
    if value is None:
        return "off"
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def percent(chance: Fraction) -> str:
    return f"{float(chance) * 100:.1f}%"


NameOf = Callable[[str | None], str]


def describe(event: Event, name_of: NameOf) -> str | None:
    """One line for a notable event; rolls, keeps and turn starts are shown by the board itself."""
    match event:
        case RollOff(player, dice):
            return f"🎲 {name_of(player)} won the roll-off ({', '.join(map(str, dice))}) and starts"
        case Farkled(player, lost):
            return (
                f"💥 {name_of(player)} farkled and lost {points(lost)}"
                if lost
                else f"💥 {name_of(player)} farkled"
            )
        case Banked(player, banked, bank):
            return f"🏦 {name_of(player)} banked {points(banked)} (now {points(bank)})"
        case HotDice(player):
            return f"🔥 {name_of(player)} has hot dice!"
        case ThreeFarkles(player, _, bank):
            return f"☠️ Third Farkle in a row for {name_of(player)}: bank now {points(bank)}"
        case PenaltyRoll(player, _, bank):
            return f"☠️ {name_of(player)} rolled the penalty roll: bank now {points(bank)}"
        case EntryFailed(player, lost):
            return f"🚪 {name_of(player)} didn't get on the board in time and lost {points(lost)}"
        case Overflow(_, excess, _, recipient):
            return f"↪️ {points(excess)} over the target went to {name_of(recipient)}"
        case Piggybacked(player, inherited, dice):
            return f"🐷 {name_of(player)} piggybacks on {dice} dice for {points(inherited)}"
        case FinalRound(player):
            return f"🏁 {name_of(player)} reached the target: everyone else gets one last turn"
        case Playoff(player):
            return f"⚔️ Tie! {name_of(player)} plays a play-off turn"
        case TimedOut(player, strikes):
            return f"⏰ {name_of(player)} ran out of time ({strikes} in a row)"
        case Removed(player):
            return f"🚫 {name_of(player)} was removed after three idle turns"
        case Left(player):
            return f"👋 {name_of(player)} left the game"
        case Safe(player):
            return f"🛟 {name_of(player)} is safe"
        case GameOver():
            return "🏆 Game over"
    return None
