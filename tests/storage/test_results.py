"""Game records, statistics and leaderboards, with no Discord: every test on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Sequence
from functools import partial
from typing import Any

import pytest
from sqlalchemy import text

from bot.core.periods import Window
from bot.core.records import (
    METRICS,
    GameRecord,
    GameSummary,
    Metric,
    Period,
    PlayerRecord,
    Ranked,
    StatsRow,
    StoredSession,
)
from bot.engine import Game, Ruleset, ScriptedDice
from bot.services.ratings import DEFAULT_MU, DEFAULT_SIGMA, friendly, rate, rate_game
from bot.sessions.archive import record_of, replay
from bot.sessions.session import Seat, Session
from bot.storage import Database, recent, results
from bot.storage.results import FORGOTTEN, ArchivedGame, forget_member, reset_leaderboard, write_record
from bot.storage.sessions import SqlSessionStore
from tests import records as factories

GUILD = 1
OTHER_GUILD = 2
NOW = 1_750_000_000.0
DAY = 24 * 3600
SIX_ONES = (1, 1, 1, 1, 1, 1)
FARKLE = (2, 3, 4, 6, 2, 3)
ANA, BEN, CY, DEE, EVE = 101, 102, 103, 104, 105
NAMES = {ANA: "ana", BEN: "ben", CY: "cy", DEE: "dee", EVE: "eve"}


@pytest.fixture
def db(database: Database) -> Database:
    """A migrated, empty database: a SQLite file, then a PostgreSQL database (tests/databases.py)."""
    return database


# ---------------------------------------------------------------------- reading, as the services do


async def fetch(db: Database, sql: str, **params: Any) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in await db.read(lambda c: c.execute(text(sql), params).all())]


async def member_stats(db: Database, guild: int, user: int) -> StatsRow | None:
    return await db.read(partial(results.member_stats, guild_id=guild, user_id=user))


async def recent_games(db: Database, guild: int) -> list[GameSummary]:
    return await db.read(partial(results.recent_games, guild_id=guild))


async def archived_game(db: Database, guild: int, game_id: str) -> ArchivedGame | None:
    return await db.read(partial(results.archived_game, guild_id=guild, game_id=game_id))


async def leaderboard(
    db: Database, guild: int, metric: Metric, period: Period, *, now: float, **page: int
) -> tuple[list[Ranked], int]:
    if period == "30d":
        await recent.refresh(db, guild, now)
    return await db.read(partial(results.leaderboard, guild_id=guild, metric=metric, period=period, **page))


async def rank_of(
    db: Database, guild: int, user: int, metric: Metric, period: Period, *, now: float, min_games: int = 1
) -> Ranked | None:
    if period == "30d":
        await recent.refresh(db, guild, now)
    return await db.read(
        partial(
            results.rank_of, guild_id=guild, user_id=user, metric=metric, period=period, min_games=min_games
        )
    )


# ---------------------------------------------------------------------- building games


def finished(
    game_id: str,
    seats: Sequence[Seat],
    *,
    guild: int = GUILD,
    channel: int = 10,
    ended_at: float = NOW,
) -> Session:
    """A real classic game, over: the first seat banks 10,000 in one turn, everyone else Farkles."""
    rules = Ruleset.preset("classic")
    roll_off = (6, 2, 3, 4, 5)[: len(seats)]
    dice = ScriptedDice([roll_off, *[SIX_ONES] * 5, *[FARKLE] * (len(seats) - 1)])
    dice_start = dice.state()
    players = [seat.player_id for seat in seats]
    game = Game.new(rules, players, dice)
    first = players[0]
    game.roll(first)
    for _ in range(4):
        game.roll(first, tuple(range(6)))
    game.bank(first, tuple(range(6)))
    for other in players[1:]:
        game.roll(other)
    assert game.result is not None and game.result.winners == (first,)
    return over(game_id, game, seats, dice_start, guild=guild, channel=channel, ended_at=ended_at)


def over(
    game_id: str,
    game: Game,
    seats: Sequence[Seat],
    dice_start: dict[str, Any],
    *,
    guild: int,
    channel: int,
    ended_at: float,
) -> Session:
    """The session of a game played to its end, as the session layer archives it: ten minutes long."""
    return Session(
        game_id=game_id,
        guild_id=guild,
        channel_id=channel,
        host_id=seats[0].user_id,
        rules=game.rules,
        seats=list(seats),
        stage="over",
        game=game,
        version=len(game.history) + len(seats) + 2,
        dice_start=dice_start,
        started_at=ended_at - 600,
        ended_at=ended_at,
    )


class Sessions:
    """The store as the session layer's unit of work calls it: the row, and the record of a game just over."""

    def __init__(self, db: Database) -> None:
        self._store = SqlSessionStore(db, rate_game)

    async def save(self, session: Session) -> None:
        session.revision = await self._store.save(session.row(session.dump()), record_of(session))

    async def load_all(self) -> list[StoredSession]:
        return await self._store.load_all()


