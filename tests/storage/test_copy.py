"""`copy-db`: a SQLite database with history moves into an empty PostgreSQL one, and reads the same there."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.core.database_url import DatabaseUrl
from bot.core.environment import GameSettings
from bot.core.records import METRICS, Period
from bot.core.server_settings import SETTINGS
from bot.services.server_settings import ConfigService, Editor
from bot.storage import Database, open_database
from bot.storage.copy import CopyRefused, copy_database
from bot.storage.server_settings import SqlConfigStore
from bot.storage.win_tables import SqlWinTableStore
from tests.fakes import FakeClock
from tests.storage.test_results import (
    ANA,
    BEN,
    CY,
    DAY,
    DEE,
    GUILD,
    NOW,
    Sessions,
    finished,
    leaderboard,
    player,
    rank_of,
    seat,
    synthetic,
    write,
)

PERIODS: tuple[Period, ...] = ("all", "30d")


async def with_history(path: Path) -> Database:
    """Every kind of row a bot that ran for a while has: games, ties, sessions, config, its log, caches."""
    db, _ = await open_database(DatabaseUrl.of_path(path))
    await Sessions(db).save(finished("g0", [seat(ANA), seat(BEN)]))
    await write(
        db,
        synthetic("g1", player(ANA, won=True, points=3_000), player(CY, points=3_000)),
        synthetic(
            "g2", player(BEN, won=True, points=2_000), player(DEE, points=500), ended_at=NOW - 40 * DAY
        ),
        synthetic("g3", player(CY, won=True, points=2_000), player(DEE, points=2_000)),
    )
    config = ConfigService(SqlConfigStore(db, SETTINGS), GameSettings(_env_file=None), FakeClock(NOW))
    await config.set_option(GUILD, Editor(ANA, "ana"), "target", "5000")
    await config.save_named(GUILD, Editor(ANA, "ana"), "quick")
    await SqlWinTableStore(db).save("classic", bytes(range(256)) * 4)
    return db


async def standings(db: Database) -> list[object]:
    boards = []
    for metric in METRICS:
        for period in PERIODS:
            boards.append(await leaderboard(db, GUILD, metric, period, now=NOW, limit=50))
            boards.append(await rank_of(db, GUILD, DEE, metric, period, now=NOW))
    return boards


@pytest.fixture
async def ends(tmp_path: Path, blank_postgres_url: DatabaseUrl) -> AsyncIterator[tuple[Database, Database]]:
    """A SQLite database with history, and an empty PostgreSQL one migrated to the same schema."""
    source = await with_history(tmp_path / "farkle.sqlite3")
    target, _ = await open_database(blank_postgres_url)
    yield source, target
    await source.close()
    await target.close()


async def test_a_copy_reads_the_same_leaderboards_on_postgresql(ends: tuple[Database, Database]) -> None:
    source, target = ends
    copied = await copy_database(source, target, lambda entry: None)
    counted = {entry.table: entry.rows for entry in copied}
    assert counted["games"] == 4 and counted["game_players"] == 8 and counted["sessions"] == 1
    assert counted["config_audit"] == 2 and counted["win_tables"] == 1 and counted["rulesets"] == 1
    assert await standings(target) == await standings(source)
    blob = text("SELECT tables FROM win_tables")
    assert await target.read(lambda c: c.execute(blob).scalar()) == bytes(range(256)) * 4
    # The change log numbers on after the copied entries.
    service = ConfigService(SqlConfigStore(target, SETTINGS), GameSettings(_env_file=None), FakeClock(NOW))
    await service.set_option(GUILD, Editor(BEN, "ben"), "target", "6000")
    assert [entry.new for entry in await service.history(GUILD)][:2] == ["6000", "quick"]


async def test_a_target_that_holds_anything_is_refused_and_left_alone(
    ends: tuple[Database, Database],
) -> None:
    source, target = ends
    await SqlWinTableStore(target).save("box", b"already here")
    with pytest.raises(CopyRefused, match="not empty"):
        await copy_database(source, target, lambda entry: None)
    games = text("SELECT COUNT(*) FROM games")
    assert await target.read(lambda c: c.execute(games).scalar()) == 0


async def test_the_command_copies_then_refuses_a_second_copy(
    tmp_path: Path, blank_postgres_url: DatabaseUrl
) -> None:
    path = tmp_path / "farkle.sqlite3"
    await (await with_history(path)).close()
    assert blank_postgres_url.server_url is not None
    command = [sys.executable, "-m", "bot", "copy-db", "--to", blank_postgres_url.server_url]
    env = {**os.environ, "DATABASE_PATH": str(path)}

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120)

    first = await asyncio.to_thread(run)
    assert first.returncode == 0, first.stderr
    assert "games: 4 rows" in first.stdout and "counts match" in first.stdout

    second = await asyncio.to_thread(run)
    assert second.returncode == 2
    (line,) = second.stderr.strip().splitlines()
    assert line.startswith("farkle-bot: the target database is not empty (") and "games" in line
    assert line.endswith("use an empty one")
