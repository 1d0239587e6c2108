"""What happened in a game, one type per kind, each with exactly the fields that kind has.

Saved games and sessions store an event as a row `[kind, player, points, dice, total, other]` (the layout
of the first saved games, which must keep loading). Each type names the row columns its fields go to, so
one pair of functions converts every kind both ways.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, ClassVar, TypeAlias

from bot.engine.saved import JSON, json_ints

# Row columns after the kind.
_PLAYER, _POINTS, _DICE, _TOTAL, _OTHER = 1, 2, 3, 4, 5
_DICT_KEYS = ("kind", "player", "points", "dice", "total", "other")  # sessions saved before rows


@dataclass(frozen=True, slots=True)
class _PlayerEvent:
    """A kind that names only the player it happened to."""

    player: str
    kind: ClassVar[str]
    columns: ClassVar[tuple[int, ...]] = (_PLAYER,)


@dataclass(frozen=True, slots=True)
class RollOff:
    """The side of `player` won the opening roll-off with these dice (one die per contender)."""

    player: str
    dice: tuple[int, ...]
    kind: ClassVar[str] = "roll_off"
    columns: ClassVar[tuple[int, ...]] = (_PLAYER, _DICE)


@dataclass(frozen=True, slots=True)
class Rolled:
    player: str
    dice: tuple[int, ...]
    kind: ClassVar[str] = "rolled"
    columns: ClassVar[tuple[int, ...]] = (_PLAYER, _DICE)


@dataclass(frozen=True, slots=True)
class Kept:
    """Dice set aside for `points`, making the turn worth `turn_total`."""

    player: str
    points: int
    dice: tuple[int, ...]
    turn_total: int
    kind: ClassVar[str] = "kept"
    columns: ClassVar[tuple[int, ...]] = (_PLAYER, _POINTS, _DICE, _TOTAL)


@dataclass(frozen=True, slots=True)
class HotDice:
    player: str
    turn_total: int
    kind: ClassVar[str] = "hot_dice"
    columns: ClassVar[tuple[int, ...]] = (_PLAYER, _TOTAL)


@dataclass(frozen=True, slots=True)
class Banked:
    player: str
    points: int
    bank: int
    kind: ClassVar[str] = "banked"
    columns: ClassVar[tuple[int, ...]] = (_PLAYER, _POINTS, _TOTAL)


@dataclass(frozen=True, slots=True)
class Overflow:
    """Exact target: `points` past it went to `recipient`, whose bank is now `bank`."""

    player: str
    points: int
    bank: int
    recipient: str
    kind: ClassVar[str] = "overflow"
    columns: ClassVar[tuple[int, ...]] = (_PLAYER, _POINTS, _TOTAL, _OTHER)


@dataclass(frozen=True, slots=True)
class EntryFailed:
    """A limited entry roll ended short of `needed`, losing the turn's `points`."""

    player: str
    points: int
    needed: int
    kind: ClassVar[str] = "entry_failed"
    columns: ClassVar[tuple[int, ...]] = (_PLAYER, _POINTS, _TOTAL)


@dataclass(frozen=True, slots=True)
class Farkled:
    """A roll with nothing to keep: the turn's `points` are lost."""

    player: str
    points: int
    kind: ClassVar[str] = "farkled"
    columns: ClassVar[tuple[int, ...]] = (_PLAYER, _POINTS)


@dataclass(frozen=True, slots=True)
class ThreeFarkles:
    """The third Farkle in a row changed the bank by `change` (negative) to `bank`."""

    player: str
    change: int
    bank: int
    kind: ClassVar[str] = "three_farkles"
    columns: ClassVar[tuple[int, ...]] = (_PLAYER, _POINTS, _TOTAL)


@dataclass(frozen=True, slots=True)
class PenaltyRoll:
    """The penalty roll changed the bank by `change` (zero or negative) to `bank`."""

    player: str
    change: int
    bank: int
    kind: ClassVar[str] = "penalty_roll"
    columns: ClassVar[tuple[int, ...]] = (_PLAYER, _POINTS, _TOTAL)


@dataclass(frozen=True, slots=True)
class Piggybacked:
    """The player took the previous bank's `dice` unused dice, inheriting `points`."""

    player: str
    points: int
    dice: int
    kind: ClassVar[str] = "piggyback"
    columns: ClassVar[tuple[int, ...]] = (_PLAYER, _POINTS, _TOTAL)


