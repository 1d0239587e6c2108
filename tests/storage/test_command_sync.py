"""The synced command tree's hash, kept per scope on either backend."""

from bot.storage import Database, command_sync


async def test_the_synced_command_tree_hash_is_kept_per_scope(database: Database) -> None:
    assert await command_sync.last_hash(database, "global") is None
    await command_sync.record_hash(database, "global", "abc")
    await command_sync.record_hash(database, "1234", "def")
    await command_sync.record_hash(database, "global", "ghi")
    assert [await command_sync.last_hash(database, scope) for scope in ("global", "1234")] == ["ghi", "def"]
