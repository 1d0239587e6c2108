"""Sessions in SQLite: each accepted action replaces the channel's row in one statement."""

from __future__ import annotations

import aiosqlite

from bot.records import GameRecord, Rater, SessionRow
from bot.storage.database import transaction
from bot.storage.results import write_record


class SqliteSessionStore:
    def __init__(self, db: aiosqlite.Connection, rate: Rater) -> None:
        self._db = db
        self._rate = rate

    async def save(self, row: SessionRow, finished: GameRecord | None = None) -> None:
        """The session's new state; a game that just ended is archived in the same transaction."""
        async with transaction(self._db):
            if finished is not None:
                await write_record(self._db, finished, self._rate)
            await self._upsert(row)

    async def _upsert(self, row: SessionRow) -> None:
        await self._db.execute(
            "INSERT INTO sessions"
            " (channel_id, guild_id, game_id, stage, version, board_message_id, deadline, state,"
            " shown_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT(channel_id) DO UPDATE SET guild_id = excluded.guild_id,"
            " game_id = excluded.game_id, stage = excluded.stage, version = excluded.version,"
            " board_message_id = excluded.board_message_id,"
            " deadline = excluded.deadline, state = excluded.state, shown_version = excluded.shown_version,"
            " updated_at = datetime('now')",
            (
                row.channel_id,
                row.guild_id,
                row.game_id,
                row.stage,
                row.version,
                row.board_message_id,
                row.deadline,
                row.state,
                row.shown_version,
            ),
        )

    async def delete(self, channel_id: int) -> None:
        async with transaction(self._db):
            await self._db.execute("DELETE FROM sessions WHERE channel_id = ?", (channel_id,))

    async def load_all(self) -> list[tuple[int, str, int | None]]:
        rows = await self._db.execute_fetchall(
            "SELECT channel_id, state, shown_version FROM sessions ORDER BY channel_id"
        )
        return [(int(row[0]), str(row[1]), row[2]) for row in rows]

    async def mark_shown(self, channel_id: int, game_id: str, version: int) -> None:
        async with transaction(self._db):
            await self._db.execute(
                "UPDATE sessions SET shown_version = ? WHERE channel_id = ? AND game_id = ?"
                " AND (shown_version IS NULL OR shown_version < ?)",
                (version, channel_id, game_id, version),
            )
