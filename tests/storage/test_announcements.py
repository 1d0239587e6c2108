"""What the game-events stream and the board edge keep in storage, on SQLite and PostgreSQL: which
archived games were announced, and what each board shows with its turn ping."""

from __future__ import annotations

import pytest

from bot.ratings import rate_game
from bot.records import BoardMark, SessionRow
from bot.storage import Database
from bot.storage.sessions import SqlSessionStore
from tests import records as factories

GUILD, CHANNEL, OTHER_CHANNEL = 1, 10, 11
ANA, BEN = 101, 102
NOW = 1_750_000_000.0


@pytest.fixture
def store(database: Database) -> SqlSessionStore:
    return SqlSessionStore(database, rate_game)


def _row(channel: int, game_id: str, *, stage: str = "playing", revision: int | None = None) -> SessionRow:
    return SessionRow(channel, GUILD, game_id, stage, 3, 900, None, "{}", None, revision)


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


async def test_a_board_mark_records_the_shown_version_and_the_turn_ping(store: SqlSessionStore) -> None:
    await store.save(_row(CHANNEL, "g1"))
    await store.save(_row(OTHER_CHANNEL, "g2"))
    await store.write_marks([BoardMark(OTHER_CHANNEL, "g2", 3, (555, 7)), BoardMark(CHANNEL, "g1", 2, None)])
    await store.write_marks([BoardMark(CHANNEL, "g1", 1, None), BoardMark(OTHER_CHANNEL, "old", 9, (1, 1))])

    mine, other = await store.load(CHANNEL), await store.load(OTHER_CHANNEL)
    assert mine is not None and other is not None
    assert (mine.shown_version, mine.ping_message_id, mine.pinged_turn) == (2, None, None), (
        "a shown version never moves backwards"
    )
    assert (other.shown_version, other.ping_message_id, other.pinged_turn) == (3, 555, 7), (
        "a mark for another game in the channel changes nothing"
    )
