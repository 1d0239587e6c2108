"""Solved win-probability tables in SQLite, as the solver's own bytes."""

from __future__ import annotations

import aiosqlite


class SqliteWinTableStore:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def load(self, table_key: str) -> bytes | None:
        rows = await self._db.execute_fetchall(
            "SELECT tables FROM win_tables WHERE table_key = ?", (table_key,)
        )
        row = next(iter(rows), None)
        return bytes(row[0]) if row is not None else None

    async def save(self, table_key: str, tables: bytes) -> None:
        await self._db.execute(
            "INSERT OR REPLACE INTO win_tables (table_key, tables) VALUES (?, ?)", (table_key, tables)
        )
