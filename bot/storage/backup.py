"""A consistent copy of the live database: SQLite's online backup, safe while the bot writes (WAL)."""

from __future__ import annotations

import sqlite3
from pathlib import Path


class BackupRefused(RuntimeError):
    """A backup that would overwrite a file or copy a database that is not there."""


def backup(source: Path, target: Path) -> int:
    """Copy `source` to the new file `target`; returns the pages copied. A command, not bot work."""
    if not source.is_file():
        raise BackupRefused(f"there is no database at DATABASE_PATH={source}")
    if target.exists():
        raise BackupRefused(f"{target} already exists: choose a new file for the backup")
    target.parent.mkdir(parents=True, exist_ok=True)
    # Read-only: a backup never creates or changes the live database.
    live = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    copy = sqlite3.connect(target)
    try:
        live.backup(copy)
        return int(copy.execute("PRAGMA page_count").fetchone()[0])
    finally:
        copy.close()
        live.close()
