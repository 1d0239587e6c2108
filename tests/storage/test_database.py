"""Writes that arrive together share commits, yet each caller hears about its own unit of work only; and
another process holding what a write needs makes the write give up within a second, changing nothing, so
the player still hears back inside Discord's 3-second window."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest
import sqlalchemy as sa
from sqlalchemy import Connection, event, text

from bot.core.records import SessionConflict
from bot.services.ratings import rate_game
from bot.sessions.session import Session
from bot.storage import Database, DatabaseBusy
from bot.storage.database import _Job, sqlalchemy_url
from bot.storage.sessions import SqlSessionStore
from tests.storage.test_results import ANA, BEN, Sessions, finished, seat

GAMES = 40


def sessions(count: int) -> list[Session]:
    return [finished(f"g{n:02d}", [seat(ANA), seat(BEN)], channel=100 + n) for n in range(count)]


async def test_a_burst_of_writes_shares_a_few_commits(database: Database) -> None:
    commits: list[int] = []
    engine = database._writer.engine
    event.listen(engine, "commit", lambda connection: commits.append(1))
    store = SqlSessionStore(database, rate_game)
    games = sessions(GAMES)
    for game in games:
        game.stage = "playing"  # a burst of moves, not of endings
    revisions = await asyncio.gather(*(store.save(game.row(game.dump())) for game in games))
    assert revisions == [1] * GAMES
    assert len(commits) < GAMES / 4, f"{len(commits)} commits for {GAMES} writes"
    count = text("SELECT COUNT(*) FROM sessions")
    assert await database.read(lambda c: c.execute(count).scalar()) == GAMES


async def test_one_failing_write_in_a_batch_leaves_the_others_committed(database: Database) -> None:
    store = SqlSessionStore(database, rate_game)
    games = sessions(10)
    for game in games:
        game.revision = await store.save(game.row(game.dump()))
    games[3].revision = 0  # this writer's copy is stale: another process moved the game on
    for game in games:
        game.version += 1
    outcomes = await asyncio.gather(
        *(store.save(game.row(game.dump())) for game in games), return_exceptions=True
    )
    assert isinstance(outcomes[3], SessionConflict)
    assert [outcome for n, outcome in enumerate(outcomes) if n != 3] == [2] * 9
    versions = text("SELECT channel_id, version FROM sessions ORDER BY channel_id")
    stored = dict(await database.read(lambda c: c.execute(versions).all()))
    assert stored[103] == games[3].version - 1 and all(
        stored[100 + n] == game.version for n, game in enumerate(games) if n != 3
    )


async def test_a_unit_that_raises_reports_to_its_own_caller(database: Database) -> None:
    def broken(connection: object) -> None:
        raise ValueError("this one is wrong")

    async def fine(n: int) -> int:
        return await database.write(lambda c: c.execute(text("SELECT :n"), {"n": n}).scalar_one())

    results = await asyncio.gather(
        database.write(broken), *(fine(n) for n in range(5)), return_exceptions=True
    )
    assert isinstance(results[0], ValueError) and results[1:] == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="wrong"):
        await database.write(broken)


async def test_a_commit_that_fails_is_reported_not_run_again(database: Database) -> None:
    """The commit may have landed (a connection lost mid-commit): running the units again could apply a
    move twice, so every caller hears the failure and no unit runs a second time."""
    runs: list[int] = []

    def unit(n: int) -> Callable[[Connection], int]:
        def work(connection: Connection) -> int:
            runs.append(n)
            return n

        return work

    def lost(connection: object) -> None:
        raise OSError("the connection was lost during the commit")

    event.listen(database._writer.engine, "commit", lost)
    results = await asyncio.gather(*(database.write(unit(n)) for n in range(5)), return_exceptions=True)
    event.remove(database._writer.engine, "commit", lost)
    assert sorted(runs) == [0, 1, 2, 3, 4], "each unit ran once"
    assert all(isinstance(result, Exception) for result in results)


async def test_units_too_late_for_an_answer_are_not_run_alone(database: Database) -> None:
    """A batch that fails after its callers' wait ran out: the rest are refused as busy, not run again one
    by one (every answer is already late), and nothing of theirs is committed."""
    written = text("INSERT INTO command_sync (scope, tree_hash) VALUES (:scope, 'x')")
    count = text("SELECT COUNT(*) FROM command_sync")

    def broken_after_the_wait(connection: Connection) -> None:
        for job in batch:  # the batch took so long that every caller's wait ran out
            job.deadline = time.perf_counter() - 1
        raise ValueError("this one is wrong")

    def insert(scope: str) -> Callable[[Connection], None]:
        return lambda connection: connection.execute(written, {"scope": scope}) and None

    loop = asyncio.get_running_loop()
    in_time = time.perf_counter() + 60
    batch = [
        _Job(work, loop.create_future(), in_time)
        for work in (broken_after_the_wait, insert("a"), insert("b"))
    ]
    outcomes = await asyncio.to_thread(database._writer._commit, batch)
    assert [type(error) for _, _, error in outcomes] == [DatabaseBusy] * 3
    assert await database.read(lambda c: c.execute(count).scalar()) == 0


async def test_a_write_behind_another_process_lock_is_refused_in_time(database: Database) -> None:
    sessions = Sessions(database)
    session = finished("g1", [seat(ANA), seat(BEN)])
    await sessions.save(session)
    other = sa.create_engine(sqlalchemy_url(database.where), poolclass=sa.NullPool)
    with other.connect() as connection:
        if database.dialect == "sqlite":
            connection.exec_driver_sql("BEGIN IMMEDIATE")  # the whole file, as SQLite locks it
        else:
            connection.execute(text("SELECT * FROM sessions FOR UPDATE"))  # the game's row
        with pytest.raises(DatabaseBusy):
            await sessions.save(session)
        connection.rollback()
    other.dispose()
    await sessions.save(session)  # the lock is gone: the same write goes through
