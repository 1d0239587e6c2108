"""The skill rating from stored decisions: a member's last 50 decisions in chances to win in any reviewed
game, the stated minimum, and the `skill` board's order (least given away first; ties share a rank)."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import pytest

from bot.core.records import SKILL_DECISIONS, SKILL_MINIMUM, Ranked, ReviewedDecision, ReviewedSeat, ReviewRow
from bot.services.ratings import rate_game
from bot.storage import Database, results, reviews
from bot.storage.results import forget_member, write_record
from tests import records as factories

GUILD = 1
NOW = 1_750_000_000.0
ANA, BEN, CY, COMPUTER = 101, 102, 103, -1
NAMES = {ANA: "ana", BEN: "ben", CY: "cy", COMPUTER: "Computer 1 (expert)"}


@pytest.fixture
def db(database: Database) -> Database:
    return database


async def decided(
    db: Database,
    game_id: str,
    losses: dict[int, list[float]],
    ended_at: float,
    measure: str = "win",
    guild: int = GUILD,
) -> None:
    """A finished game between these seats whose review gives members' decisions these losses."""
    players = [
        replace(factories.player(user, name=NAMES[user]), computer="expert" if user < 0 else None)
        for user in losses
    ]
    record = factories.synthetic(game_id, *players, ended_at=ended_at, guild=guild)
    assert await db.write(partial(write_record, record=record, rate=rate_game))
    seats = tuple(ReviewedSeat(seat, user, user < 0, 0.9, 10, 0) for seat, user in enumerate(losses))
    members = [
        (seat, user, loss) for seat, (user, mine) in enumerate(losses.items()) if user > 0 for loss in mine
    ]
    decisions = tuple(ReviewedDecision(index, *decision) for index, decision in enumerate(members))
    row = ReviewRow(game_id, guild, ended_at, measure, "{}", seats, decisions)
    assert await db.write(partial(reviews.save, row=row))


async def skill_of(db: Database, user: int) -> tuple[float, int] | None:
    return await db.read(partial(reviews.recent_skill, guild_id=GUILD, user_id=user))


async def board(db: Database) -> list[tuple[int, str, float, int]]:
    rows, total = await db.read(partial(results.leaderboard, guild_id=GUILD, metric="skill", period="all"))
    assert total == len(rows)
    return [(r.rank, r.row.name, round(r.row.given_away, 9), r.row.games) for r in rows]


async def rank(db: Database, user: int) -> Ranked | None:
    return await db.read(partial(results.rank_of, guild_id=GUILD, user_id=user, metric="skill", period="all"))


async def test_the_rating_needs_the_minimum_and_ranks_least_given_away_first(db: Database) -> None:
    short = SKILL_MINIMUM - 1
    await decided(db, "g1", {ANA: [0.001] * 12, BEN: [0.01] * 12, CY: [0.0] * short}, NOW - 100)
    await decided(db, "g2", {ANA: [0.003] * 12, BEN: [0.0] * 12}, NOW - 50)
    assert await skill_of(db, ANA) == (pytest.approx(0.002), 24)
    assert await skill_of(db, CY) == (0.0, short), "below the minimum: counted, not ranked"
    assert await board(db) == [(1, "ana", 0.002, 24), (2, "ben", 0.005, 24)]
    mine = await rank(db, BEN)
    assert mine is not None and mine.rank == 2
    assert await rank(db, CY) is None

    await decided(db, "g3", {CY: [0.002], BEN: [0.002]}, NOW)  # cy reaches the minimum
    assert await board(db) == [
        (1, "cy", 0.0001, SKILL_MINIMUM),
        (2, "ana", 0.002, 24),
        (3, "ben", 0.00488, 25),
    ]


async def test_the_last_fifty_decisions_in_chances_count_games_against_computers_too(db: Database) -> None:
    await decided(db, "old", {ANA: [0.05] * SKILL_DECISIONS, BEN: [0.0]}, NOW - 300)
    await decided(db, "new", {ANA: [0.0] * SKILL_DECISIONS, BEN: [0.0]}, NOW - 200)
    assert await skill_of(db, ANA) == (0.0, SKILL_DECISIONS), "the last fifty: a cold streak passes"
    await decided(db, "points", {ANA: [400.0] * 10, BEN: [0.0]}, NOW - 100, measure="turn")
    assert await skill_of(db, ANA) == (0.0, SKILL_DECISIONS), "points are not chances"
    await decided(db, "solo", {ANA: [0.01] * 10, COMPUTER: []}, NOW)  # one member: unrated, but reviewed
    assert await skill_of(db, ANA) == (pytest.approx(0.002), SKILL_DECISIONS)
    await db.write(partial(forget_member, user_id=ANA))
    assert await skill_of(db, ANA) is None and [row[1] for row in await board(db)] == []


async def test_a_game_against_a_computer_gives_a_skill_and_leaves_the_rating_alone(db: Database) -> None:
    await decided(db, "solo", {CY: [0.005] * SKILL_MINIMUM, COMPUTER: []}, NOW)
    assert await skill_of(db, CY) == (pytest.approx(0.005), SKILL_MINIMUM)
    assert await board(db) == [(1, "cy", 0.005, SKILL_MINIMUM)]
    assert await db.read(partial(results.member_stats, guild_id=GUILD, user_id=CY)) is None, "no rated game"


async def test_the_skill_everywhere_reads_every_servers_decisions(db: Database) -> None:
    await decided(db, "here", {CY: [0.004] * 10, COMPUTER: []}, NOW - 10)
    await decided(db, "there", {CY: [0.002] * 10, COMPUTER: []}, NOW, guild=GUILD + 1)
    assert await skill_of(db, CY) == (pytest.approx(0.004), 10)
    everywhere = await db.read(partial(reviews.skill_everywhere, user_id=CY))
    assert everywhere == (pytest.approx(0.003), 20)
    assert await db.read(partial(reviews.skill_everywhere, user_id=ANA)) is None
