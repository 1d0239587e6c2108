"""The board ledger's reads on both backends: a start-up loads the rows of the games it restored only."""

from __future__ import annotations

from bot.storage import Database
from bot.storage.boards import BoardRow, SqlBoardLedger


async def test_load_reads_only_the_named_games(database: Database) -> None:
    ledger = SqlBoardLedger(database)
    await ledger.attach(BoardRow("g1", 500, "board", "channel", 9001, 3))
    await ledger.attach(BoardRow("g1", 600, "follow", "token", None, 2, owner_id=7))
    await ledger.attach(BoardRow("g2", 501, "board", "channel", 9002, 1))
    await ledger.attach(BoardRow("t1", 502, "card", "channel", 9003, None))

    loaded = await ledger.load({"g1", "elsewhere"})
    assert [(r.game_id, r.channel_id, r.role, r.message_id) for r in loaded] == [
        ("g1", 500, "board", 9001),
        ("g1", 600, "follow", None),
    ]
    assert loaded[1].owner_id == 7 and loaded[1].route == "token"
    assert await ledger.load([]) == []
