"""Stored reviews: written once per game, each member's recent accuracy, and the accuracy board (ties
share a rank, a minimum number of reviewed games, no computers, forgotten members or reset games)."""

from __future__ import annotations

from functools import partial

import pytest

from bot.core.records import Ranked, ReviewedSeat, ReviewRow
from bot.services.ratings import rate_game
from bot.storage import Database, recent, results, reviews
from bot.storage.results import forget_member, reset_leaderboard, write_record
from tests import records as factories

GUILD = 1
NOW = 1_750_000_000.0
DAY = 24 * 3600
ANA, BEN, CY, DEE = 101, 102, 103, 104
NAMES = {ANA: "ana", BEN: "ben", CY: "cy", DEE: "dee", -1: "Computer 1 (expert)"}


@pytest.fixture
def db(database: Database) -> Database:
    return database


async def reviewed(
    db: Database, game_id: str, accuracies: dict[int, float | None], ended_at: float = NOW
) -> None:
    """A finished game between these seats, and its review giving each seat this accuracy."""
    players = [factories.player(user, name=NAMES[user]) for user in accuracies]
    record = factories.synthetic(game_id, *players, ended_at=ended_at, guild=GUILD)
    assert await db.write(partial(write_record, record=record, rate=rate_game))
    seats = tuple(
        ReviewedSeat(seat, user, user < 0, accuracy, 10, 1)
        for seat, (user, accuracy) in enumerate(accuracies.items())
    )
    row = ReviewRow(game_id, GUILD, ended_at, "win", '{"decisions": []}', seats)
    assert await db.write(partial(reviews.save, row=row))


async def board(db: Database, min_games: int, period: str = "all") -> list[tuple[int, str, float]]:
    if period == "30d":
        await recent.refresh(db, GUILD, NOW)
    rows, total = await db.read(
        partial(results.leaderboard, guild_id=GUILD, metric="accuracy", period=period, min_games=min_games)
    )
    assert total == len(rows)
    return [(r.rank, r.row.name, round(r.row.accuracy, 6)) for r in rows]


async def rank(db: Database, user: int, min_games: int) -> Ranked | None:
    return await db.read(
        partial(
            results.rank_of,
            guild_id=GUILD,
            user_id=user,
            metric="accuracy",
            period="all",
            min_games=min_games,
        )
    )


async def test_a_review_is_stored_once(db: Database) -> None:
    await reviewed(db, "g1", {ANA: 0.8, BEN: 0.6})
    again = ReviewRow("g1", GUILD, NOW, "turn", "{}", (ReviewedSeat(0, ANA, False, 0.1, 1, 1),))
    assert not await db.write(partial(reviews.save, row=again))
    assert await db.read(partial(reviews.load, game_id="g1")) == '{"decisions": []}'
    assert await db.read(partial(reviews.game_accuracy, game_id="g1")) == {ANA: 0.8, BEN: 0.6}
    assert await db.read(partial(reviews.load, game_id="g2")) is None


async def test_the_accuracy_board_shares_ranks_on_ties_and_needs_the_minimum(db: Database) -> None:
    await reviewed(db, "g1", {ANA: 1.0, BEN: 0.9, -1: 1.0})
    await reviewed(db, "g2", {ANA: 0.9, BEN: 0.9, CY: 0.8})
    await reviewed(db, "g3", {CY: 1.0, DEE: 1.0})
    await reviewed(db, "g4", {DEE: None})  # no decision that mattered: not counted

    assert await board(db, min_games=2) == [(1, "ana", 0.95), (2, "ben", 0.9), (2, "cy", 0.9)]
    assert await board(db, min_games=1) == [
        (1, "dee", 1.0),
        (2, "ana", 0.95),
        (3, "ben", 0.9),
        (3, "cy", 0.9),
    ]
    assert await rank(db, DEE, min_games=2) is None, "one reviewed game is below the minimum"
    cy = await rank(db, CY, min_games=2)
    assert cy is not None and cy.rank == 2 and cy.row.games == 2


async def test_forgotten_members_and_games_before_a_reset_leave_the_board(db: Database) -> None:
    await reviewed(db, "old", {ANA: 0.25, BEN: 0.5}, ended_at=NOW - 40 * DAY)
    await reviewed(db, "new", {ANA: 1.0, BEN: 0.75})
    assert await board(db, min_games=1) == [(1, "ana", 0.625), (1, "ben", 0.625)]
    assert await board(db, min_games=1, period="30d") == [(1, "ana", 1.0), (2, "ben", 0.75)]
    await db.write(partial(reset_leaderboard, guild_id=GUILD, now=NOW - DAY))
    assert await board(db, min_games=1) == [(1, "ana", 1.0), (2, "ben", 0.75)]
    await db.write(partial(forget_member, user_id=ANA))
    assert await board(db, min_games=1) == [(1, "ben", 0.75)]


async def test_stats_average_the_last_twenty_reviewed_games(db: Database) -> None:
    for number in range(22):
        accuracy = 0.5 if number < 2 else 1.0  # the two oldest fall outside the last 20
        await reviewed(db, f"g{number}", {ANA: accuracy}, ended_at=NOW - (22 - number) * 60)
    assert await db.read(partial(reviews.recent_accuracy, guild_id=GUILD, user_id=ANA)) == (1.0, 20)
    assert await db.read(partial(reviews.recent_accuracy, guild_id=GUILD, user_id=BEN)) is None
