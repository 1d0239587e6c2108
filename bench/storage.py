"""Storage benchmark: the per-action commit, and leaderboard pages on a big server, per backend.

1. Commit: `SqlSessionStore.save` of a realistic mid-game session (4 players, ~60 moves in, the engine
   and dice state inside), back to back, as the bot's unit of work writes it: sustained actions/s and the
   p50/p99 latency every accepted press adds before the reply. Also the game-ending save, which archives
   the record and updates statistics in the same transaction.
2. Leaderboard: 10,000 members and 100,000 games in one server (2 to 4 players each, ended over the
   last 90 days, record sizes as the bot writes them); every metric, both periods, page 1 and a deep
   page, each with the caller's rank, read through `StatsService` exactly as `/farkle leaderboard` does.
   Each figure is the median of a few runs.

Every figure is printed once per backend, side by side. SQLite is a temporary file; a PostgreSQL URL names
a server on which the bench creates (and afterwards drops) its own scratch database.

Targets: < 5 ms p99 per commit, < 50 ms per leaderboard page with the caller's rank.

Run: .venv/bin/python bench/storage.py [--database-url postgresql://postgres@127.0.0.1:5432/test]
                                       [--games N] [--members N] [--commits N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from percentile import percentile

from bot.core.database_url import DatabaseUrl
from bot.core.records import METRICS, Period
from bot.engine import Game, IllegalAction, Ruleset, SeededDice
from bot.services.ratings import DEFAULT_MU, DEFAULT_SIGMA, friendly, rate_game
from bot.services.stats import StatsService
from bot.sessions.archive import record_of
from bot.sessions.policies import PolicyCache
from bot.sessions.review import GameReviews
from bot.sessions.session import Seat, Session
from bot.sessions.win_tables import no_tables
from bot.storage import Database, open_database
from bot.storage.database import sqlalchemy_url
from bot.storage.reviews import SqlReviewStore
from bot.storage.sessions import SqlSessionStore
from tests.fakes import FakeClock

GUILD = 424242
NOW = 1_750_000_000.0
DAY = 24 * 3600
MIN_GAMES = 5
TARGET_COMMIT_P99_MS = 5.0
TARGET_PAGE_MS = 50.0
PERIODS: tuple[Period, ...] = ("all", "30d")
Figures = dict[str, str]


# ---------------------------------------------------------------------- a realistic session


def mid_game(seed: int = 7, moves: int = 60, players: int = 4) -> Session:
    """A classic game `moves` actions in, played with random legal moves, never finished."""
    rng = random.Random(seed)
    while True:
        rules = Ruleset.preset("classic")
        dice = SeededDice(rng.getrandbits(63))
        dice_start = dice.state()
        seats = [Seat(10_000 + n, f"player {n}") for n in range(players)]
        game = Game.new(rules, [s.player_id for s in seats], dice)
        for _ in range(moves):
            actions = game.legal_actions()
            if not actions or game.result is not None:
                break
            try:
                game.apply(rng.choice(actions))
            except IllegalAction:
                continue
        if game.result is None and len(game.history) >= moves:
            break
    session = Session(
        game_id=f"bench{seed:06d}",
        guild_id=GUILD,
        channel_id=777 + seed,
        host_id=seats[0].user_id,
        rules=rules,
        seats=seats,
        stage="playing",
        game=game,
        version=len(game.history) * 2,
        deadline=NOW + 120,
        dice_start=dice_start,
        started_at=NOW - 900,
    )
    session.remember(list(game.events))
    return session


def finish(session: Session, rng: random.Random) -> None:
    """Play on with random legal moves until the game ends (for the game-ending save)."""
    game = session.game
    assert game is not None
    while game.result is None:
        try:
            game.apply(rng.choice(game.legal_actions()))
        except IllegalAction:
            continue
    session.stage, session.ended_at = "over", NOW


async def bench_commits(db: Database, commits: int) -> Figures:
    store = SqlSessionStore(db, rate_game)
    session = mid_game()
    state_bytes = len(session.dump().encode())

    async def save() -> None:
        session.version += 1
        session.revision = await store.save(session.row(session.dump()))

    for _ in range(50):  # warm up: the row exists, pages are cached
        await save()
    latencies = []
    started = time.perf_counter()
    for n in range(commits):
        session.selection = (n % 6,)
        before = time.perf_counter()
        await save()
        latencies.append((time.perf_counter() - before) * 1000)
    elapsed = time.perf_counter() - started

    endings = []
    rng = random.Random(3)
    for n in range(30):
        ending = mid_game(seed=100 + n)
        finish(ending, rng)
        before = time.perf_counter()
        await store.save(ending.row(ending.dump()), record_of(ending))
        endings.append((time.perf_counter() - before) * 1000)
    p99 = percentile(latencies, 0.99)
    return {
        "session JSON per commit": f"{state_bytes / 1024:.1f} KiB",
        "sustained commits (actions/s)": f"{commits / elapsed:,.0f}",
        "commit p50 (ms)": f"{statistics.median(latencies):.2f}",
        f"commit p99 (ms; target < {TARGET_COMMIT_P99_MS:g})": f"{p99:.2f}"
        + ("" if p99 < TARGET_COMMIT_P99_MS else " MISSED"),
        "commit max (ms)": f"{max(latencies):.2f}",
        "game-ending save p50 / max (ms)": f"{statistics.median(endings):.1f} / {max(endings):.1f}",
    }


# ---------------------------------------------------------------------- a big server


def generate(where: DatabaseUrl, members: int, games: int, seed: int = 1) -> float:
    """Games, players and per-member totals, in batches; returns the seconds it took."""
    started = time.perf_counter()
    rng = random.Random(seed)
    rules_json = Ruleset.preset("classic").model_dump_json()
    sample = mid_game(seed=5)
    assert sample.game is not None and sample.dice_start is not None
    dice_json = json.dumps(sample.dice_start)  # a seeded generator's full state, as the bot stores it
    actions_json = json.dumps([a.to_dict() for a in sample.game.history] * 2)  # ~120 moves
    engine = sa.create_engine(sqlalchemy_url(where))
    with engine.begin() as connection:
        game_rows: list[dict[str, Any]] = []
        player_rows: list[dict[str, Any]] = []
        for number in range(games):
            game_id = f"{number:010x}"
            ended = NOW - rng.random() * 90 * DAY
            seated = rng.sample(range(members), rng.choice((2, 2, 3, 4)))
            game_rows.append(
                {"id": game_id, "guild": GUILD, "channel": 777 + number % 20, "rules": rules_json}
                | {"dice": dice_json, "actions": actions_json, "started": ended - 900, "ended": ended}
            )
            banks = sorted((rng.randrange(0, 10_000, 50) for _ in seated), reverse=True)
            banks[0] = 10_000 + rng.randrange(0, 3_000, 50)
            for seat, (member, bank) in enumerate(zip(seated, banks, strict=True)):
                player_rows.append(
                    {"game": game_id, "seat": seat, "user": 1_000_000 + member, "name": f"member {member}"}
                    | {"computer": None, "placement": seat + 1, "won": int(seat == 0), "bank": bank}
                    | {"turns": rng.randint(8, 20), "best": min(bank, rng.randrange(300, 4_000, 50))}
                    | {"farkles": rng.randint(0, 6), "hot": rng.randint(0, 2)}
                )
            if rng.random() < 0.1:
                player_rows.append(
                    {"game": game_id, "seat": len(seated), "user": -1, "name": "Computer 1 (hard)"}
                    | {"computer": "hard", "placement": len(seated) + 1, "won": 0, "bank": 0, "turns": 10}
                    | {"best": 0, "farkles": 5, "hot": 0}
                )
            if len(game_rows) >= 5_000:
                _flush(connection, game_rows, player_rows)
        _flush(connection, game_rows, player_rows)
        # Per-member totals, as write_record would have left them (ratings spread around the default).
        connection.execute(
            sa.text(
                "INSERT INTO player_stats (guild_id, user_id, name, games, wins, points, turns, best_turn,"
                " best_game, farkles, hot_dice, mu, sigma, rating, last_played)"
                " SELECT :guild, gp.user_id, MAX(gp.name), COUNT(*), SUM(gp.won), SUM(gp.points),"
                " SUM(gp.turns), MAX(gp.best_turn), MAX(gp.final_bank), SUM(gp.farkles), SUM(gp.hot_dice),"
                " 0, 0, 0, MAX(g.ended_at) FROM game_players gp JOIN games g ON g.game_id = gp.game_id"
                " WHERE gp.computer IS NULL GROUP BY gp.user_id"
            ),
            {"guild": GUILD},
        )
        users = connection.execute(sa.text("SELECT user_id FROM player_stats")).scalars().all()
        ratings = []
        for user in users:
            mu, sigma = DEFAULT_MU + rng.gauss(0, 4), DEFAULT_SIGMA * rng.uniform(0.2, 0.6)
            ratings.append({"mu": mu, "sigma": sigma, "rating": friendly(mu, sigma), "user": user})
        connection.execute(
            sa.text(
                "UPDATE player_stats SET mu = :mu, sigma = :sigma, rating = :rating WHERE user_id = :user"
            ),
            ratings,
        )
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.exec_driver_sql("ANALYZE")
    engine.dispose()
    return time.perf_counter() - started


_GAME = sa.text(
    "INSERT INTO games (game_id, guild_id, channel_id, rules, dice_start, actions, started_at, ended_at,"
    " end_reason, counted) VALUES (:id, :guild, :channel, :rules, :dice, :actions, :started, :ended,"
    " 'target', 1)"
)
_PLAYER = sa.text(
    "INSERT INTO game_players (game_id, seat, user_id, name, computer, placement, won, final_bank, turns,"
    " points, best_turn, farkles, hot_dice) VALUES (:game, :seat, :user, :name, :computer, :placement,"
    " :won, :bank, :turns, :bank, :best, :farkles, :hot)"
)


def _flush(connection: sa.Connection, games: list[dict[str, Any]], players: list[dict[str, Any]]) -> None:
    if games:
        connection.execute(_GAME, games)
        connection.execute(_PLAYER, players)
    games.clear()
    players.clear()


async def timed(run: Callable[[], Awaitable[object]], repeats: int) -> float:
    """Median milliseconds of a few runs (after one warm-up run)."""
    await run()
    samples = []
    for _ in range(repeats):
        before = time.perf_counter()
        await run()
        samples.append((time.perf_counter() - before) * 1000)
    return statistics.median(samples)


async def bench_leaderboards(db: Database, repeats: int) -> Figures:
    reviews = GameReviews(SqlReviewStore(db), lambda event: None, PolicyCache(), no_tables)
    stats = StatsService(db, FakeClock(NOW), MIN_GAMES, reviews)
    query = sa.text(  # a member from the middle of the board
        "SELECT user_id FROM player_stats ORDER BY rating DESC"
        " LIMIT 1 OFFSET (SELECT COUNT(*) / 2 FROM player_stats)"
    )
    member = int(await db.read(lambda c: c.execute(query).scalar_one()))
    await db.write(lambda c: c.execute(sa.text("DELETE FROM recent_windows")))
    started = time.perf_counter()
    await stats.leaderboard(GUILD, member, "rating", "30d", 0)  # the first 30-day request of an hour
    figures = {"30-day totals rebuild (ms, once an hour)": f"{(time.perf_counter() - started) * 1000:.0f}"}
    worst = 0.0
    for metric in METRICS:
        for period in PERIODS:
            first = await stats.leaderboard(GUILD, member, metric, period, 0)
            deep = max(0, first.total // 10 - 1) // 2
            pages = [
                await timed(
                    lambda m=metric, p=period, n=page: stats.leaderboard(GUILD, member, m, p, n), repeats
                )
                for page in (0, deep)
            ]
            worst = max(worst, *pages)
            figures[f"page + rank, {metric} · {period} (ms: page 1 / deep)"] = (
                f"{pages[0]:.1f} / {pages[1]:.1f}"
            )
    figures[f"slowest page + rank (ms; target < {TARGET_PAGE_MS:g})"] = f"{worst:.1f}" + (
        "" if worst < TARGET_PAGE_MS else " MISSED"
    )
    return figures


# ---------------------------------------------------------------------- backends


@asynccontextmanager
async def scratch(url: str | None, folder: Path, name: str) -> AsyncIterator[DatabaseUrl]:
    """A temporary SQLite file, or a scratch database on the PostgreSQL server `url` names."""
    if url is None:
        yield DatabaseUrl.of_path(folder / f"{name}.sqlite3")
        return
    server = sqlalchemy_url(DatabaseUrl.parse(url))
    scratch_name = f"farkle_bench_{name}_{os.getpid()}"
    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{scratch_name}"')
    try:
        yield DatabaseUrl.parse(server.set(database=scratch_name).render_as_string(hide_password=False))
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{scratch_name}" WITH (FORCE)')
        admin.dispose()


async def measure(url: str | None, folder: Path, args: argparse.Namespace) -> Figures:
    async with scratch(url, folder, "commits") as where:
        db, _ = await open_database(where)
        figures = await bench_commits(db, args.commits)
        await db.close()
    async with scratch(url, folder, "big") as where:
        db, _ = await open_database(where)
        seconds = await asyncio.to_thread(generate, where, args.members, args.games)
        figures[f"generate {args.members:,} members, {args.games:,} games (s)"] = f"{seconds:.0f}"
        figures.update(await bench_leaderboards(db, args.repeats))
        await db.close()
    return figures


def backend_name(url: str | None) -> str:
    if url is None:
        return f"SQLite {sa.__version__ and __import__('sqlite3').sqlite_version}"
    with sa.create_engine(sqlalchemy_url(DatabaseUrl.parse(url)), poolclass=sa.NullPool).connect() as c:
        return "PostgreSQL " + str(c.exec_driver_sql("SHOW server_version").scalar()).split()[0]


def print_table(names: Sequence[str], columns: Sequence[Figures]) -> None:
    rows: Iterator[str] = iter(dict.fromkeys(key for column in columns for key in column))
    table = [("figure", *names), *((row, *(column.get(row, "") for column in columns)) for row in rows)]
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    for number, line in enumerate(table):
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)))
        if number == 0:
            print("  ".join("-" * width for width in widths))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", action="append", default=[], help="a PostgreSQL server to add")
    parser.add_argument("--commits", type=int, default=2_000)
    parser.add_argument("--members", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    urls: list[str | None] = [None, *args.database_url]
    with tempfile.TemporaryDirectory() as folder:
        columns = [await measure(url, Path(folder), args) for url in urls]
    print_table([backend_name(url) for url in urls], columns)


if __name__ == "__main__":
    asyncio.run(main())
