"""The schema's history: Alembic revisions for both backends, after the SQLite-only numbered files.

Databases created before Alembic carry `schema_migrations` (the numbered files in `bot/storage/legacy/`):
they are brought to the last of those files, stamped with the baseline revision they then equal, and
upgraded from there like any other, with their data.
"""

from __future__ import annotations

import importlib.util
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy import exc, text
from sqlalchemy.engine import Connection

from bot.core.database_url import DatabaseUrl
from bot.storage.database import Database, DatabaseUnavailable, SchemaBehind, SchemaTooNew, failure_cause

if TYPE_CHECKING:
    from alembic.config import Config

# Package data, so an installed bot (not only a source checkout) finds its schema.
LEGACY_DIR: Traversable = files("bot.storage") / "legacy"
BASELINE = "0009"  # the revision the last legacy file's schema equals
_LEGACY_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
_REVISION_NAME = re.compile(r"^v(\d{4})_[a-z0-9_]+\.py$")  # alembic.ini's file_template, numbered revisions
# PostgreSQL: shard processes starting together migrate one at a time under this advisory lock ("Farkle"),
# the others waiting at most MIGRATION_WAIT seconds for it.
MIGRATION_LOCK = 0x4661726B6C65
MIGRATION_WAIT = 120
# SQLite's result codes for a file that is not (or no longer) a database.
_DAMAGED = {"SQLITE_CORRUPT", "SQLITE_NOTADB"}
# PostgreSQL's codes for a clash with another process: a lock waited for too long, the same object
# created twice at once (unique violation, duplicate table), a serialization failure or a deadlock.
_CLASHES = {"55P03", "23505", "42P07", "40001", "40P01"}


class _Damaged(Exception):
    """SQLite's quick check found the file damaged."""


def script_folder() -> str:
    """Alembic's script folder: `migrations/` at the top of a clone, which the wheel ships inside the
    package as `bot.migrations` (pyproject's package-dir mapping), so an installed bot migrates anywhere."""
    installed = importlib.util.find_spec("bot.migrations")
    if installed is not None and installed.submodule_search_locations:
        return next(iter(installed.submodule_search_locations))
    return str(Path(__file__).resolve().parents[2] / "migrations")


def _alembic() -> Config:
    from alembic.config import Config  # Alembic only when migrating: see `migrate`

    config = Config()
    config.set_main_option("script_location", script_folder())
    return config


def revisions() -> list[str]:
    """Every revision this bot knows, oldest first."""
    from alembic.script import ScriptDirectory  # Alembic only when migrating: see `migrate`

    script = ScriptDirectory.from_config(_alembic())
    return [rev.revision for rev in reversed(list(script.walk_revisions()))]


def head_revision() -> str:
    """The newest revision this bot knows, read from the revisions' file names without Alembic (the
    revisions are numbered in order; a test holds this to Alembic's own `revisions()[-1]`)."""
    versions = Path(script_folder()) / "versions"
    return max(match.group(1) for entry in versions.iterdir() if (match := _REVISION_NAME.match(entry.name)))


def migrate(connection: Connection, *, upgrade: bool = True) -> list[str]:
    """Bring the schema up to date (one transaction per step); return the revisions applied.

    Runs on a connection outside any transaction; refuses a database written by a newer bot. A database
    already at this bot's head (every start-up but the first after an upgrade) is left as it is without
    importing Alembic, which would stay in the process's memory for nothing (~12 MB); with `upgrade`
    off, a database behind raises `SchemaBehind` instead of being migrated here.
    """
    stamped, head = _stamped(connection), head_revision()
    if stamped == [head]:
        return []
    if not upgrade:
        raise SchemaBehind(f"the schema is at {stamped or 'no revision'}, this bot's at {head}")
    from alembic import command  # only for a database behind this bot (see above)
    from alembic.runtime.migration import MigrationContext

    applied: list[str] = []
    if _has_table(connection, "schema_migrations") and not _has_table(connection, "alembic_version"):
        legacy_upgrade(connection)
        command.stamp(_config_on(connection), BASELINE)
    before = MigrationContext.configure(connection).get_current_revision()
    known = revisions()
    if before is not None and before not in known:
        raise SchemaTooNew(
            f"The database's schema revision {before} is newer than this bot's ({known[-1]}): "
            "upgrade the bot instead of running an older version on this database."
        )
    command.upgrade(_config_on(connection), "head")
    if connection.in_transaction():
        connection.commit()
    start = known.index(before) + 1 if before is not None else 0
    applied.extend(known[start:])
    return applied


def _stamped(connection: Connection) -> list[str]:
    """The revisions `alembic_version` names (none before the first migration)."""
    if not _has_table(connection, "alembic_version"):
        return []
    stamped = list(connection.execute(text("SELECT version_num FROM alembic_version")).scalars())
    connection.commit()  # reading began a transaction; Alembic begins its own
    return stamped


def _config_on(connection: Connection) -> Config:
    config = _alembic()
    config.attributes["connection"] = connection
    return config


def _has_table(connection: Connection, name: str) -> bool:
    found = sa.inspect(connection).has_table(name)
    if connection.in_transaction():
        connection.commit()  # inspecting began a transaction; Alembic begins its own
    return found


