"""Engine events and numbers in the words players read on the board."""

from __future__ import annotations

from collections.abc import Callable

from bot.engine import Event
from bot.engine.history import (
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
from bot.engine.messages import N_
from bot.render.language import Translator

# Discord refuses a whole message over these limits, so every drawn text that can grow is clipped.
MESSAGE_LIMIT = 2000
TITLE_LIMIT = 256
FIELD_LIMIT = 1024
DESCRIPTION_LIMIT = 4096
NAME_LIMIT = 32  # Discord's own limit for display names; payloads can still carry longer ones
ECHO_LIMIT = 100

KEYCAPS = {1: "1️⃣", 2: "2️⃣", 3: "3️⃣", 4: "4️⃣", 5: "5️⃣", 6: "6️⃣"}


def clip(text: str, limit: int) -> str:
    """At most `limit` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def echo(typed: str) -> str:
    """What a member typed, short enough to quote back in any reply."""
    return clip(typed, ECHO_LIMIT)


CUSTOM_RULES = N_("custom")


# The presets' names are words members read as well as names they type (`/farkle new rules:classic`).
PRESET_WORDS = {
    "classic": N_("classic"),
    "box": N_("box"),
    "doubling": N_("doubling"),
    "last-loses": N_("last-loses"),
    "family": N_("family"),
}


def rules_name(name: str, tr: Translator) -> str:
    """A ruleset's name as drawn: a preset in the reader's language with the name members type after it
    where they differ ("klassisch (classic)"), saved rulesets by their typed name, changed rules
    ("custom", which nobody types) in the reader's language."""
    if name == "custom":
        return tr.term(CUSTOM_RULES)
    word = PRESET_WORDS.get(name)
    if word is None or tr.term(word) == name:
        return name
    return tr.text("{word} ({name})", word=tr.term(word), name=name)


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


NameOf = Callable[[str | None], str]


def describe(event: Event, name_of: NameOf, tr: Translator) -> str | None:
    """One line for a notable event; rolls, keeps and turn starts are shown by the board itself."""
    match event:
        case RollOff(player, dice):
            return tr.text(
                "🎲 {name} won the roll-off ({dice}) and starts",
                name=name_of(player),
                dice=", ".join(map(str, dice)),
            )
        case Farkled(player, lost) if lost:
            return tr.text(
                "💥 {name} farkled and lost {points}", name=name_of(player), points=tr.points(lost)
            )
        case Farkled(player, _):
            return tr.text("💥 {name} farkled", name=name_of(player))
        case Banked(player, banked, bank):
            return tr.text(
                "🏦 {name} banked {points} (now {bank})",
                name=name_of(player),
                points=tr.points(banked),
                bank=tr.points(bank),
            )
        case HotDice(player):
            return tr.text("🔥 {name} has hot dice!", name=name_of(player))
        case ThreeFarkles(player, _, bank):
            return tr.text(
                "☠️ Third Farkle in a row for {name}: bank now {bank}",
                name=name_of(player),
                bank=tr.points(bank),
            )
        case PenaltyRoll(player, _, bank):
            return tr.text(
                "☠️ {name} rolled the penalty roll: bank now {bank}",
                name=name_of(player),
                bank=tr.points(bank),
            )
        case EntryFailed(player, lost):
            return tr.text(
                "🚪 {name} didn't get on the board in time and lost {points}",
                name=name_of(player),
                points=tr.points(lost),
            )
        case Overflow(_, excess, _, recipient):
            return tr.text(
                "↪️ {points} over the target went to {name}", points=tr.points(excess), name=name_of(recipient)
            )
        case Piggybacked(player, inherited, dice):
            return tr.plural(
                "🐷 {name} piggybacks on {count} die for {points}",
                "🐷 {name} piggybacks on {count} dice for {points}",
                dice,
                name=name_of(player),
                points=tr.points(inherited),
            )
        case FinalRound(player):
            return tr.text(
                "🏁 {name} reached the target: everyone else gets one last turn", name=name_of(player)
            )
        case Playoff(player):
            return tr.text("⚔️ Tie! {name} plays a play-off turn", name=name_of(player))
        case TimedOut(player, 0):  # a turn with a bank to make: made for them
            return tr.text(
                "⏰ {name} ran out of time: the turn total is banked for them", name=name_of(player)
            )
        case TimedOut(player, strikes):
            return tr.text(
                "⏰ {name} ran out of time: the turn ends like a Farkle ({count} in a row)",
                name=name_of(player),
                count=strikes,
            )
        case Removed(player):
            return tr.text("🚫 {name} was removed after three idle turns", name=name_of(player))
        case Left(player):
            return tr.text("👋 {name} left the game", name=name_of(player))
        case Safe(player):
            return tr.text("🛟 {name} is safe", name=name_of(player))
        case GameOver():
            return tr.text("🏆 Game over")
    return None
