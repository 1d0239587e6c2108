from pathlib import Path

import pytest

from bot.storage import SchemaTooNew, connect, migrate
from bot.storage.database import BUSY_TIMEOUT_MS, available_migrations


async def test_fresh_database_gets_every_migration_in_order(tmp_path: Path) -> None:
    db = await connect(tmp_path / "a" / "farkle.sqlite3")
    applied = await migrate(db)
    assert applied == [version for version, _ in available_migrations()]
    assert applied == sorted(applied) and applied[0] == 1
    await db.close()


async def test_running_twice_changes_nothing(tmp_path: Path) -> None:
    db = await connect(tmp_path / "farkle.sqlite3")
    await migrate(db)
    async with db.execute("SELECT name, sql FROM sqlite_master ORDER BY name") as cursor:
        before = await cursor.fetchall()
    assert await migrate(db) == []
    async with db.execute("SELECT name, sql FROM sqlite_master ORDER BY name") as cursor:
        assert await cursor.fetchall() == before
    await db.close()


async def test_newer_schema_is_refused(tmp_path: Path) -> None:
    db = await connect(tmp_path / "farkle.sqlite3")
    await migrate(db)
    await db.execute("INSERT INTO schema_migrations (version, name) VALUES (9999, '9999_future.sql')")
    with pytest.raises(SchemaTooNew, match="newer"):
        await migrate(db)
    await db.close()


async def test_failed_migration_is_rolled_back(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_good.sql").write_text("CREATE TABLE good (x INTEGER);")
    (folder / "0002_bad.sql").write_text("CREATE TABLE half (x INTEGER); INSERT INTO missing VALUES (1);")
    db = await connect(tmp_path / "farkle.sqlite3")
    with pytest.raises(Exception, match="missing"):
        await migrate(db, folder)
    async with db.execute("SELECT name FROM sqlite_master WHERE type = 'table'") as cursor:
        tables = {row[0] for row in await cursor.fetchall()}
    assert "good" in tables and "half" not in tables
    async with db.execute("SELECT version FROM schema_migrations") as cursor:
        assert [row[0] for row in await cursor.fetchall()] == [1]
    await db.close()


async def test_connection_pragmas(tmp_path: Path) -> None:
    db = await connect(tmp_path / "farkle.sqlite3")
    # Well under Discord's 3-second answer window: a locked database still gets its answer in time.
    for pragma, expected in (("journal_mode", "wal"), ("foreign_keys", 1), ("busy_timeout", BUSY_TIMEOUT_MS)):
        async with db.execute(f"PRAGMA {pragma}") as cursor:
            row = await cursor.fetchone()
        assert row is not None and row[0] == expected
    await db.close()
