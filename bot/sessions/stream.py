"""One stream of game events: every accepted change to a game, whatever caused it, and every game's end.

Features watch games by subscribing here (the board edge, review, achievements): nothing else tells them
a game changed; a game's stored review (`GameReviewed`) and daily attempts (`DailyChanged`, `DailyEnded`)
are published here too. Events are
delivered in order by one background task, so a subscriber never delays the answer to the press that
caused the change, and each is awaited before the next event, so a subscriber sees a game's changes in
the order they were committed.

`GameEnded` is announced exactly once per game id: the archiving transaction stores the game as not yet
announced (`games.announced = 0`); once every subscriber has been handed the event it is marked, and a
start-up announces what a crash left unmarked, rebuilt from what that transaction stored. A process
never delivers the same game's end twice; only a crash in the instant between the delivery and the mark
can repeat it after a restart, so subscribers that write keep their writes idempotent by game id.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from bot.engine.review import GameReview
from bot.records import GameRecord
from bot.sessions.daily_attempt import DailyAttempt
from bot.sessions.outcome import Outcome

log = logging.getLogger(__name__)

# How long a clean stop lets the subscribers finish what is queued.
DRAIN_SECONDS = 5.0


class Cause(enum.Enum):
    """What made a game change: the press and command answers draw their own change, the rest don't."""

    PRESS = "press"
    COMMAND = "command"
    TIMER = "timer"
    COMPUTER = "computer"

    @property
    def answered(self) -> bool:
        """Whether an interaction answers this change (and so draws its board itself)."""
        return self in (Cause.PRESS, Cause.COMMAND)


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
    """A member's daily attempt accepted a move (`bot.sessions.daily`): the attempt as it is now."""

    attempt: DailyAttempt


@dataclass(frozen=True)
class DailyEnded:
    """A member's daily attempt finished and was stored; a start-up repeats it until its achievements
    were handed out, so subscribers keep their writes idempotent by member and day."""

    attempt: DailyAttempt


GameEvent = GameChanged | GameEnded | GameReviewed | DailyChanged | DailyEnded
Subscriber = Callable[[GameEvent], Awaitable[None]]


class Announcements(Protocol):
    """Where the stream records that a game's end was delivered (the `games.announced` column)."""

    async def mark_announced(self, game_ids: list[str]) -> None: ...


class GameStream:
    def __init__(self, announcements: Announcements) -> None:
        self._announcements = announcements
        self._subscribers: list[Subscriber] = []
        self._queue: asyncio.Queue[GameEvent] = asyncio.Queue()
        self._ended: set[str] = set()  # game ids whose end this process has queued
        self._worker: asyncio.Task[None] | None = None

    def subscribe(self, subscriber: Subscriber) -> None:
        self._subscribers.append(subscriber)

    def publish(self, event: GameEvent) -> None:
        """Queue an event for every subscriber; a game's end is queued once per process."""
        if isinstance(event, GameEnded):
            if event.record.game_id in self._ended:
                return
            self._ended.add(event.record.game_id)
        self._queue.put_nowait(event)
        if self._worker is None or self._worker.done():
            self._worker = asyncio.create_task(self._deliver(), name="farkle-game-events")

    async def _deliver(self) -> None:
        while not self._queue.empty():
            event = self._queue.get_nowait()
            for subscriber in self._subscribers:
                try:
                    await subscriber(event)
                except Exception:  # one feature's failure must not starve the others
                    log.exception("A game-events subscriber failed on %s", type(event).__name__)
            if isinstance(event, GameEnded):
                try:
                    await self._announcements.mark_announced([event.record.game_id])
                except Exception:  # the next start-up announces it again
                    log.warning("Could not record that game %s was announced", event.record.game_id)
            self._queue.task_done()

    async def close(self, drain: float = DRAIN_SECONDS) -> None:
        """Deliver what is queued first (a clean stop announces every game that ended), for `drain` seconds;
        what is left is announced by the next start-up."""
        if self._worker is not None and not self._worker.done() and drain > 0:
            await asyncio.wait({self._worker}, timeout=drain)
        if self._worker is not None:
            self._worker.cancel()
            await asyncio.gather(self._worker, return_exceptions=True)