def seat(user_id: int) -> Seat:
    return Seat(user_id, NAMES[user_id])


def computer(number: int = 1) -> Seat:
    return Seat(-number, f"Computer {number} (normal)", computer="normal")


def player(user_id: int, *, name: str | None = None, **numbers: Any) -> PlayerRecord:
    return factories.player(user_id, name=name or NAMES.get(user_id), **numbers)


def synthetic(game_id: str, *players: PlayerRecord, ended_at: float = NOW, guild: int = GUILD) -> GameRecord:
    return factories.synthetic(game_id, *players, ended_at=ended_at, guild=guild)


async def write(db: Database, *games: GameRecord) -> None:
    for game in games:
        assert await db.write(partial(write_record, record=game, rate=rate_game))


async def count(db: Database, table: str) -> int:
    return int((await fetch(db, f"SELECT COUNT(*) FROM {table}"))[0][0])


async def board(
    db: Database,
    metric: Metric,
    period: Period = "all",
    *,
    now: float = NOW,
    min_games: int = 1,
    guild: int = GUILD,
) -> list[tuple[int, str]]:
    rows, total = await leaderboard(db, guild, metric, period, now=now, min_games=min_games, limit=100)
    assert total == len(rows)
    return [(ranked.rank, ranked.row.name) for ranked in rows]


# ---------------------------------------------------------------------- written exactly once


async def test_a_finished_session_saved_twice_is_recorded_once(db: Database) -> None:
    store = Sessions(db)
    session = finished("g1", [seat(ANA), seat(BEN)])
    await store.save(session)
    await store.save(session)  # the final press retried, or the board re-attached after the end

    assert await count(db, "games") == 1
    assert await count(db, "game_players") == 2
    ana, ben = await member_stats(db, GUILD, ANA), await member_stats(db, GUILD, BEN)
    assert ana is not None and (ana.games, ana.wins, ana.points, ana.best_turn) == (1, 1, 10_000, 10_000)
    assert ana.hot_dice == 5 and ana.farkles == 0
    assert ben is not None and (ben.games, ben.wins, ben.points, ben.farkles) == (1, 0, 0, 1)
    record = record_of(session)
    assert record is not None
    assert not await db.write(partial(write_record, record=record, rate=rate_game))
    assert (await member_stats(db, GUILD, ANA)) == ana


async def test_the_same_game_saved_twice_at_once_is_recorded_once(db: Database) -> None:
    """Two writers of one session row (two processes during a re-shard): one wins, the other is told."""
    stores = Sessions(db), Sessions(db)
    copies = finished("g1", [seat(ANA), seat(BEN)]), finished("g1", [seat(ANA), seat(BEN)])
    outcomes = await asyncio.gather(
        *(s.save(c) for s, c in zip(stores, copies, strict=True)), return_exceptions=True
    )
    assert sorted(type(outcome).__name__ for outcome in outcomes) == ["NoneType", "SessionConflict"]
    assert await count(db, "games") == 1
    ana = await member_stats(db, GUILD, ANA)
    assert ana is not None and ana.games == 1


async def test_two_games_ending_at_once_are_both_recorded(db: Database) -> None:
    store = Sessions(db)
    first = finished("g1", [seat(ANA), seat(BEN)], channel=10)
    second = finished("g2", [seat(ANA), seat(CY)], channel=11)
    await asyncio.gather(store.save(first), store.save(second))

    assert await count(db, "games") == 2
    ana = await member_stats(db, GUILD, ANA)
    assert ana is not None and (ana.games, ana.wins, ana.points) == (2, 2, 20_000)
    # Both rating updates landed, one after the other: no lost update.
    once = rate([(DEFAULT_MU, DEFAULT_SIGMA), (DEFAULT_MU, DEFAULT_SIGMA)], [1, 2])[0]
    twice = rate([once, (DEFAULT_MU, DEFAULT_SIGMA)], [1, 2])[0]
    assert ana.rating == pytest.approx(friendly(*twice))
    assert {stored.channel_id for stored in await store.load_all()} == {10, 11}


