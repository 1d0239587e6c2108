"""The last synced command tree hash, per scope."""

from __future__ import annotations

from sqlalchemy import text

from bot.storage.database import Database

_LOAD = text("SELECT tree_hash FROM command_sync WHERE scope = :scope")
_RECORD = text(
    "INSERT INTO command_sync (scope, tree_hash) VALUES (:scope, :hash)"
    " ON CONFLICT (scope) DO UPDATE SET tree_hash = excluded.tree_hash, synced_at = CURRENT_TIMESTAMP"
)


async def last_hash(db: Database, scope: str) -> str | None:
    found = await db.read(lambda c: c.execute(_LOAD, {"scope": scope}).scalar())
    return str(found) if found is not None else None


async def record_hash(db: Database, scope: str, tree_hash: str) -> None:
    await db.write(lambda c: c.execute(_RECORD, {"scope": scope, "hash": tree_hash}))
