"""Solved turn policies in SQLite, as the solver's own JSON."""

from __future__ import annotations

import aiosqlite


class SqlitePolicyStore:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def load(self, rules_key: str, on_board: bool) -> str | None:
        rows = await self._db.execute_fetchall(
            "SELECT policy FROM solver_cache WHERE rules_key = ? AND on_board = ?", (rules_key, int(on_board))
        )
        row = next(iter(rows), None)
        return str(row[0]) if row is not None else None

    async def save(self, rules_key: str, on_board: bool, policy: str) -> None:
        await self._db.execute(
            "INSERT OR REPLACE INTO solver_cache (rules_key, on_board, policy) VALUES (?, ?, ?)",
            (rules_key, int(on_board), policy),
        )
