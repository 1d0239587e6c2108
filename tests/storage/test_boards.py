"""The board ledger on both backends: what each message shows with its turn ping, a new game's board in
place of the last one's, and a start-up that loads the rows of the games it restored only."""

from __future__ import annotations

from bot.storage import Database
from bot.storage.boards import BoardMark, BoardRow, SqlBoardLedger

CHANNEL, OTHER_CHANNEL = 10, 11
ANA = 101


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


async def test_the_ledger_keeps_what_each_message_shows_and_the_turn_ping(database: Database) -> None:
    ledger = SqlBoardLedger(database)
    await ledger.attach(BoardRow("g1", CHANNEL, "board", "channel", 900, 1))
    await ledger.attach(BoardRow("g2", OTHER_CHANNEL, "board", "token", 901, 1))
    await ledger.attach(BoardRow("g2", CHANNEL, "follow", "channel", 902, 1, owner_id=ANA))
    await ledger.write_marks(
        [BoardMark("g2", OTHER_CHANNEL, "board", 3, (555, 7)), BoardMark("g1", CHANNEL, "board", 2)]
    )
    await ledger.write_marks(
        [BoardMark("g1", CHANNEL, "board", 1), BoardMark("old", OTHER_CHANNEL, "board", 9, (1, 1))]
    )

    rows = {(row.game_id, row.role): row for row in await ledger.load(["g1", "g2", "old"])}
    assert set(rows) == {("g1", "board"), ("g2", "board"), ("g2", "follow")}
    assert (rows["g1", "board"].shown_version, rows["g1", "board"].ping_message_id) == (2, None), (
        "a shown version never moves backwards"
    )
    mine = rows["g2", "board"]
    assert (mine.route, mine.shown_version, mine.ping_message_id, mine.pinged_turn) == ("token", 3, 555, 7)
    assert rows["g2", "follow"].owner_id == ANA
    assert [row.game_id for row in await ledger.load(["g1"])] == ["g1"], "other shards' games are theirs"


async def test_a_new_games_board_replaces_the_last_games_board_in_its_channel(database: Database) -> None:
    ledger = SqlBoardLedger(database)
    await ledger.attach(BoardRow("g1", CHANNEL, "board", "channel", 900, 4))
    await ledger.write_marks([BoardMark("g1", CHANNEL, "board", None, (555, 3))])
    await ledger.attach(BoardRow("g1", CHANNEL, "board", "channel", 905, 4))  # `/farkle board`
    (again,) = await ledger.load(["g1"])
    assert (again.message_id, again.ping_message_id) == (905, 555), "posted again, the ping kept"

    await ledger.attach(BoardRow("g2", CHANNEL, "board", "channel", 910, 1))  # a rematch
    assert [row.game_id for row in await ledger.load(["g1", "g2"])] == ["g2"]
    await ledger.forget("g2")
    assert await ledger.load(["g2"]) == []
