"""What the game-events stream and the board edge keep in storage, on SQLite and PostgreSQL: which
archived games were announced, and the board ledger (what each message shows, with its turn ping)."""

from __future__ import annotations

import pytest

from bot.core.records import SessionRow
from bot.services.ratings import rate_game
from bot.storage import Database
from bot.storage.boards import BoardMark, BoardRow, SqlBoardLedger
from bot.storage.sessions import SqlSessionStore
from tests import records as factories

GUILD, CHANNEL, OTHER_CHANNEL = 1, 10, 11
ANA, BEN = 101, 102
NOW = 1_750_000_000.0


@pytest.fixture
def store(database: Database) -> SqlSessionStore:
    return SqlSessionStore(database, rate_game)


def _row(channel: int, game_id: str, *, stage: str = "playing", revision: int | None = None) -> SessionRow:
    return SessionRow(channel, GUILD, game_id, stage, 3, None, "{}", revision)


async def test_an_archived_game_stays_unannounced_until_marked(store: SqlSessionStore) -> None:
    first = factories.synthetic(
        "g1", factories.player(ANA, won=True, points=10_000), factories.player(BEN), ended_at=NOW, guild=GUILD
    )
    second = factories.synthetic(
        "g2", factories.player(BEN, won=True), factories.player(ANA), ended_at=NOW + 5, guild=GUILD
    )
    await store.save(_row(CHANNEL, "g1", stage="over"), first)
    await store.save(_row(OTHER_CHANNEL, "g2", stage="over"), second)

    assert await store.unannounced() == [first, second], "rebuilt exactly as archived, oldest first"
    await store.mark_announced(["g1"])
    assert await store.unannounced() == [second]
    await store.mark_announced(["g2", "g2"])  # a repeated mark changes nothing
    assert await store.unannounced() == []


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