@dataclass(frozen=True, slots=True)
class TimedOut:
    """The turn timed out; `strikes` idle turns in a row so far (0: the session banked the turn for the
    player, who was not idle)."""

    player: str
    strikes: int
    kind: ClassVar[str] = "timed_out"
    columns: ClassVar[tuple[int, ...]] = (_PLAYER, _TOTAL)


@dataclass(frozen=True, slots=True)
class TurnStarted(_PlayerEvent):
    kind: ClassVar[str] = "turn_started"


@dataclass(frozen=True, slots=True)
class Safe(_PlayerEvent):
    """Last-loses: the player's side reached the target and can no longer lose."""

    kind: ClassVar[str] = "safe"


@dataclass(frozen=True, slots=True)
class FinalRound(_PlayerEvent):
    """The player's side reached the target: every other side gets one last turn."""

    kind: ClassVar[str] = "final_round"


@dataclass(frozen=True, slots=True)
class Playoff(_PlayerEvent):
    kind: ClassVar[str] = "playoff"


@dataclass(frozen=True, slots=True)
class Left(_PlayerEvent):
    kind: ClassVar[str] = "left"


@dataclass(frozen=True, slots=True)
class Removed(_PlayerEvent):
    """Removed after too many idle turns in a row."""

    kind: ClassVar[str] = "removed"


@dataclass(frozen=True, slots=True)
class GameOver:
    """`winner` is the first winner, or None when nobody won (everyone left)."""

    winner: str | None
    kind: ClassVar[str] = "game_over"
    columns: ClassVar[tuple[int, ...]] = (_PLAYER,)


Event: TypeAlias = (
    RollOff
    | Rolled
    | Kept
    | HotDice
    | Banked
    | Overflow
    | EntryFailed
    | Farkled
    | ThreeFarkles
    | PenaltyRoll
    | Piggybacked
    | TimedOut
    | TurnStarted
    | Safe
    | FinalRound
    | Playoff
    | Left
    | Removed
    | GameOver
)

_KINDS: dict[str, type[Event]] = {
    kind.kind: kind
    for kind in (
        RollOff,
        Rolled,
        Kept,
        HotDice,
        Banked,
        Overflow,
        EntryFailed,
        Farkled,
        ThreeFarkles,
        PenaltyRoll,
        Piggybacked,
        TimedOut,
        TurnStarted,
        Safe,
        FinalRound,
        Playoff,
        Left,
        Removed,
        GameOver,
    )
}


def _layout(cls: type[Event]) -> tuple[str, Callable[[Event], tuple[JSON, ...]], tuple[tuple[int, int], ...]]:
    """How a kind fills a row: its name, a getter of its field values, and (column, value index) pairs."""
    names = [f.name for f in fields(cls)]
    assert len(names) == len(cls.columns), f"{cls.__name__} needs one column per field"
    getter: Callable[[Event], Any] = attrgetter(*names)
    get: Callable[[Event], tuple[JSON, ...]] = getter if len(names) > 1 else lambda event: (getter(event),)
    return cls.kind, get, tuple((column, i) for i, column in enumerate(cls.columns))


# Every saved game turns its whole event log into rows on every save: worked out once per kind.
_LAYOUTS = {cls: _layout(cls) for cls in _KINDS.values()}


def event_row(event: Event) -> list[JSON]:
    """The stored row of an event: its kind, then each field in its column (dice as a list)."""
    kind, get, columns = _LAYOUTS[type(event)]
    values = get(event)
    row: list[JSON] = [kind, None, 0, [], 0, None]
    for column, i in columns:
        value = values[i]
        row[column] = list(value) if isinstance(value, tuple) else value
    return row


def event_from_row(row: JSON) -> Event:
    """An event from its stored row, or from the dict of the same columns older sessions saved."""
    if isinstance(row, dict):
        row = [row.get(key) for key in _DICT_KEYS]
    if not isinstance(row, list) or not row or not isinstance(row[0], str) or row[0] not in _KINDS:
        raise ValueError(f"Unknown saved event {row!r}.")
    cls = _KINDS[row[0]]
    values = (_stored_value(row[c], c == _DICE) for c in cls.columns)
    return cls(*values)  # type: ignore[arg-type]  # the columns are the fields, in order


def _stored_value(value: JSON, dice: bool) -> JSON | tuple[int, ...]:
    """Dice as a tuple; text (a player's id) interned: every event of a player read back shares one
    string, as the events of a live game do, not a copy each."""
    if dice:
        return tuple(json_ints(value))
    return sys.intern(value) if isinstance(value, str) else value