def test_openskill_loads_at_the_first_rated_game_not_at_start_up() -> None:
    """It is ~1 MB resident that a bot with no finished game yet never needs."""
    check = (
        "import sys, bot.app.client, cogs.board.boards, cogs.farkle, cogs.server_settings\n"
        "from bot.services.ratings import rate_game\n"
        "started = 'openskill' in sys.modules\n"
        "rate_game([None, None], [1, 2])\n"
        "sys.exit(started or 'openskill' not in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", check], check=False).returncode == 0


async def test_two_processes_ending_games_at_once_both_record(db: Database) -> None:
    """Two shard processes record games of the same member at the same instant: no update is lost."""
    other = Database(db.where)
    try:
        first = finished("g1", [seat(ANA), seat(BEN)], channel=10)
        second = finished("g2", [seat(ANA), seat(CY)], channel=11)
        await asyncio.gather(Sessions(db).save(first), Sessions(other).save(second))
    finally:
        await other.close()
    ana = await member_stats(db, GUILD, ANA)
    assert await count(db, "games") == 2 and ana is not None and (ana.games, ana.wins) == (2, 2)
    once = rate([(DEFAULT_MU, DEFAULT_SIGMA), (DEFAULT_MU, DEFAULT_SIGMA)], [1, 2])[0]
    assert ana.rating == pytest.approx(friendly(*rate([once, (DEFAULT_MU, DEFAULT_SIGMA)], [1, 2])[0]))


async def test_games_against_computers_are_recorded_but_not_counted(db: Database) -> None:
    store = Sessions(db)
    await store.save(finished("g1", [seat(ANA), computer()]))

    rows = await fetch(db, "SELECT counted FROM games WHERE game_id = 'g1'")
    assert [row[0] for row in rows] == [0]
    assert await count(db, "game_players") == 2
    assert await member_stats(db, GUILD, ANA) is None
    for period in ("all", "30d"):
        assert await board(db, "wins", period) == []
    history = await recent_games(db, GUILD)
    assert [(g.game_id, g.players) for g in history] == [
        ("g1", (("ana", 10_000, True), ("Computer 1 (normal)", 0, False)))
    ]


async def test_two_humans_and_a_computer_count_for_the_humans_only(db: Database) -> None:
    await Sessions(db).save(finished("g1", [seat(ANA), computer(), seat(BEN)]))
    assert await board(db, "wins") == [(1, "ana"), (2, "ben")]
    assert await count(db, "player_stats") == 2


# ---------------------------------------------------------------------- ratings


async def test_ratings_move_winners_up_and_losers_down(db: Database) -> None:
    await write(
        db,
        synthetic(
            "g1",
            player(ANA, won=True, placement=1),
            player(BEN, placement=2),
            player(CY, placement=3),
        ),
    )
    start = friendly(DEFAULT_MU, DEFAULT_SIGMA)
    ana, ben, cy = [await member_stats(db, GUILD, user) for user in (ANA, BEN, CY)]
    assert ana is not None and ben is not None and cy is not None
    assert ana.rating > ben.rating > cy.rating
    assert ana.rating > start
    rows = await fetch(db, "SELECT user_id, mu, sigma FROM player_stats ORDER BY user_id")
    assert [row[0] for row in rows] == [ANA, BEN, CY]
    assert rows[0][1] > DEFAULT_MU > rows[2][1]
    assert all(row[2] < DEFAULT_SIGMA for row in rows), "every game makes the system surer"

    await write(db, synthetic("g2", player(CY, won=True), player(ANA)))
    after = await member_stats(db, GUILD, CY)
    assert after is not None and after.rating > cy.rating


# ---------------------------------------------------------------------- leaderboards


@pytest.fixture
async def four_players(db: Database) -> Database:
    """ana 2 wins of 2; ben and cy 1 of 2; dee 0 of 2 (all within the last 30 days)."""
    await write(
        db,
        synthetic(
            "g1", player(ANA, won=True, points=10_000, best=6_000), player(BEN, points=2_000, best=1_500)
        ),
        synthetic(
            "g2", player(ANA, won=True, points=10_000, best=3_000), player(CY, points=4_000, best=4_000)
        ),
        synthetic("g3", player(BEN, won=True, points=10_000, best=5_000), player(DEE, points=500, best=500)),
        synthetic(
            "g4", player(CY, won=True, points=10_000, best=2_500), player(DEE, points=1_000, best=1_000)
        ),
    )
    return db


