"""Small keyed stores: win tables as the solver's bytes, the synced command tree's hash; on either backend."""

from bot.storage import Database, command_sync
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


async def test_the_synced_command_tree_hash_is_kept_per_scope(database: Database) -> None:
    assert await command_sync.last_hash(database, "global") is None
    await command_sync.record_hash(database, "global", "abc")
    await command_sync.record_hash(database, "1234", "def")
    await command_sync.record_hash(database, "global", "ghi")
    assert [await command_sync.last_hash(database, scope) for scope in ("global", "1234")] == ["ghi", "def"]
