"""A consistent copy of the live database: SQLite's online backup, safe while the bot writes (WAL)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.storage.database import failure_cause


class BackupRefused(RuntimeError):
    """A backup that can't be made (nothing to copy, a file in the way, a failed copy): says why."""


def backup(source: Path, target: Path) -> int:
    """Copy `source` to the new file `target` and check the copy; returns its pages. A command, not bot work.

    The copy is written beside `target` and renamed only once it passes SQLite's quick check, so a
    failed backup never leaves a file that looks like a good one.
    """
    partial = target.with_name(f"{target.name}.partial")
    try:
        if not source.is_file():
            raise BackupRefused(f"there is no database at DATABASE_PATH={source}")
        if target.exists() or target.is_symlink():
            raise BackupRefused(f"{target} already exists: choose a new file for the backup")
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            pages = _copy(source, partial)
            partial.rename(target)
        finally:
            partial.unlink(missing_ok=True)
    except (sqlite3.Error, OSError) as error:  # a folder it may not write or even look into, a full disk
        raise BackupRefused(
            f"could not back up DATABASE_PATH={source} to {target} ({failure_cause(error)}): "
            "check both paths, their permissions and free disk space."
        ) from error
    return pages


def _copy(source: Path, target: Path) -> int:
    # Never creates the live database, and only reads it (query_only). Not `mode=ro`: a read-only
    # connection can't remove the -wal and -shm files it creates beside a database no process has open.
    live = sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw", uri=True, timeout=5)
    live.execute("PRAGMA query_only=ON")
    copy = sqlite3.connect(target)
    try:
        live.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        (check,) = copy.execute("PRAGMA quick_check").fetchone()
        if check != "ok":
            raise sqlite3.DatabaseError(f"the copy fails SQLite's check (is the database damaged?): {check}")
        return int(copy.execute("PRAGMA page_count").fetchone()[0])
    finally:
        copy.close()
        live.close()