def available_legacy(directory: Traversable = LEGACY_DIR) -> list[tuple[int, Traversable]]:
    """The numbered SQLite migrations from before Alembic; none at all means a broken install."""
    found = []
    for path in sorted(directory.iterdir(), key=lambda entry: entry.name):
        match = _LEGACY_NAME.match(path.name)
        if match:
            found.append((int(match.group(1)), path))
    if not found:
        raise RuntimeError(f"No migrations found in {directory}: this installation of the bot is incomplete.")
    return found


def legacy_upgrade(connection: Connection, directory: Traversable = LEGACY_DIR) -> list[int]:
    """Apply the numbered files a pre-Alembic SQLite database still lacks, each in its own transaction."""
    raw = connection.connection.driver_connection
    assert isinstance(raw, sqlite3.Connection), "only SQLite databases predate Alembic"
    (current,) = raw.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()
    legacy = available_legacy(directory)
    if current > legacy[-1][0]:
        raise SchemaTooNew(
            f"The database {current:04d} is newer than this bot's migrations: "
            "upgrade the bot instead of running an older version on this database."
        )
    applied = []
    for version, path in legacy:
        if version <= current:
            continue
        script = path.read_text(encoding="utf-8")
        try:
            raw.executescript(
                f"BEGIN;\n{script}\n;INSERT INTO schema_migrations (version, name, applied_at) "
                f"VALUES ({version}, '{path.name}', CURRENT_TIMESTAMP);\nCOMMIT;"
            )
        except BaseException:
            if raw.in_transaction:
                raw.execute("ROLLBACK")
            raise
        applied.append(version)
    return applied


@contextmanager
def migration_lock(connection: Connection) -> Iterator[None]:
    """PostgreSQL: one process migrates at a time, the others wait and then find the schema up to date.

    The advisory lock is held by a connection of its own, so no transaction of Alembic's releases it.
    SQLite needs none: one process serves a SQLite file, and each revision commits under the file's lock.
    """
    if connection.dialect.name != "postgresql":
        yield
        return
    key = {"key": MIGRATION_LOCK}
    with connection.engine.connect() as holder:
        with holder.begin():  # SET LOCAL: the pooled connection keeps its own timeouts afterwards
            holder.exec_driver_sql(f"SET LOCAL lock_timeout = '{MIGRATION_WAIT}s'")
            holder.exec_driver_sql("SET LOCAL statement_timeout = 0")
            holder.execute(text("SELECT pg_advisory_lock(:key)"), key)
        try:
            yield
        finally:
            with holder.begin():
                holder.execute(text("SELECT pg_advisory_unlock(:key)"), key)


def check_intact(connection: Connection) -> None:
    """SQLite: refuse a damaged file at start (a real check of every page's structure, PRAGMA
    quick_check; docs/PERFORMANCE.md) rather than fail a game in the middle of a move."""
    if connection.dialect.name != "sqlite":
        return
    raw = connection.connection.driver_connection
    assert isinstance(raw, sqlite3.Connection)
    (first, *_) = [row[0] for row in raw.execute("PRAGMA quick_check")]
    if first != "ok":
        raise _Damaged(f"SQLite's quick check: {first}")


def _problem(where: DatabaseUrl, error: BaseException) -> str:
    cause = getattr(error, "orig", None) or error
    if isinstance(cause, _Damaged) or getattr(cause, "sqlite_errorname", None) in _DAMAGED:
        return (
            f"the database {where.setting} is damaged ({failure_cause(cause)}): stop the bot, keep this file "
            'aside and restore the last backup (docs/OPERATIONS.md, "Backups and upgrades").'
        )
    if getattr(cause, "sqlstate", None) in _CLASHES:
        return (
            f"the database {where.setting} was busy with another process ({failure_cause(cause)}): "
            "another shard may be migrating it; start this one again."
        )
    return f"the database {where.setting} can't be used ({failure_cause(cause)}): " + (
        "check the path, its permissions and free disk space."
        if where.dialect == "sqlite"
        else "check the address, the user's rights and that the server is running."
    )


async def open_database(where: DatabaseUrl, *, upgrade: bool = True) -> tuple[Database, list[str]]:
    """Connect, migrate and prove the database writable, or raise `DatabaseUnavailable` saying why.

    `upgrade=False`: a schema behind this bot raises `SchemaBehind` (the running bot migrates in a child
    process, so Alembic never loads into it)."""
    path = where.sqlite_path
    try:
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            sqlite3.connect(path).close()  # the OS's own sentence for a folder, a missing right, /proc...
    except (sqlite3.Error, OSError) as error:
        raise DatabaseUnavailable(_problem(where, error)) from error
    database = Database(where)
    try:
        applied = await database.set_up(partial(_migrate_and_probe, upgrade=upgrade))
    except (exc.SQLAlchemyError, sqlite3.Error, OSError, _Damaged) as error:
        await database.close()
        raise DatabaseUnavailable(_problem(where, error)) from error
    except BaseException:
        await database.close()
        raise
    return database, applied


def _migrate_and_probe(connection: Connection, *, upgrade: bool) -> list[str]:
    check_intact(connection)
    with migration_lock(connection):  # the probe too: two processes never create it at the same moment
        applied = migrate(connection, upgrade=upgrade)
        _prove_writable(connection)
    return applied


def _prove_writable(connection: Connection) -> None:
    """A file the bot may not write opens read-only without complaint (and an up-to-date schema needs
    no write): find out now, not at the first move of the first game."""
    with connection.begin() as transaction:
        connection.exec_driver_sql("CREATE TABLE write_probe (x INTEGER)")
        transaction.rollback()