EXPECTED: dict[Metric, list[tuple[int, str]]] = {
    "wins": [(1, "ana"), (2, "ben"), (2, "cy"), (4, "dee")],
    "win_rate": [(1, "ana"), (2, "ben"), (2, "cy"), (4, "dee")],
    "points": [(1, "ana"), (2, "cy"), (3, "ben"), (4, "dee")],
    "best_turn": [(1, "ana"), (2, "ben"), (3, "cy"), (4, "dee")],
}


@pytest.mark.parametrize("period", ["all", "30d"])
@pytest.mark.parametrize("metric", sorted(EXPECTED))
async def test_leaderboard_order_and_shared_ranks(
    four_players: Database, metric: Metric, period: Period
) -> None:
    assert await board(four_players, metric, period) == EXPECTED[metric]


async def test_rating_leaderboard_follows_the_ratings(four_players: Database) -> None:
    rows, total = await leaderboard(four_players, GUILD, "rating", "all", now=NOW)
    assert total == 4
    assert rows[0].row.name == "ana" and rows[-1].row.name == "dee"
    ratings = [r.row.rating for r in rows]
    assert ratings == sorted(ratings, reverse=True)
    assert [r.rank for r in rows] == [1 + sum(1 for x in ratings if x > r) for r in ratings]
    mine = await rank_of(four_players, GUILD, DEE, "rating", "30d", now=NOW)
    assert mine is not None and mine.rank == 4


async def test_leaderboard_rows_carry_every_number(four_players: Database) -> None:
    rows, _ = await leaderboard(four_players, GUILD, "wins", "all", now=NOW)
    ana = rows[0].row
    assert (ana.games, ana.wins, ana.points, ana.best_turn, ana.best_game) == (2, 2, 20_000, 6_000, 10_000)
    assert ana.win_rate == 1.0 and ana.average_turn == pytest.approx(20_000 / 6)
    recent, _ = await leaderboard(four_players, GUILD, "wins", "30d", now=NOW)
    assert recent[0].row == ana, "the 30-day numbers add up to the same totals when every game is recent"


async def test_rank_of_agrees_with_the_page(four_players: Database) -> None:
    for metric, expected in EXPECTED.items():
        for rank, name in expected:
            user = next(u for u, n in NAMES.items() if n == name)
            mine = await rank_of(four_players, GUILD, user, metric, "all", now=NOW)
            assert mine is not None and (mine.rank, mine.row.name) == (rank, name), metric
    assert await rank_of(four_players, GUILD, EVE, "wins", "all", now=NOW) is None


async def test_leaderboards_are_per_server(four_players: Database) -> None:
    await write(four_players, synthetic("x1", player(EVE, won=True), player(ANA), guild=OTHER_GUILD))
    assert await board(four_players, "wins", guild=OTHER_GUILD) == [(1, "eve"), (2, "ana")]
    assert await board(four_players, "wins") == EXPECTED["wins"]
    ana = await member_stats(four_players, GUILD, ANA)
    assert ana is not None and ana.games == 2


async def test_paging(db: Database) -> None:
    members = list(range(1, 27))  # 26 members, member n banked n × 100 in their only game
    await write(
        db,
        *(
            synthetic(f"g{a}", player(a, won=True, points=a * 100), player(a + 1, points=(a + 1) * 100))
            for a in members[::2]
        ),
    )
    first, total = await leaderboard(db, GUILD, "points", "all", now=NOW, offset=0, limit=10)
    assert total == 26
    assert [r.rank for r in first] == list(range(1, 11))
    assert [r.row.user_id for r in first] == list(range(26, 16, -1))
    middle, _ = await leaderboard(db, GUILD, "points", "all", now=NOW, offset=10, limit=10)
    assert [r.rank for r in middle] == list(range(11, 21))
    last, total = await leaderboard(db, GUILD, "points", "all", now=NOW, offset=20, limit=10)
    assert [r.rank for r in last] == list(range(21, 27)) and total == 26
    beyond, total = await leaderboard(db, GUILD, "points", "all", now=NOW, offset=30, limit=10)
    assert beyond == [] and total == 26
    mine = await rank_of(db, GUILD, 1, "points", "all", now=NOW)
    assert mine is not None and mine.rank == 26

    # Ties across a page boundary keep their shared rank on both pages, listed by name.
    wins_page, _ = await leaderboard(db, GUILD, "wins", "all", now=NOW, offset=10, limit=10)
    assert [r.rank for r in wins_page] == [1] * 3 + [14] * 7, "13 winners share first place"
    names = [r.row.name for r in (await leaderboard(db, GUILD, "wins", "all", now=NOW, limit=30))[0]]
    assert names[:13] == sorted(names[:13]) and names[13:] == sorted(names[13:])


