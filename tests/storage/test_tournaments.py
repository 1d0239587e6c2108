"""The tournaments' storage beyond what the door's tests drive, on both backends: the champions not yet
crowned, the running matches' ended games read back by id, and a card's message in the board ledger."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from bot.core.records import EntrantRow, TournamentRow
from bot.services.ratings import rate_game
from bot.storage import Database
from bot.storage.boards import BoardRow, SqlBoardLedger
from bot.storage.results import write_record
from bot.storage.tournaments import SqlTournamentStore
from tests.records import player, synthetic

ROW = TournamentRow(
    tournament_id="t1",
    guild_id=1,
    channel_id=500,
    host_id=9,
    name="Cup",
    format="single",
    rounds=2,
    best_of=1,
    rules="{}",
    match_deadline=600,
    signup_until=None,
    stage="signup",
    state="{}",
    created_at=0.0,
    ended_at=None,
    revision=0,
)


async def test_a_tournament_over_is_uncrowned_until_marked(database: Database) -> None:
    store = SqlTournamentStore(database)
    assert await store.create(ROW)
    assert await store.uncrowned() == [], "signing up: nothing to crown"
    assert await store.save(replace(ROW, stage="over", ended_at=50.0))
    assert [row.tournament_id for row in await store.uncrowned()] == ["t1"]
    await store.mark_crowned("t1", 60.0)
    assert await store.uncrowned() == []
    stored = await store.load("t1")
    assert stored is not None and stored.crowned_at == 60.0


async def test_ended_games_are_read_back_by_id_as_archived(database: Database) -> None:
    for game in (
        synthetic("g1", player(1, won=True), player(2), ended_at=10.0, guild=1),
        synthetic("g2", player(3), player(4, won=True), ended_at=5.0, guild=1),
    ):
        await database.write(partial(write_record, record=game, rate=rate_game))
    found = await SqlTournamentStore(database).ended_games(["g1", "g2", "still-playing"])
    assert [(r.game_id, [p.user_id for p in r.players if p.won]) for r in found] == [("g2", [4]), ("g1", [1])]
    assert await SqlTournamentStore(database).ended_games([]) == []


async def test_a_card_is_a_ledger_row_of_its_tournament(database: Database) -> None:
    ledger = SqlBoardLedger(database)
    assert await ledger.card("t1") is None
    await ledger.attach(BoardRow("t1", 500, "card", "channel", 9001, None))
    card = await ledger.card("t1")
    assert card is not None and (card.channel_id, card.message_id) == (500, 9001)
    assert await ledger.card("t2") is None


async def test_a_servers_tournaments_come_with_their_own_entrants(database: Database) -> None:
    store = SqlTournamentStore(database)
    assert await store.of_guild(1) == []
    assert await store.create(ROW)
    assert await store.create(replace(ROW, tournament_id="t2", channel_id=501, created_at=5.0))
    assert await store.create(replace(ROW, tournament_id="t3", guild_id=2, channel_id=502))
    for tournament, user, joined in (("t1", 7, 2.0), ("t2", 8, 1.0), ("t1", 6, 1.0), ("t3", 9, 1.0)):
        assert await store.join(EntrantRow(tournament, user, f"m{user}", joined))
    found = await store.of_guild(1)
    assert [(row.tournament_id, [e.user_id for e in entrants]) for row, entrants in found] == [
        ("t2", [8]),
        ("t1", [6, 7]),
    ]
