"""Season rollover with no Discord: closing a season writes its standings once and its post is sent once,
whatever runs it twice (two shard processes at once, a start-up after a crash). Both backends."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from functools import partial

import pytest
from sqlalchemy import text

from bot.core.periods import season_at
from bot.services.ratings import rate_game
from bot.services.seasons import POST_LEASE, SeasonEnded, SeasonKeeper
from bot.storage import Database, seasons
from bot.storage.results import forget_member, write_record
from tests.fakes import FakeClock
from tests.records import player, synthetic

GUILD, QUARTERLY, SILENT = 1, 2, 3
ANA, BEN, CY = 101, 102, 103
OCTOBER = datetime(2026, 10, 20, tzinfo=UTC).timestamp()
NOVEMBER = datetime(2026, 11, 1, 0, 0, 5, tzinfo=UTC).timestamp()  # five seconds into a new month
DECEMBER = datetime(2026, 12, 1, tzinfo=UTC).timestamp()


class Poster:
    """Records every post; `dies` makes the next post raise like a process killed mid-post."""

    def __init__(self) -> None:
        self.posts: list[SeasonEnded] = []
        self.dies = False

    async def __call__(self, ended: SeasonEnded) -> int | None:
        if self.dies:
            self.dies = False
            raise ConnectionError("the connection dropped, or the process died, before the post")
        self.posts.append(ended)
        return 1000 + len(self.posts)


async def configure(db: Database, guild: int, season: str | None, channel: int | None) -> None:
    await db.write(
        lambda c: c.execute(
            text(
                "INSERT INTO guild_config (guild_id, season, season_channel, updated_at)"
                " VALUES (:guild, :season, :channel, 0)"
            ),
            {"guild": guild, "season": season, "channel": channel},
        )
    )


@pytest.fixture
async def october(database: Database) -> Database:
    """October 2026: three rated games in a server posting to channel 77, one in a quarterly server, one in a
    server without a channel; one game the day before, in September."""
    await configure(database, GUILD, None, 77)
    await configure(database, QUARTERLY, "quarter", 78)
    await configure(database, SILENT, "month", None)
    games = [
        synthetic("g1", player(ANA, won=True), player(BEN), ended_at=OCTOBER, guild=GUILD),
        synthetic("g2", player(ANA, won=True), player(CY), ended_at=OCTOBER + 60, guild=GUILD),
        synthetic("g3", player(BEN, won=True), player(CY), ended_at=OCTOBER + 120, guild=GUILD),
        synthetic("g4", player(ANA, won=True), player(BEN), ended_at=OCTOBER, guild=QUARTERLY),
        synthetic("g5", player(ANA, won=True), player(BEN), ended_at=OCTOBER, guild=SILENT),
        synthetic("g0", player(CY, won=True), player(BEN), ended_at=OCTOBER - 30 * 86400, guild=GUILD),
    ]
    for game in games:
        await database.write(partial(write_record, record=game, rate=rate_game))
    return database


def keeper(db: Database, poster: Poster, now: float = NOVEMBER) -> SeasonKeeper:
    kept = SeasonKeeper(db, FakeClock(now), owns=lambda guild: True)
    kept.post_with(poster)
    return kept


async def test_two_processes_rolling_over_at_once_close_and_post_each_season_once(october: Database) -> None:
    other = Database(october.where)
    first, second = Poster(), Poster()
    keepers = [keeper(october, first), keeper(other, second)]
    try:
        await asyncio.gather(*(k.roll() for k in keepers))
        await asyncio.gather(*(k.roll() for k in keepers))  # and again: a restart
    finally:
        for k in keepers:
            await k.close()
        await other.close()
    posts = first.posts + second.posts
    assert [(p.guild_id, p.channel_id, p.season) for p in posts] == [(GUILD, 77, "2026-10")]
    standings = posts[0].standings
    assert {s.user_id: (s.games, s.wins) for s in standings} == {ANA: (2, 2), BEN: (2, 1), CY: (2, 0)}, (
        "September's game is not October's"
    )
    assert [s.rank for s in standings] == [1, 2, 3]
    assert [s.rating for s in standings] == sorted((s.rating for s in standings), reverse=True), "by rating"
    closes = await october.read(
        lambda c: c.execute(
            text("SELECT guild_id, season, message_id FROM season_closes ORDER BY guild_id")
        ).all()
    )
    assert [tuple(row) for row in closes] == [(GUILD, "2026-10", 1001), (SILENT, "2026-10", None)], (
        "the quarterly server's season runs to December; a server without a channel keeps its standings"
    )
    silent = await october.read(partial(seasons.placed, guild_id=SILENT, user_id=ANA))
    assert [(p.season, p.rank, p.ranked) for p in silent] == [("2026-10", 1, 2)]


async def test_a_post_cut_short_by_a_crash_is_posted_by_the_next_start_after_its_lease(
    october: Database,
) -> None:
    poster = Poster()
    poster.dies = True
    await keeper(october, poster).roll()  # logged; the claim stays until its lease runs out
    assert poster.posts == []
    await keeper(october, poster, NOVEMBER + 1).roll()
    assert poster.posts == [], "the claim still runs: maybe its process is only slow"
    await keeper(october, poster, NOVEMBER + POST_LEASE).roll()
    assert [p.season for p in poster.posts] == ["2026-10"]
    await keeper(october, poster, NOVEMBER + 2 * POST_LEASE).roll()
    assert len(poster.posts) == 1


async def test_a_quarter_closes_at_the_quarter_s_end_and_forget_me_leaves_the_standings(
    october: Database,
) -> None:
    poster = Poster()
    january = season_at(datetime(2027, 1, 1, 0, 0, 1, tzinfo=UTC).timestamp(), "month")
    await keeper(october, poster, january.since + 1).roll()
    assert [(p.guild_id, p.season) for p in poster.posts] == [(QUARTERLY, "2026-Q4")]
    await october.write(partial(forget_member, user_id=ANA))
    placed = await october.read(partial(seasons.placed, guild_id=QUARTERLY, user_id=BEN))
    assert [(p.rank, p.ranked) for p in placed] == [(2, 1)]
    assert await october.read(partial(seasons.placed, guild_id=QUARTERLY, user_id=ANA)) == []


async def test_after_a_long_downtime_every_missed_season_closes_and_posts_once_in_order(
    october: Database,
) -> None:
    poster = Poster()
    await keeper(october, poster).roll()  # October closes on time
    later = [
        synthetic("n1", player(BEN, won=True), player(ANA), ended_at=NOVEMBER + 86400, guild=GUILD),
        synthetic("d1", player(CY, won=True), player(ANA), ended_at=DECEMBER + 86400, guild=GUILD),
        synthetic("d2", player(CY, won=True), player(BEN), ended_at=DECEMBER + 2 * 86400, guild=QUARTERLY),
    ]
    for game in later:
        await october.write(partial(write_record, record=game, rate=rate_game))
    february = datetime(2027, 2, 1, 0, 0, 5, tzinfo=UTC).timestamp()  # down through January
    for _ in range(2):  # and a restart: nothing twice
        await keeper(october, poster, february).roll()
    assert [(p.guild_id, p.season) for p in poster.posts] == [
        (GUILD, "2026-10"),
        (GUILD, "2026-11"),
        (GUILD, "2026-12"),
        (QUARTERLY, "2026-Q4"),
    ], "November and December, oldest first; January had no game"
    assert [s.user_id for s in poster.posts[1].standings] == [BEN, ANA], "November's own games"
    assert [s.user_id for s in poster.posts[2].standings] == [CY, ANA]
    kept = await october.read(partial(seasons.placed, guild_id=GUILD, user_id=ANA))
    assert [p.season for p in kept] == ["2026-12", "2026-11", "2026-10"], "every season's standings kept"