async def test_win_rate_needs_the_minimum_games(four_players: Database) -> None:
    await write(four_players, synthetic("g5", player(EVE, won=True, points=100), player(ANA)))
    # eve: 1 of 1 (100 %) but one game; ana now 2 of 3.
    assert (await board(four_players, "win_rate", min_games=1))[:2] == [(1, "eve"), (2, "ana")]
    ranked = await board(four_players, "win_rate", min_games=2)
    assert [name for _, name in ranked] == ["ana", "ben", "cy", "dee"]
    assert await rank_of(four_players, GUILD, EVE, "win_rate", "all", now=NOW, min_games=2) is None
    # Storage applies the minimum it is given; the service picks it per board (tests/services/test_stats.py).
    assert "eve" not in [name for _, name in await board(four_players, "wins", min_games=2)]
    assert await board(four_players, "win_rate", min_games=4) == []
    assert await board(four_players, "win_rate", min_games=3) == [(1, "ana")]


async def test_thirty_day_window(db: Database) -> None:
    await write(
        db,
        synthetic(
            "old", player(ANA, won=True, points=9_000, best=9_000), player(BEN), ended_at=NOW - 40 * DAY
        ),
        synthetic("edge", player(DEE, won=True, points=100, best=100), player(BEN), ended_at=NOW - 31 * DAY),
        synthetic("new", player(CY, won=True, points=1_000, best=700), player(BEN), ended_at=NOW - 5 * DAY),
    )
    assert await board(db, "wins", "all") == [(1, "ana"), (1, "cy"), (1, "dee"), (4, "ben")]
    assert await board(db, "wins", "30d") == [(1, "cy"), (2, "ben")]
    assert await board(db, "best_turn", "all") == [(1, "ana"), (2, "cy"), (3, "dee"), (4, "ben")]
    assert await board(db, "best_turn", "30d") == [(1, "cy"), (2, "ben")]
    ben = await rank_of(db, GUILD, BEN, "wins", "30d", now=NOW)
    assert ben is not None and ben.row.games == 1, "only ben's recent game counts in the window"
    assert await rank_of(db, GUILD, ANA, "wins", "30d", now=NOW) is None
    # A month later nothing is recent; all-time is unchanged.
    assert await board(db, "wins", "30d", now=NOW + 30 * DAY) == []
    assert len(await board(db, "wins", "all", now=NOW + 30 * DAY)) == 4


async def test_a_member_s_numbers_everywhere_add_up_every_board(db: Database) -> None:
    await Sessions(db).save(finished("g1", [seat(ANA), seat(BEN)]))
    await write(db, synthetic("x1", player(ANA), player(CY, won=True), guild=OTHER_GUILD))
    here, there = await member_stats(db, GUILD, ANA), await member_stats(db, OTHER_GUILD, ANA)
    assert here is not None and there is not None

    overall = await db.read(partial(results.member_overall, user_id=ANA))

    assert overall is not None
    assert (overall.games, overall.wins, overall.points) == (2, 1, here.points + there.points)
    assert overall.best_turn == max(here.best_turn, there.best_turn)
    assert overall.rating in (here.rating, there.rating)
    assert await db.read(partial(results.member_overall, user_id=12345)) is None


# ---------------------------------------------------------------------- privacy and resets


