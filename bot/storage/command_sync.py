"""The last synced command tree hash, per scope."""

from __future__ import annotations

import aiosqlite


async def last_hash(db: aiosqlite.Connection, scope: str) -> str | None:
    async with db.execute("SELECT tree_hash FROM command_sync WHERE scope = ?", (scope,)) as cursor:
        row = await cursor.fetchone()
    return str(row[0]) if row else None


async def record_hash(db: aiosqlite.Connection, scope: str, tree_hash: str) -> None:
    await db.execute(
        "INSERT INTO command_sync (scope, tree_hash) VALUES (?, ?)"
        " ON CONFLICT(scope) DO UPDATE SET tree_hash = excluded.tree_hash, synced_at = datetime('now')",
        (scope, tree_hash),
    )
