"""Win tables are kept by key as the solver's bytes, replaced when solved again."""

from pathlib import Path

from bot.storage import connect, migrate
from bot.storage.win_tables import SqliteWinTableStore


async def test_tables_round_trip_by_key(tmp_path: Path) -> None:
    db = await connect(tmp_path / "farkle.sqlite3")
    try:
        await migrate(db)
        store = SqliteWinTableStore(db)
        assert await store.load("classic") is None
        await store.save("classic", b"\x00\x01tables")
        await store.save("box", b"other")
        assert await store.load("classic") == b"\x00\x01tables"
        await store.save("classic", b"again")
        assert await store.load("classic") == b"again"
        assert await store.load("box") == b"other"
    finally:
        await db.close()
