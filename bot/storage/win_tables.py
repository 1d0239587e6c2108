"""Solved win-probability tables, as the solver's own bytes."""

from __future__ import annotations

from sqlalchemy import text

from bot.storage.database import Database

_LOAD = text("SELECT tables FROM win_tables WHERE table_key = :key")
_SAVE = text(
    "INSERT INTO win_tables (table_key, tables) VALUES (:key, :tables)"
    " ON CONFLICT (table_key) DO UPDATE SET tables = excluded.tables"
)


class SqlWinTableStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def load(self, table_key: str) -> bytes | None:
        tables = await self._db.read(lambda c: c.execute(_LOAD, {"key": table_key}).scalar())
        return bytes(tables) if tables is not None else None

    async def save(self, table_key: str, tables: bytes) -> None:
        await self._db.write(lambda c: c.execute(_SAVE, {"key": table_key, "tables": tables}))
