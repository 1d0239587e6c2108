"""The win tables' store on either backend: the solver's bytes, by key."""

from bot.storage import Database
from bot.storage.win_tables import SqlWinTableStore


async def test_tables_round_trip_by_key(database: Database) -> None:
    store = SqlWinTableStore(database)
    assert await store.load("classic") is None
    await store.save("classic", b"\x00\x01tables")
    await store.save("box", b"other")
    assert await store.load("classic") == b"\x00\x01tables"
    await store.save("classic", b"again")
    assert await store.load("classic") == b"again"
    assert await store.load("box") == b"other"
