"""Commit or roll back: an accepted change is stored before anyone is answered, a failed one undone."""

from __future__ import annotations

import logging
from typing import Protocol

from bot.core.clock import Clock
from bot.core.records import DatabaseBusy, GameRecord, SessionConflict, SessionRow, StoredSession
from bot.engine import Event
from bot.engine.history import TurnStarted
from bot.engine.messages import Message
from bot.sessions.archive import record_of
from bot.sessions.outcome import Outcome
from bot.sessions.registry import GameRegistry
from bot.sessions.session import Session

log = logging.getLogger(__name__)

NOT_SAVED = Message("I couldn't save that, so nothing changed: please try again.")
MOVED_ON = Message(
    "Another move reached this game first, so yours didn't count: the board now shows the game as it is."
)


class SessionStore(Protocol):
    """Where sessions live between restarts (the database in the bot, memory in unit tests).

    Every write is a compare-and-set on the row's revision (`SessionRow.revision`): if the row moved on
    (another process wrote the game) nothing is written and `SessionConflict` is raised.
    """

    async def save(self, row: SessionRow, finished: GameRecord | None = None) -> int:
        """Store the session row, and archive `finished` in the same transaction (once per game id);
        returns the row's new revision."""
        ...

    async def delete(self, channel_id: int, revision: int | None) -> None: ...

    async def load_all(self) -> list[StoredSession]: ...

    async def load(self, channel_id: int) -> StoredSession | None: ...

    async def unannounced(self) -> list[GameRecord]:
        """Archived games whose end the game-events stream has not announced yet, as stored."""
        ...

    async def mark_announced(self, game_ids: list[str]) -> None: ...


class UnitOfWork:
    """Keeps the registry's games as committed: a closed game leaves it, a failed change is put back, a
    game another process moved on is read again. The manager re-arms timers and wakes computers once a
    command returns (`SessionManager._settle`)."""

    def __init__(self, store: SessionStore, games: GameRegistry, clock: Clock) -> None:
        self._store = store
        self._games = games
        self._clock = clock

    async def commit(
        self,
        session: Session,
        events: list[Event],
        *,
        turn_for: int | None = None,
        replaces: Session | None = None,
    ) -> Outcome:
        """Bump the version and persist (archiving a game that just ended in the same transaction).

        On a storage failure the last saved state is put back (or `replaces`, the session this one was
        about to replace) and the member is told nothing changed.
        """
        session.version += 1
        session.remember(events)
        session.deadline = self._deadline(session, events)
        finished = record_of(session) if session.stage != "closed" else None
        try:
            if session.stage == "closed":
                await self._store.delete(session.channel_id, session.revision)
            else:
                await self.save(session, finished)
        except SessionConflict:
            log.warning("The game in channel %s moved on elsewhere; reloading it", session.channel_id)
            reloaded = await self.reload(session)
            return Outcome.refuse(MOVED_ON, reloaded.snapshot() if reloaded else None)
        except Exception as error:
            busy = isinstance(error, DatabaseBusy)  # another process holds the database: one line, expected
            level = logging.WARNING if busy else logging.ERROR
            log.log(
                level,
                "Could not save the session in channel %s: %s",
                session.channel_id,
                error,
                exc_info=not busy,
            )
            self._roll_back(session, replaces)
            return Outcome.refuse(NOT_SAVED)
        if session.stage == "closed":
            self._games.drop(session)
        return Outcome(
            snapshot=session.snapshot(), events=tuple(events), turn_for=turn_for, finished=finished
        )

    async def save(self, session: Session, finished: GameRecord | None = None) -> None:
        """One serialisation per change: it is both what is stored and what a failed change rolls back to."""
        state = session.dump()
        session.revision = await self._store.save(session.row(state), finished)
        session.committed(state)

    async def save_or_reload(self, session: Session) -> Session | None:
        """Save a change that is not a move (a reminder sent); if the game moved on
        elsewhere, take it as stored instead. Returns the channel's session as it now is."""
        try:
            await self.save(session)
        except SessionConflict:
            log.warning("The game in channel %s moved on elsewhere; reloading it", session.channel_id)
            return await self.reload(session)
        return session

    async def reload(self, session: Session) -> Session | None:
        """Take the session's channel as stored (rows are kept by channel), after another process wrote
        it: the same game further on, or the game that replaced it; None if there is none."""
        channel_id = session.channel_id
        stored = await self._store.load(channel_id)
        try:
            reloaded = Session.from_stored(stored) if stored else None
        except Exception:
            log.exception("Could not read the game in channel %s after it moved on", channel_id)
            reloaded = None
        if reloaded is None:
            self._games.drop(session)
        else:
            self._games.put(reloaded)
        return reloaded

    def _roll_back(self, session: Session, replaces: Session | None) -> None:
        if replaces is not None:
            self._games.drop(session)
            self._games.put(replaces)
        elif (saved := session.last_committed()) is not None:
            self._games.put(Session.load(saved, session.revision))
        else:
            self._games.drop(session)

    def _deadline(self, session: Session, events: list[Event]) -> float | None:
        """A lobby expires `lobby_timeout` after its last change; a turn has one clock for the whole turn,
        started when it starts: moves and taps never extend it."""
        if session.stage == "lobby":
            return self._clock.now() + session.table.lobby_timeout
        if session.stage != "playing":
            return None
        if session.deadline is None or any(isinstance(event, TurnStarted) for event in events):
            return self._clock.now() + session.table.turn_timeout
        return session.deadline
