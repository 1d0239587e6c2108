"""Opening SQLite and applying numbered migrations: the only place that knows the schema's history."""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import weakref
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import aiosqlite

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class SchemaTooNew(RuntimeError):
    """The database was written by a newer version of the bot; refusing protects its data."""


class DatabaseUnavailable(RuntimeError):
    """A database file that can't be opened, written, migrated or copied: one line naming path and cause."""


# The one place where low-level failures become the operator's line.
_HINTS = {"unable to open database file": "is it a folder, or a place the bot may not write?"}


@contextmanager
def reported_as(what: str) -> Iterator[None]:
    """Turn SQLite and file-system errors inside the block into DatabaseUnavailable("<what>: <cause>")."""
    try:
        yield
    except (sqlite3.Error, OSError) as error:
        if isinstance(error, OSError) and error.strerror:
            cause = f"{error.strerror} ({error.filename})" if error.filename else error.strerror
        else:
            cause = str(error)
        hint = f" ({_HINTS[cause]})" if cause in _HINTS else ""
        raise DatabaseUnavailable(f"{what}: {cause}{hint}.") from error


async def connect(path: Path | str) -> aiosqlite.Connection:
    """Open the database with WAL, foreign keys and a busy timeout; create its folder if needed."""
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = await aiosqlite.connect(path, isolation_level=None)
    db.row_factory = aiosqlite.Row
    try:
        for pragma in ("journal_mode=WAL", "foreign_keys=ON", "busy_timeout=5000", "synchronous=NORMAL"):
            cursor = await db.execute(f"PRAGMA {pragma}")
            await cursor.close()
    except BaseException:
        await db.close()  # an open connection's worker thread would keep the process from exiting
        raise
    return db


async def open_database(path: Path) -> tuple[aiosqlite.Connection, list[int]]:
    """Connect and migrate, or close again and raise DatabaseUnavailable naming DATABASE_PATH.

    Returns the connection and the migrations applied.
    """
    with reported_as(f"DATABASE_PATH {path} cannot be used"):
        db = await connect(path)
        try:
            applied = await migrate(db)
            await _prove_writable(db)
        except BaseException:
            await db.close()
            raise
    return db, applied


async def _prove_writable(db: aiosqlite.Connection) -> None:
    """A file the bot may not write opens read-only without complaint: find out now, not at the first move."""
    await db.execute("BEGIN IMMEDIATE")
    try:
        await db.execute("CREATE TABLE write_probe (x)")
    finally:
        await db.execute("ROLLBACK")


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


def backup(source: Path, destination: Path) -> int:
    """Copy the database with SQLite's online backup API and check the copy; return its page count.

    Consistent while the bot writes (WAL readers don't block writers), including commits still in the
    `-wal` file that copying the file would miss. The copy is a single file (journal mode DELETE).
    """
    what = f"Cannot back up DATABASE_PATH {source} to {destination}"
    if destination.exists():
        raise DatabaseUnavailable(f"{what}: that file already exists; choose a new name.")
    partial = destination.with_name(destination.name + ".partial")
    with reported_as(what):
        # mode=rw: a missing database is an error, not a new empty one.
        origin = sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw", uri=True, timeout=5)
        try:
            copy = sqlite3.connect(partial)
            try:
                origin.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")
                (check,) = copy.execute("PRAGMA quick_check").fetchone()
                if check != "ok":
                    raise sqlite3.DatabaseError(f"the copy fails its integrity check ({check})")
                (pages,) = copy.execute("PRAGMA page_count").fetchone()
            finally:
                copy.close()
            os.replace(partial, destination)
        finally:
            origin.close()
            partial.unlink(missing_ok=True)
    return int(pages)