async def test_forget_member(db: Database) -> None:
    store = Sessions(db)
    session = finished("g1", [seat(ANA), seat(BEN)])
    await store.save(session)
    await write(db, synthetic("x1", player(ANA, won=True), player(CY), guild=OTHER_GUILD))
    assert await rank_of(db, GUILD, ANA, "wins", "30d", now=NOW) is not None, "the 30-day totals are built"

    await db.write(partial(forget_member, user_id=ANA))

    assert await member_stats(db, GUILD, ANA) is None
    assert await member_stats(db, OTHER_GUILD, ANA) is None, "forgotten in every server"
    assert await member_stats(db, GUILD, BEN) is not None
    for period in ("all", "30d"):
        assert await board(db, "wins", period) == [(1, "ben")]
        assert await rank_of(db, GUILD, ANA, "wins", period, now=NOW) is None
    names = await fetch(db, "SELECT DISTINCT name FROM game_players WHERE user_id = :user", user=ANA)
    assert [row[0] for row in names] == [FORGOTTEN]
    history = await recent_games(db, GUILD)
    assert history[0].players == ((FORGOTTEN, 10_000, True), ("ben", 0, False))

    archived = await archived_game(db, GUILD, "g1")
    assert archived is not None
    assert [(user, name) for user, name, _ in archived.seats] == [(ANA, FORGOTTEN), (BEN, "ben")]
    game = replay(
        archived.rules_json,
        archived.dice_start_json,
        archived.actions_json,
        [(user, team) for user, _, team in archived.seats],
    )
    assert session.game is not None
    assert game.result == session.game.result
    assert game.events == session.game.events


async def test_reset_leaderboard(db: Database) -> None:
    await write(
        db,
        synthetic("g1", player(ANA, won=True, points=5_000), player(BEN), ended_at=NOW - 2 * DAY),
        synthetic("x1", player(CY, won=True), player(DEE), guild=OTHER_GUILD, ended_at=NOW - 2 * DAY),
    )
    await db.write(partial(reset_leaderboard, guild_id=GUILD, now=NOW - DAY))

    for metric in METRICS:
        for period in ("all", "30d"):
            assert await board(db, metric, period) == [], (metric, period)
    assert await member_stats(db, GUILD, ANA) is None
    assert await board(db, "wins", guild=OTHER_GUILD) == [(1, "cy"), (2, "dee")], "other servers keep theirs"
    assert [g.game_id for g in await recent_games(db, GUILD)] == ["g1"], "history stays"

    await write(db, synthetic("g2", player(BEN, won=True, points=300), player(ANA, points=200)))
    assert await board(db, "wins", "30d") == [(1, "ben"), (2, "ana")]
    periods: tuple[Period, ...] = ("all", "30d")
    for period in periods:
        rows, total = await leaderboard(db, GUILD, "points", period, now=NOW)
        assert total == 2
        assert [(r.row.name, r.row.games, r.row.points) for r in rows] == [("ben", 1, 300), ("ana", 1, 200)]


async def test_a_reset_hides_a_game_that_ended_at_the_same_instant(db: Database) -> None:
    """The reset deletes the totals that game was already in; the 30-day view must not bring it back."""
    await write(db, synthetic("g1", player(ANA, won=True), player(BEN), ended_at=NOW))
    await db.write(partial(reset_leaderboard, guild_id=GUILD, now=NOW))
    assert await board(db, "wins", "30d") == []


async def test_week_month_and_season_boards_count_the_games_of_their_calendar_window(db: Database) -> None:
    """A window holds the games that ended at its start or later and before its end; ratings stay current."""
    window = Window(NOW, NOW + 7 * DAY)
    await write(
        db,
        synthetic("before", player(ANA, won=True), player(BEN), ended_at=NOW - 1),
        synthetic("first", player(BEN, won=True), player(CY), ended_at=NOW),
        synthetic("last", player(CY, won=True), player(BEN), ended_at=NOW + 7 * DAY - 1),
        synthetic("after", player(DEE, won=True), player(BEN), ended_at=NOW + 7 * DAY),
    )
    for period in ("week", "month", "season"):
        rows, total = await db.read(
            partial(results.leaderboard, guild_id=GUILD, metric="wins", period=period, window=window)
        )
        assert [(r.rank, r.row.name, r.row.games, r.row.wins) for r in rows] == [
            (1, "ben", 2, 1),
            (1, "cy", 2, 1),
        ]
        assert total == 2
        ben = await member_stats(db, GUILD, BEN)
        assert ben is not None and rows[0].row.rating == ben.rating, "the member's current rating"
        mine = await db.read(
            partial(results.rank_of, guild_id=GUILD, user_id=ANA, metric="wins", period=period, window=window)
        )
        assert mine is None
    with pytest.raises(ValueError, match="calendar window"):
        await db.read(partial(results.leaderboard, guild_id=GUILD, metric="wins", period="week"))
