"""What the session layer hands back up: an `Outcome` per change, a `Restored` per start-up, a `Hint`."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.core.records import GameRecord
from bot.engine import Advice, Event
from bot.engine.history import GameOver, TurnStarted
from bot.engine.master import WinAdvice
from bot.engine.messages import Message
from bot.sessions.session import Snapshot


@dataclass(frozen=True)
class Outcome:
    """What happened, for the Discord layer to show: a refusal, or a new state and its events."""

    snapshot: Snapshot | None = None
    refusal: Message | None = None
    events: tuple[Event, ...] = ()
    turn_for: int | None = None
    reminder_for: int | None = None
    opened: bool = False  # a new lobby: this answer posts its message (a rematch pressed twice opens one)
    # Members a new lobby asks to join once (a rematch: the last game's players).
    invited: tuple[int, ...] = ()
    finished: GameRecord | None = None  # the game ended with this change: its record, as archived
    # Pressed on a drawing older than the game (a board a crash left behind, say): `snapshot` is the game
    # now, so a press on the game's own board is answered by redrawing it; elsewhere `refusal` is said.
    outdated: bool = False

    @classmethod
    def refuse(cls, reason: Message, snapshot: Snapshot | None = None) -> Outcome:
        """Nothing changed, and why; with `snapshot`, the game as it really is (its board needs redrawing)."""
        return cls(snapshot=snapshot, refusal=reason)

    @classmethod
    def drawn_before(cls, reason: Message, snapshot: Snapshot) -> Outcome:
        return cls(snapshot=snapshot, refusal=reason, outdated=True)

    @property
    def moved_turn(self) -> bool:
        """The turn passed or the game ended with this change (a ping or reminder is now stale)."""
        return any(isinstance(event, TurnStarted | GameOver) for event in self.events)

    def as_opened(self, invited: tuple[int, ...] = ()) -> Outcome:
        return replace(self, opened=True, invited=invited) if self.snapshot is not None else self


@dataclass(frozen=True)
class Restored:
    """What a start-up found: the games restored (their views catch up), and saved games that could not
    be read."""

    sessions: tuple[Snapshot, ...]
    unreadable: tuple[int, ...]


@dataclass(frozen=True)
class Hint:
    """The Hint button's answer: the expert's turn advice and, in a two-player game, the chance to win
    after each choice (None while the win tables are being solved: `warming_up`, or where none apply); with
    three or more players, the chance to win now as the board's playouts estimated it for the turn."""

    advice: Advice
    chances: WinAdvice | None
    warming_up: bool
    estimated: float | None = None
