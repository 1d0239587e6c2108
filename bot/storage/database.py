"""Opening SQLite and applying numbered migrations: the only place that knows the schema's history."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

import aiosqlite

# Package data, so an installed bot (not only a source checkout) finds its schema.
MIGRATIONS_DIR: Traversable = files("bot.storage") / "migrations"
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class SchemaTooNew(RuntimeError):
    """The database was written by a newer version of the bot; refusing protects its data."""


# Discord waits 3 s for an answer: a write gives up well before that (waiting for this process's other
# writers, then for another process's lock) so the player hears "nothing changed" in time.
WRITE_QUEUE_WAIT = 1.0
BUSY_TIMEOUT_MS = 1000


class DatabaseBusy(RuntimeError):
    """Another writer held the database for longer than an answer can wait; nothing was changed."""


class DatabaseUnavailable(RuntimeError):
    """The database can't be opened or migrated: one sentence for the operator, naming the path."""


async def connect(path: Path | str, *, read_only: bool = False) -> aiosqlite.Connection:
    """Open the database with WAL, foreign keys and a busy timeout; create its folder if needed.

    A connection that fails half-way is closed: its worker thread would otherwise keep the process alive.
    `read_only` opens the reader: in WAL it never waits for a writer, here or in another process.
    """
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        # aiosqlite leaves its worker thread to die after the event loop when opening fails: fail first here.
        await asyncio.to_thread(_can_open, path)
    db = await aiosqlite.connect(path, isolation_level=None)
    try:
        db.row_factory = aiosqlite.Row
        pragmas = ["foreign_keys=ON", f"busy_timeout={BUSY_TIMEOUT_MS}"]
        pragmas += ["query_only=ON"] if read_only else ["journal_mode=WAL", "synchronous=NORMAL"]
        for pragma in pragmas:
            cursor = await db.execute(f"PRAGMA {pragma}")
            await cursor.close()
    except BaseException:
        await db.close()
        raise
    return db


def _can_open(path: Path | str) -> None:
    sqlite3.connect(path).close()


async def open_database(path: Path) -> tuple[aiosqlite.Connection, list[int]]:
    """Connect and migrate, or raise `DatabaseUnavailable` saying which file and why."""
    try:
        db = await connect(path)
    except (sqlite3.Error, OSError) as error:
        raise DatabaseUnavailable(_problem(path, error)) from error
    try:
        applied = await migrate(db)
        await _prove_writable(db)
    except (sqlite3.Error, OSError) as error:
        await db.close()
        raise DatabaseUnavailable(_problem(path, error)) from error
    except BaseException:
        await db.close()
        raise
    return db, applied


async def _prove_writable(db: aiosqlite.Connection) -> None:
    """A file the bot may not write opens read-only without complaint (and an up-to-date schema needs
    no write): find out now, not at the first move of the first game."""
    await db.execute("BEGIN IMMEDIATE")
    try:
        await db.execute("CREATE TABLE write_probe (x)")
    finally:
        await db.execute("ROLLBACK")


def failure_cause(error: BaseException) -> str:
    """What went wrong, in the operator's words: the OS's or SQLite's own sentence."""
    return getattr(error, "strerror", None) or str(error) or type(error).__name__


def _problem(path: Path, error: BaseException) -> str:
    return (
        f"the database DATABASE_PATH={path} can't be used ({failure_cause(error)}): "
        "check the path, its permissions and free disk space."
    )


_WRITE_LOCKS: weakref.WeakKeyDictionary[aiosqlite.Connection, asyncio.Lock] = weakref.WeakKeyDictionary()


@asynccontextmanager
async def transaction(db: aiosqlite.Connection) -> AsyncIterator[aiosqlite.Connection]:
    """One explicit write transaction: committed on success, rolled back on any error.

    Coroutines share one connection, so transactions on it take turns instead of nesting. A turn that
    doesn't come within the answer window raises `DatabaseBusy` and changes nothing.
    """
    lock = _WRITE_LOCKS.setdefault(db, asyncio.Lock())
    try:
        await asyncio.wait_for(lock.acquire(), WRITE_QUEUE_WAIT)
    except TimeoutError:
        raise DatabaseBusy("the database is busy with other writes") from None
    try:
        try:
            await db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) and "busy" not in str(error):
                raise
            raise DatabaseBusy(str(error)) from error
        try:
            yield db
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        await db.execute("COMMIT")
    finally:
        lock.release()


def available_migrations(directory: Traversable = MIGRATIONS_DIR) -> list[tuple[int, Traversable]]:
    """The numbered migration files; none at all means a broken install, never an empty database."""
    found = []
    for path in sorted(directory.iterdir(), key=lambda entry: entry.name):
        match = _MIGRATION_NAME.match(path.name)
        if match:
            found.append((int(match.group(1)), path))
    if not found:
        raise RuntimeError(f"No migrations found in {directory}: this installation of the bot is incomplete.")
    return found


async def migrate(db: aiosqlite.Connection, directory: Traversable = MIGRATIONS_DIR) -> list[int]:
    """Apply pending migrations in order, each in its own transaction; return the versions applied."""
    migrations = available_migrations(directory)
    await db.execute_fetchall(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
        " applied_at TEXT NOT NULL DEFAULT (datetime('now')))"
    )
    async with db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cursor:
        row = await cursor.fetchone()
    current = int(row[0]) if row else 0
    newest = migrations[-1][0]
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
