"""What the start-up integrity check costs: `PRAGMA quick_check` on a SQLite database of about 100 MB.

`open_database` runs SQLite's quick check before migrating, so a damaged file is refused at start with one
line instead of failing a game in the middle of a move. This fills a scratch database with archived games
(the leaderboard bench's generator: records, players, totals) to about the size asked for, then
times the check (median of a few runs, the file in the OS's page cache as after the bot's last run), the
full `PRAGMA integrity_check` for comparison, and the whole `open_database` (check, migrations, probe).

Run: .venv/bin/python bench/quick_check.py [--megabytes 100]
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from storage import generate  # bench/storage.py: the same archived games the leaderboard bench reads

from bot.core.database_url import DatabaseUrl
from bot.storage import open_database

BYTES_PER_GAME = 8_850  # measured: 20,000 games made 177 MB
REPEATS = 3


def seconds(run: Callable[[], object], repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def pragma(path: Path, check: str) -> None:
    with sqlite3.connect(path) as db:
        (first,) = db.execute(f"PRAGMA {check}").fetchone()
        assert first == "ok", first
    db.close()


async def open_and_close(where: DatabaseUrl) -> None:
    db, _ = await open_database(where)
    await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "farkle.sqlite3"
        where = DatabaseUrl.of_path(path)
        asyncio.run(open_and_close(where))
        games = args.megabytes * 1_000_000 // BYTES_PER_GAME
        generate(where, members=10_000, games=games)
        size = path.stat().st_size / 1_000_000
        quick = seconds(lambda: pragma(path, "quick_check"))
        full = seconds(lambda: pragma(path, "integrity_check"))
        opened = seconds(lambda: asyncio.run(open_and_close(where)))
    print(f"database: {size:.0f} MB ({games:,} archived games), SQLite {sqlite3.sqlite_version}")
    print(f"PRAGMA quick_check (run at every start): {quick * 1000:.0f} ms")
    print(f"PRAGMA integrity_check (for comparison): {full * 1000:.0f} ms")
    print(f"open_database (check, migrations, write probe): {opened * 1000:.0f} ms")


if __name__ == "__main__":
    main()
