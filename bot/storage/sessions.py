"""Sessions in SQLite: each accepted action replaces the channel's row in one statement."""

from __future__ import annotations

import aiosqlite

from bot.sessions.session import Session


class SqliteSessionStore:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def save(self, session: Session) -> None:
        await self._db.execute(
            "INSERT INTO sessions"
            " (channel_id, guild_id, game_id, stage, version, board_message_id, deadline, state)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT(channel_id) DO UPDATE SET guild_id = excluded.guild_id,"
            " game_id = excluded.game_id, stage = excluded.stage, version = excluded.version,"
            " board_message_id = excluded.board_message_id,"
            " deadline = excluded.deadline, state = excluded.state, updated_at = datetime('now')",
            (
                session.channel_id,
                session.guild_id,
                session.game_id,
                session.stage,
                session.version,
                session.board_message_id,
                session.deadline,
                session.dump(),
            ),
        )

    async def delete(self, channel_id: int) -> None:
        await self._db.execute("DELETE FROM sessions WHERE channel_id = ?", (channel_id,))

    async def load_all(self) -> list[Session]:
        rows = await self._db.execute_fetchall("SELECT state FROM sessions ORDER BY channel_id")
        return [Session.load(row[0]) for row in rows]
