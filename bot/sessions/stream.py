"""One stream of game events: every accepted change to a game, whatever caused it, and every game's end.

Features watch games by subscribing here (the board edge, pings, review, achievements, the daily cog):
nothing else tells them anything. A start-up's restored games (`GamesRestored`), a game's stored review
(`GameReviewed`), daily attempts (`DailyChanged`, `DailyEnded`) and achievements handed out (`Awarded`)
are published here too; the vocabulary is `bot.sessions.stream_events`, and only the session layer publishes
(the client wires it). Events are delivered in order by one background task, so a subscriber never
delays the answer to the press that caused the change, and each is awaited before the next event, so a
subscriber sees a game's changes in the order they were committed.

`GameEnded` is announced exactly once per game id: the archiving transaction stores the game as not yet
announced (`games.announced = 0`); once every subscriber has been handed the event it is marked, and a
start-up announces what a crash left unmarked, rebuilt from what that transaction stored. A process
never delivers the same game's end twice; only a crash in the instant between the delivery and the mark
can repeat it after a restart, so subscribers that write keep their writes idempotent by game id.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from bot.sessions.stream_events import GameEnded, GameEvent, Subscriber

log = logging.getLogger(__name__)

# How long a clean stop lets the subscribers finish what is queued.
DRAIN_SECONDS = 5.0


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

    async def delivered(self) -> None:
        """Once every event published so far was handed to every subscriber."""
        await self._queue.join()

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
