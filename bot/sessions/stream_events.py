"""The stream's vocabulary: what any feature may hear about games, dailies and achievements.

Frozen dataclasses, readable anywhere: a cog hears them through `SessionManager.subscribe`, but only the
session layer publishes them (`bot.sessions.stream.GameStream`, an import contract keeps it there).
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.core.records import Award, GameRecord
from bot.engine.review import GameReview
from bot.sessions.daily.attempt import DailyAttempt
from bot.sessions.outcome import Outcome, Restored


class Cause(enum.Enum):
    """What made a game change: the press and command answers draw their own change, the rest don't."""

    PRESS = "press"
    COMMAND = "command"
    TIMER = "timer"
    COMPUTER = "computer"
    ACTIVITY = "activity"  # a move from the Activity (`bot.activity`): no interaction answers it

    @property
    def answered(self) -> bool:
        """Whether an interaction answers this change (and so draws its board itself)."""
        return self in (Cause.PRESS, Cause.COMMAND)


@dataclass(frozen=True)
class GamesRestored:
    """A start-up loaded the saved games, before any of their timers is armed: a deadline that passed
    while the bot was down fires at once, and its change must find the views already read."""

    restored: Restored


@dataclass(frozen=True)
class GameChanged:
    """A change to one game was committed: the new state, its engine events, the turn ping it needs."""

    outcome: Outcome
    cause: Cause


@dataclass(frozen=True)
class GameEnded:
    """A game was archived: its record exactly as the archiving transaction stored it."""

    record: GameRecord


@dataclass(frozen=True)
class GameReviewed:
    """A finished game's review was made and stored (`bot.sessions.review`), seconds after its end; a
    start-up repeats it for reviews a crash may have left unheeded, so subscribers stay idempotent."""

    record: GameRecord
    review: GameReview


@dataclass(frozen=True)
class DailyChanged:
    """A member's daily attempt accepted a move (`bot.sessions.daily.door`): the attempt as it is now."""

    attempt: DailyAttempt


@dataclass(frozen=True)
class DailyEnded:
    """A member's daily attempt finished and was stored; a start-up repeats it until its achievements
    were handed out, so subscribers keep their writes idempotent by member and day."""

    attempt: DailyAttempt


@dataclass(frozen=True)
class Awarded:
    """Achievements handed out (`bot.sessions.achievements`) and what earned them: a game or a member's
    daily. `awards` holds only the new ones, and may be empty: a finished daily is always answered, so
    whoever waits to show its achievements can stop waiting."""

    awards: tuple[Award, ...]
    game: GameRecord | None = None
    daily: DailyAttempt | None = None


GameEvent = GamesRestored | GameChanged | GameEnded | GameReviewed | DailyChanged | DailyEnded | Awarded
Subscriber = Callable[[GameEvent], Awaitable[None]]
Publish = Callable[[GameEvent], None]
