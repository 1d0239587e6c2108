"""Engine events and numbers in the words players read on the board."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from bot.engine import Event

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


def dice_line(faces: tuple[int, ...]) -> str:
    """Keycap digits: large and unambiguous on desktop and mobile alike."""
    return " ".join(KEYCAPS[face] for face in faces) if faces else "—"


def percent(chance: Fraction) -> str:
    return f"{float(chance) * 100:.1f}%"


NameOf = Callable[[str | None], str]

_PHRASES: dict[str, Callable[[Event, NameOf], str]] = {
    "roll_off": lambda e, n: f"🎲 {n(e.player)} won the roll-off ({', '.join(map(str, e.dice))}) and starts",
    "farkled": lambda e, n: (
        f"💥 {n(e.player)} farkled and lost {points(e.points)}" if e.points else f"💥 {n(e.player)} farkled"
    ),
    "banked": lambda e, n: f"🏦 {n(e.player)} banked {points(e.points)} (now {points(e.total)})",
    "hot_dice": lambda e, n: f"🔥 {n(e.player)} has hot dice!",
    "three_farkles": lambda e, n: f"☠️ Third Farkle in a row for {n(e.player)}: bank now {points(e.total)}",
    "penalty_roll": lambda e, n: f"☠️ {n(e.player)} rolled the penalty roll: bank now {points(e.total)}",
    "entry_failed": lambda e, n: (
        f"🚪 {n(e.player)} didn't get on the board in time and lost {points(e.points)}"
    ),
    "overflow": lambda e, n: f"↪️ {points(e.points)} over the target went to {n(e.other)}",
    "piggyback": lambda e, n: f"🐷 {n(e.player)} piggybacks on {e.total} dice for {points(e.points)}",
    "final_round": lambda e, n: f"🏁 {n(e.player)} reached the target: everyone else gets one last turn",
    "playoff": lambda e, n: f"⚔️ Tie! {n(e.player)} plays a play-off turn",
    "timed_out": lambda e, n: f"⏰ {n(e.player)} ran out of time ({e.total} in a row)",
    "removed": lambda e, n: f"🚫 {n(e.player)} was removed after three idle turns",
    "left": lambda e, n: f"👋 {n(e.player)} left the game",
    "safe": lambda e, n: f"🛟 {n(e.player)} is safe",
    "game_over": lambda e, n: "🏆 Game over",
}


def describe(event: Event, name_of: NameOf) -> str | None:
    """One line for a notable event; rolls, keeps and turn starts are shown by the board itself."""
    phrase = _PHRASES.get(event.kind)
    return phrase(event, name_of) if phrase else None
