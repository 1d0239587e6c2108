"""The last synced command tree hash, per scope: "global", or a server's id while DEV_GUILD_ID named it."""

from __future__ import annotations

from sqlalchemy import text

from bot.storage.database import Database

_LOAD = text("SELECT tree_hash FROM command_sync WHERE scope = :scope")
_SCOPES = text("SELECT scope FROM command_sync ORDER BY scope")
_RECORD = text(
    "INSERT INTO command_sync (scope, tree_hash) VALUES (:scope, :hash)"
    " ON CONFLICT (scope) DO UPDATE SET tree_hash = excluded.tree_hash, synced_at = CURRENT_TIMESTAMP"
)
_FORGET = text("DELETE FROM command_sync WHERE scope = :scope")


async def last_hash(db: Database, scope: str) -> str | None:
    found = await db.read(lambda c: c.execute(_LOAD, {"scope": scope}).scalar())
    return str(found) if found is not None else None


async def record_hash(db: Database, scope: str, tree_hash: str) -> None:
    await db.write(lambda c: c.execute(_RECORD, {"scope": scope, "hash": tree_hash}))


async def scopes(db: Database) -> list[str]:
    """Every scope commands were synced to and not cleared since."""
    return [str(scope) for scope in await db.read(lambda c: c.execute(_SCOPES).scalars().all())]


async def forget(db: Database, scope: str) -> None:
    await db.write(lambda c: c.execute(_FORGET, {"scope": scope}))
