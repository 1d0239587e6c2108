"""Sessions: each accepted action replaces the channel's row, if nobody else wrote it first."""

from __future__ import annotations

from functools import partial

from sqlalchemy import text
from sqlalchemy.engine import Connection, RowMapping

from bot.core.records import GameRecord, Rater, SessionConflict, SessionRow, StoredSession
from bot.storage.database import Database
from bot.storage.ended import unannounced
from bot.storage.results import mark_announced, write_record

_COLUMNS = "channel_id, guild_id, game_id, stage, version, deadline, state"
_INSERT = text(
    f"INSERT INTO sessions ({_COLUMNS}, revision, updated_at) VALUES (:channel_id, :guild_id, :game_id,"
    " :stage, :version, :deadline, :state, 1, CURRENT_TIMESTAMP) ON CONFLICT (channel_id) DO NOTHING"
)
_UPDATE = text(
    "UPDATE sessions SET guild_id = :guild_id, game_id = :game_id, stage = :stage, version = :version,"
    " deadline = :deadline, state = :state, revision = :revision + 1, updated_at = CURRENT_TIMESTAMP"
    " WHERE channel_id = :channel_id AND revision = :revision"
)
_DELETE = text("DELETE FROM sessions WHERE channel_id = :channel AND revision = :revision")
_SELECT = "SELECT channel_id, guild_id, state, revision FROM sessions"
_ALL = text(f"{_SELECT} ORDER BY channel_id")
_ONE = text(f"{_SELECT} WHERE channel_id = :channel")


class SqlSessionStore:
    def __init__(self, db: Database, rate: Rater) -> None:
        self._db = db
        self._rate = rate

    async def save(self, row: SessionRow, finished: GameRecord | None = None) -> int:
        """The session's new state, returning the row's new revision; a game that just ended is archived
        in the same transaction. Raises `SessionConflict` (writing nothing) if the row moved on."""
        return await self._db.write(partial(self._save, row, finished))

    def _save(self, row: SessionRow, finished: GameRecord | None, connection: Connection) -> int:
        if finished is not None:
            write_record(connection, finished, self._rate)
        values = {key: getattr(row, key) for key in _COLUMNS.split(", ")}
        if row.revision is None:
            written = connection.execute(_INSERT, values).rowcount
        else:
            written = connection.execute(_UPDATE, {**values, "revision": row.revision}).rowcount
        if written != 1:
            raise SessionConflict(f"the session in channel {row.channel_id} was written by someone else")
        return 1 if row.revision is None else row.revision + 1

    async def delete(self, channel_id: int, revision: int | None) -> None:
        if revision is not None:
            await self._db.write(partial(_delete, channel_id, revision))

    async def load_all(self) -> list[StoredSession]:
        rows = await self._db.read(lambda connection: connection.execute(_ALL).mappings().all())
        return [_stored(row) for row in rows]

    async def load(self, channel_id: int) -> StoredSession | None:
        row = await self._db.read(lambda c: c.execute(_ONE, {"channel": channel_id}).mappings().first())
        return _stored(row) if row is not None else None

    async def unannounced(self) -> list[GameRecord]:
        """Games archived whose end was never announced (a crash between the commit and the event)."""
        return await self._db.read(unannounced)

    async def mark_announced(self, game_ids: list[str]) -> None:
        await self._db.write(partial(mark_announced, game_ids=game_ids))


def _delete(channel_id: int, revision: int, connection: Connection) -> None:
    if connection.execute(_DELETE, {"channel": channel_id, "revision": revision}).rowcount != 1:
        raise SessionConflict(f"the session in channel {channel_id} was written by someone else")


def _stored(row: RowMapping) -> StoredSession:
    return StoredSession(
        int(row["channel_id"]), int(row["guild_id"]), str(row["state"]), int(row["revision"])
    )
