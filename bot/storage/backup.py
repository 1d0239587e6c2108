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
    if not source.is_file():
        raise BackupRefused(f"there is no database at DATABASE_PATH={source}")
    if target.exists():
        raise BackupRefused(f"{target} already exists: choose a new file for the backup")
    partial = target.with_name(f"{target.name}.partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        pages = _copy(source, partial)
        partial.rename(target)
    except (sqlite3.Error, OSError) as error:
        raise BackupRefused(
            f"could not back up DATABASE_PATH={source} to {target} ({failure_cause(error)}): "
            "check both paths, their permissions and free disk space."
        ) from error
    finally:
        partial.unlink(missing_ok=True)
    return pages


def _copy(source: Path, target: Path) -> int:
    # Read-only: a backup never creates or changes the live database.
    live = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
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
