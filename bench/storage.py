"""Storage benchmark: the per-action commit, and leaderboard pages on a big server.

1. Commit: `SqliteSessionStore.save` of a realistic mid-game session (4 players, ~60 moves in, the
   engine and dice state inside), one process, one connection, back to back: sustained actions/s and
   the p50/p99 latency every accepted press adds before the reply. Also the game-ending save, which
   archives the record and updates statistics in the same transaction.
2. Leaderboard: 10,000 members and 100,000 games in one server (2 to 4 players each, ended over the
   last 90 days, record sizes as the bot writes them), generated with executemany; every metric, both
   periods, page 1 and a deep page, plus `rank_of`. Each figure is the median of a few runs.

Targets: < 5 ms p99 per commit, < 50 ms per leaderboard page.

Run: .venv/bin/python bench/storage.py [--games N] [--members N] [--commits N] [--keep PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import Game, IllegalAction, Ruleset, SeededDice
from bot.ratings import DEFAULT_MU, DEFAULT_SIGMA, conservative, rate_game
from bot.records import METRICS
from bot.sessions.archive import record_of
from bot.sessions.session import Seat, Session
from bot.storage import connect, migrate
from bot.storage.results import leaderboard, rank_of
from bot.storage.sessions import SqliteSessionStore

GUILD = 424242
NOW = 1_750_000_000.0
DAY = 24 * 3600
TARGET_COMMIT_P99_MS = 5.0
TARGET_PAGE_MS = 50.0


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
        game_id="benchgame01",
        guild_id=GUILD,
        channel_id=777,
        host_id=seats[0].user_id,
        rules=rules,
        seats=seats,
        stage="playing",
        game=game,
        version=len(game.history) * 2,
        board_message_id=1234567890123456789,
        ping_message_id=1234567890123456790,
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
        actions = game.legal_actions()
        try:
            game.apply(rng.choice(actions))
        except IllegalAction:
            continue
    session.stage, session.ended_at = "over", NOW


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def bench_commits(path: Path, commits: int) -> list[tuple[str, str, str]]:
    db = await connect(path)
    await migrate(db)
    store = SqliteSessionStore(db, rate_game)
    session = mid_game()
    state_bytes = len(session.dump().encode())
    for _ in range(50):  # warm up: the row exists, pages are cached
        session.version += 1
        await store.save(session.row(session.dump()))
    latencies = []
    started = time.perf_counter()
    for n in range(commits):
        session.version += 1
        session.selection = (n % 6,)
        before = time.perf_counter()
        await store.save(session.row(session.dump()))
        latencies.append((time.perf_counter() - before) * 1000)
    elapsed = time.perf_counter() - started

    endings = []
    rng = random.Random(3)
    for n in range(30):
        ending = mid_game(seed=100 + n)
        ending.game_id, ending.channel_id = f"end{n:05d}", 900 + n
        finish(ending, rng)
        before = time.perf_counter()
        await store.save(ending.row(ending.dump()), record_of(ending))
        endings.append((time.perf_counter() - before) * 1000)
    await db.close()

    p99 = percentile(latencies, 0.99)
    verdict = "ok" if p99 < TARGET_COMMIT_P99_MS else "MISSED"
    return [
        ("session JSON per commit", f"{state_bytes / 1024:.1f} KiB", ""),
        ("sustained commits", f"{commits / elapsed:,.0f} actions/s", f"{commits} saves, one connection"),
        ("commit latency p50", f"{statistics.median(latencies):.2f} ms", ""),
        ("commit latency p99", f"{p99:.2f} ms", f"target < {TARGET_COMMIT_P99_MS:g} ms: {verdict}"),
        ("commit latency max", f"{max(latencies):.2f} ms", ""),
        (
            "game-ending save p50 / max",
            f"{statistics.median(endings):.2f} / {max(endings):.2f} ms",
            "record + stats + row, one transaction",
        ),
    ]


# ---------------------------------------------------------------------- a big server


def generate(path: Path, members: int, games: int, seed: int = 1) -> float:
    """Games, players and per-member totals straight into SQLite; returns the seconds it took."""
    started = time.perf_counter()
    rng = random.Random(seed)
    rules_json = Ruleset.preset("classic").model_dump_json()
    sample = mid_game(seed=5)
    assert sample.game is not None and sample.dice_start is not None
    dice_json = json.dumps(sample.dice_start)  # a seeded generator's full state, as the bot stores it
    actions_json = json.dumps([a.to_dict() for a in sample.game.history] * 2)  # ~120 moves
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=OFF")
    con.execute("BEGIN")
    game_rows: list[tuple[Any, ...]] = []
    player_rows: list[tuple[Any, ...]] = []
    for number in range(games):
        game_id = f"{number:010x}"
        ended = NOW - rng.random() * 90 * DAY
        seated = rng.sample(range(members), rng.choice((2, 2, 3, 4)))
        computer = rng.random() < 0.1
        counted = len(seated) >= 2
        game_rows.append(
            (
                game_id,
                GUILD,
                777 + number % 20,
                rules_json,
                dice_json,
                actions_json,
                ended - 900,
                ended,
                "target",
                int(counted),
            )
        )
        banks = sorted((rng.randrange(0, 10_000, 50) for _ in seated), reverse=True)
        banks[0] = 10_000 + rng.randrange(0, 3_000, 50)
        for seat, (member, bank) in enumerate(zip(seated, banks, strict=True)):
            turns = rng.randint(8, 20)
            player_rows.append(
                (
                    game_id,
                    seat,
                    1_000_000 + member,
                    f"member {member}",
                    None,
                    None,
                    seat + 1,
                    int(seat == 0),
                    bank,
                    turns,
                    bank,
                    min(bank, rng.randrange(300, 4_000, 50)),
                    rng.randint(0, 6),
                    rng.randint(0, 2),
                )
            )
        if computer:
            player_rows.append(
                (
                    game_id,
                    len(seated),
                    -1,
                    "Computer 1 (hard)",
                    "hard",
                    None,
                    len(seated) + 1,
                    0,
                    0,
                    10,
                    0,
                    0,
                    5,
                    0,
                )
            )
        if len(game_rows) >= 5_000:
            _flush(con, game_rows, player_rows)
    _flush(con, game_rows, player_rows)
    # Per-member totals, as write_record would have left them (ratings spread around the default).
    con.execute(
        "INSERT INTO player_stats (guild_id, user_id, name, games, wins, points, turns, best_turn, best_game,"
        " farkles, hot_dice, mu, sigma, rating, last_played)"
        " SELECT ?, gp.user_id, MAX(gp.name), COUNT(*), SUM(gp.won), SUM(gp.points), SUM(gp.turns),"
        " MAX(gp.best_turn), MAX(gp.final_bank), SUM(gp.farkles), SUM(gp.hot_dice), 0, 0, 0, MAX(g.ended_at)"
        " FROM game_players gp JOIN games g ON g.game_id = gp.game_id"
        " WHERE gp.computer IS NULL GROUP BY gp.user_id",
        (GUILD,),
    )
    ratings = [
        (mu, sigma, conservative(mu, sigma), user)
        for user, mu, sigma in (
            (row[0], DEFAULT_MU + rng.gauss(0, 4), DEFAULT_SIGMA * rng.uniform(0.2, 0.6))
            for row in con.execute("SELECT user_id FROM player_stats").fetchall()
        )
    ]
    con.executemany("UPDATE player_stats SET mu = ?, sigma = ?, rating = ? WHERE user_id = ?", ratings)
    con.execute("COMMIT")
    con.execute("ANALYZE")
    con.close()
    return time.perf_counter() - started


def _flush(con: sqlite3.Connection, games: list[tuple[Any, ...]], players: list[tuple[Any, ...]]) -> None:
    con.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", games)
    con.executemany(
        "INSERT INTO game_players (game_id, seat, user_id, name, computer, team, placement, won, final_bank,"
        " turns, points, best_turn, farkles, hot_dice) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        players,
    )
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


async def bench_leaderboards(path: Path, repeats: int) -> list[tuple[str, str, str, str, str]]:
    db = await connect(path)
    await migrate(db)
    rows = await db.execute_fetchall(
        "SELECT user_id FROM player_stats WHERE guild_id = ? ORDER BY rating DESC LIMIT 1 OFFSET 5000",
        (GUILD,),
    )
    member = int(next(iter(rows))[0])
    await db.execute("DELETE FROM recent_windows")  # the first 30-day request of an hour rebuilds the totals
    started = time.perf_counter()
    await leaderboard(db, GUILD, "rating", "30d", now=NOW, min_games=5)
    print(f"30-day totals rebuilt (once an hour per server): {(time.perf_counter() - started) * 1000:.0f} ms")
    table = []
    for metric in METRICS:
        for period in ("all", "30d"):
            figures = []
            _, total = await leaderboard(db, GUILD, metric, period, now=NOW, min_games=5)
            deep = max(0, (total // 10 - 1) * 10) // 2
            for offset in (0, deep):
                figures.append(
                    await timed(
                        lambda o=offset, m=metric, p=period: leaderboard(  # type: ignore[misc]
                            db, GUILD, m, p, now=NOW, offset=o, limit=10, min_games=5
                        ),
                        repeats,
                    )
                )
            figures.append(
                await timed(
                    lambda m=metric, p=period: rank_of(  # type: ignore[misc]
                        db, GUILD, member, m, p, now=NOW, min_games=5
                    ),
                    repeats,
                )
            )
            worst = max(figures[0], figures[1]) + figures[2]
            verdict = "ok" if worst < TARGET_PAGE_MS else "MISSED"
            table.append(
                (
                    f"{metric} · {period}",
                    f"{figures[0]:.1f}",
                    f"{figures[1]:.1f} (p{deep // 10 + 1})",
                    f"{figures[2]:.1f}",
                    f"{worst:.1f} {verdict}",
                )
            )
    await db.close()
    return table


def print_table(headers: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> None:
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]
    line = "  ".join("-" * w for w in widths)
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)))
    print(line)
    for row in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)))
    print()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=2_000)
    parser.add_argument("--members", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="reuse (or create) the big database at this path")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        print(f"SQLite {sqlite3.sqlite_version}, WAL, synchronous=NORMAL (as bot.storage.connect)\n")
        print_table(
            ("per-action commit", "value", "note"), await bench_commits(Path(folder) / "c.db", args.commits)
        )

        big = args.keep or Path(folder) / "big.db"
        if not big.exists():
            db = await connect(big)
            await migrate(db)
            await db.close()
            seconds = generate(big, args.members, args.games)
            print(
                f"generated {args.members:,} members, {args.games:,} games in {seconds:.1f} s "
                f"({big.stat().st_size / 2**20:,.0f} MiB)\n"
            )
        else:
            db = await connect(big)
            print(f"reusing {big}; applied migrations {await migrate(db)}\n")
            await db.close()
        print_table(
            ("leaderboard (ms, median)", "page 1", "deep page", "rank_of", "page + rank_of"),
            await bench_leaderboards(big, args.repeats),
        )
        print(
            f"targets: commit p99 < {TARGET_COMMIT_P99_MS:g} ms; page + caller's rank < {TARGET_PAGE_MS:g} ms"
        )


if __name__ == "__main__":
    asyncio.run(main())
