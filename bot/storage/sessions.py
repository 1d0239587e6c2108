"""Sessions: each accepted action replaces the channel's row, if nobody else wrote it first."""

from __future__ import annotations

from functools import partial

from sqlalchemy import text
from sqlalchemy.engine import Connection, RowMapping

from bot.records import BoardMark, GameRecord, Rater, SessionConflict, SessionRow, StoredSession
from bot.storage.database import Database
from bot.storage.ended import unannounced
from bot.storage.results import mark_announced, write_record

_COLUMNS = (
    "channel_id, guild_id, game_id, stage, version, board_message_id, deadline, state, shown_version,"
    " ping_message_id, pinged_turn"
)
_INSERT = text(
    f"INSERT INTO sessions ({_COLUMNS}, revision, updated_at) VALUES (:channel_id, :guild_id, :game_id,"
    " :stage, :version, :board_message_id, :deadline, :state, :shown_version, :ping_message_id,"
    " :pinged_turn, 1, CURRENT_TIMESTAMP) ON CONFLICT (channel_id) DO NOTHING"
)
_UPDATE = text(
    "UPDATE sessions SET guild_id = :guild_id, game_id = :game_id, stage = :stage, version = :version,"
    " board_message_id = :board_message_id, deadline = :deadline, state = :state,"
    " shown_version = :shown_version, ping_message_id = :ping_message_id, pinged_turn = :pinged_turn,"
    " revision = :revision + 1, updated_at = CURRENT_TIMESTAMP"
    " WHERE channel_id = :channel_id AND revision = :revision"
)
_DELETE = text("DELETE FROM sessions WHERE channel_id = :channel AND revision = :revision")
_SELECT = (
    "SELECT channel_id, guild_id, state, shown_version, revision, ping_message_id, pinged_turn FROM sessions"
)
_ALL = text(f"{_SELECT} ORDER BY channel_id")
_ONE = text(f"{_SELECT} WHERE channel_id = :channel")
_PINGED = text(
    "UPDATE sessions SET ping_message_id = :message, pinged_turn = :turn"
    " WHERE channel_id = :channel AND game_id = :game"
)
_SHOWN = text(
    "UPDATE sessions SET shown_version = :version WHERE channel_id = :channel AND game_id = :game"
    " AND (shown_version IS NULL OR shown_version < :version)"
)


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

    async def write_marks(self, marks: list[BoardMark]) -> None:
        """Which version each board shows and which turn ping it has, many boards in one write, rows in
        channel order (writers that lock rows in one order don't deadlock each other)."""
        await self._db.write(partial(_write_marks, sorted(marks, key=lambda mark: mark.channel_id)))


def _write_marks(marks: list[BoardMark], connection: Connection) -> None:
    shown = [
        {"channel": m.channel_id, "game": m.game_id, "version": m.shown_version}
        for m in marks
        if m.shown_version is not None
    ]
    pings = [
        {"channel": m.channel_id, "game": m.game_id, "message": m.ping[0], "turn": m.ping[1]}
        for m in marks
        if m.ping is not None
    ]
    if shown:
        connection.execute(_SHOWN, shown)
    if pings:
        connection.execute(_PINGED, pings)


def _delete(channel_id: int, revision: int, connection: Connection) -> None:
    if connection.execute(_DELETE, {"channel": channel_id, "revision": revision}).rowcount != 1:
        raise SessionConflict(f"the session in channel {channel_id} was written by someone else")


def _stored(row: RowMapping) -> StoredSession:
    channel, guild, state = int(row["channel_id"]), int(row["guild_id"]), str(row["state"])
    return StoredSession(
        channel,
        guild,
        state,
        row["shown_version"],
        int(row["revision"]),
        row["ping_message_id"],
        row["pinged_turn"],
    )
