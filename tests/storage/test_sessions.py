"""The session store on SQLite and PostgreSQL: an archived game stays unannounced until the stream marks
it."""

from __future__ import annotations

import pytest

from bot.core.records import SessionRow
from bot.services.ratings import rate_game
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
