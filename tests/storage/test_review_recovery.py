"""What a start-up finds after a crash in the middle of reviewing, on SQLite and PostgreSQL: announced
games without a review, and stored flawless reviews whose achievement was never awarded."""

from __future__ import annotations

import itertools

import pytest

from bot.core.records import ReviewedSeat, ReviewRow, SessionRow
from bot.services.ratings import rate_game
from bot.storage import Database
from bot.storage.daily import SqlDailyStore
from bot.storage.results import forget_member
from bot.storage.reviews import SqlReviewStore
from bot.storage.sessions import SqlSessionStore
from tests import records as factories

GUILD = 1
ANA, BEN, CY, CPU = 101, 102, 103, -1
NOW = 1_750_000_000.0
FLAWLESS, DECISIONS = 0.995, 10
CHANNELS = itertools.count(10)  # a channel per archived game


@pytest.fixture
def sessions(database: Database) -> SqlSessionStore:
    return SqlSessionStore(database, rate_game)


async def archive(sessions: SqlSessionStore, game_id: str, ended_at: float, *user_ids: int) -> None:
    players = [factories.player(user_id, won=index == 0) for index, user_id in enumerate(user_ids)]
    record = factories.synthetic(game_id, *players, ended_at=ended_at, guild=GUILD)
    await sessions.save(SessionRow(next(CHANNELS), GUILD, game_id, "over", 3, None, "{}", None), record)


def reviewed(game_id: str, ended_at: float, *seats: tuple[int, float | None, int, int]) -> ReviewRow:
    """A stored review whose seats are (user id, accuracy, decisions, mistakes)."""
    return ReviewRow(
        game_id,
        GUILD,
        ended_at,
        "turn",
        "{}",
        tuple(
            ReviewedSeat(seat, user, user < 0, accuracy, decisions, mistakes)
            for seat, (user, accuracy, decisions, mistakes) in enumerate(seats)
        ),
    )


async def test_announced_games_without_a_review_are_found_since_a_moment(
    database: Database, sessions: SqlSessionStore
) -> None:
    reviews = SqlReviewStore(database)
    for game_id, ended_at in (("old", NOW - 100), ("done", NOW + 1), ("lost", NOW + 2), ("queued", NOW + 3)):
        await archive(sessions, game_id, ended_at, ANA, BEN)
    await sessions.mark_announced(["old", "done", "lost"])  # "queued" is the stream's: announced at start-up
    await reviews.save(reviewed("done", NOW + 1, (ANA, 1.0, 12, 0), (BEN, 0.5, 9, 2)))

    missed = await reviews.unreviewed(since=NOW)
    assert [record.game_id for record in missed] == ["lost"]
    assert [p.user_id for p in missed[0].players] == [ANA, BEN], "rebuilt with its seats"


async def test_flawless_reviews_left_unawarded_are_awarded_once_to_members_only(
    database: Database, sessions: SqlSessionStore
) -> None:
    reviews, daily = SqlReviewStore(database), SqlDailyStore(database)
    await archive(sessions, "g1", NOW, ANA, BEN, CPU)
    await archive(sessions, "g2", NOW + 10, ANA, CY)
    await archive(sessions, "g3", NOW + 20, BEN, CY)
    await reviews.save(reviewed("g1", NOW, (ANA, 1.0, 12, 0), (BEN, 1.0, 9, 0), (CPU, 1.0, 30, 0)))
    await reviews.save(reviewed("g2", NOW + 10, (ANA, 0.999, 15, 0), (CY, 0.999, 14, 1)))
    await reviews.save(reviewed("g3", NOW + 20, (BEN, 0.98, 20, 0), (CY, 1.0, 11, 0)))
    await database.write(lambda connection: forget_member(connection, CY))

    awarded = await daily.award_flawless_reviews("perfect_review", FLAWLESS, DECISIONS)
    assert [(a.user_id, a.source, a.earned_at) for a in awarded] == [(ANA, "g1", NOW)], (
        "ben's games are too short or not flawless, cy asked to be forgotten, computers earn nothing; "
        "ana's earliest flawless game is the source"
    )
    assert await daily.award_flawless_reviews("perfect_review", FLAWLESS, DECISIONS) == []
    assert [a.achievement for a in await daily.achievements(ANA)] == ["perfect_review"]
