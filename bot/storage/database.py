"""Opening SQLite and applying numbered migrations: the only place that knows the schema's history."""

from __future__ import annotations

import asyncio
import re
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class SchemaTooNew(RuntimeError):
    """The database was written by a newer version of the bot; refusing protects its data."""


async def connect(path: Path | str) -> aiosqlite.Connection:
    """Open the database with WAL, foreign keys and a busy timeout; create its folder if needed."""
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = await aiosqlite.connect(path, isolation_level=None)
    db.row_factory = aiosqlite.Row
    for pragma in ("journal_mode=WAL", "foreign_keys=ON", "busy_timeout=5000", "synchronous=NORMAL"):
        cursor = await db.execute(f"PRAGMA {pragma}")
        await cursor.close()
    return db


_WRITE_LOCKS: weakref.WeakKeyDictionary[aiosqlite.Connection, asyncio.Lock] = weakref.WeakKeyDictionary()


@asynccontextmanager
async def transaction(db: aiosqlite.Connection) -> AsyncIterator[aiosqlite.Connection]:
    """One explicit write transaction: committed on success, rolled back on any error.

    Coroutines share one connection, so transactions on it take turns instead of nesting.
    """
    async with _WRITE_LOCKS.setdefault(db, asyncio.Lock()):
        await db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        await db.execute("COMMIT")


def available_migrations(directory: Path = MIGRATIONS_DIR) -> list[tuple[int, Path]]:
    found = []
    for path in sorted(directory.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if match:
            found.append((int(match.group(1)), path))
    return found


async def migrate(db: aiosqlite.Connection, directory: Path = MIGRATIONS_DIR) -> list[int]:
    """Apply pending migrations in order, each in its own transaction; return the versions applied."""
    await db.execute_fetchall(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
        " applied_at TEXT NOT NULL DEFAULT (datetime('now')))"
    )
    async with db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cursor:
        row = await cursor.fetchone()
    current = int(row[0]) if row else 0
    migrations = available_migrations(directory)
    newest = migrations[-1][0] if migrations else 0
    if current > newest:
        raise SchemaTooNew(
            f"The database {current:04d} is newer than this bot's migrations ({newest:04d}): "
            "upgrade the bot instead of running an older version on this database."
        )
    applied = []
    for version, path in migrations:
        if version <= current:
            continue
        script = path.read_text(encoding="utf-8")
        try:
            await db.executescript(
                f"BEGIN;\n{script}\n;INSERT INTO schema_migrations (version, name) "
                f"VALUES ({version}, '{path.name}');\nCOMMIT;"
            )
        except BaseException:
            if db.in_transaction:
                await db.execute("ROLLBACK")
            raise
        applied.append(version)
    return applied
