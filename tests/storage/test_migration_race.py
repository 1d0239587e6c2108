"""Shard processes started together migrate one empty PostgreSQL database at the same moment: every one
succeeds, and the schema is the one a single migration makes."""

from __future__ import annotations

import asyncio
import multiprocessing
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier

import pytest
import sqlalchemy as sa

from bot.core.database_url import DatabaseUrl
from bot.storage import DatabaseUnavailable, open_database, schema
from bot.storage.database import sqlalchemy_url
from bot.storage.schema import revisions
from tests.databases import PostgresServer
from tests.storage.test_migrations import _schema

ROUNDS = 10


def _shard(urls: Queue[str | None], barrier: Barrier, results: Queue[str]) -> None:
    """A shard process's start-up, once per database handed over: wait for the other process, then open
    (and migrate) the database at the same moment as it does."""

    async def start(url: str) -> None:
        db, _ = await open_database(DatabaseUrl.parse(url))
        await db.close()

    while (url := urls.get()) is not None:
        barrier.wait()
        try:
            asyncio.run(start(url))
            results.put("ok")
        except DatabaseUnavailable as error:
            results.put(str(error))


def test_two_processes_migrating_one_empty_database_at_once_both_succeed(
    postgres_server: PostgresServer, postgres_url: DatabaseUrl
) -> None:
    with sa.create_engine(sqlalchemy_url(postgres_url), poolclass=sa.NullPool).connect() as connection:
        expected = _schema(connection)  # what one migration alone makes
    spawn = multiprocessing.get_context("spawn")
    urls, results, barrier = spawn.Queue(), spawn.Queue(), spawn.Barrier(2)
    shards = [spawn.Process(target=_shard, args=(urls, barrier, results)) for _ in range(2)]
    for shard in shards:
        shard.start()
    try:
        for _ in range(ROUNDS):
            name = postgres_server.create(migrated=False)
            url = DatabaseUrl.parse(postgres_server.url_of(name).render_as_string(hide_password=False))
            for _ in shards:
                urls.put(url.server_url)
            assert [results.get(timeout=120) for _ in shards] == ["ok", "ok"]
            engine = sa.create_engine(sqlalchemy_url(url), poolclass=sa.NullPool)
            with engine.connect() as connection:
                versions = connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalars()
                assert list(versions) == [revisions()[-1]]
                assert _schema(connection) == expected
            engine.dispose()
            postgres_server.drop(name)
    finally:
        for _ in shards:
            urls.put(None)
        for shard in shards:
            shard.join(timeout=30)


async def test_a_migration_lock_held_too_long_is_one_line_about_the_other_process(
    blank_postgres_url: DatabaseUrl, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not the unreachable-server advice: the server answered, another process held the migration."""
    monkeypatch.setattr(schema, "MIGRATION_WAIT", 1)
    engine = sa.create_engine(sqlalchemy_url(blank_postgres_url), poolclass=sa.NullPool)
    with engine.connect() as other:
        other.execute(sa.text("SELECT pg_advisory_lock(:key)"), {"key": schema.MIGRATION_LOCK})
        with pytest.raises(DatabaseUnavailable) as refused:
            await open_database(blank_postgres_url)
    engine.dispose()
    assert "busy with another process" in str(refused.value) and "check the address" not in str(refused.value)
    db, applied = await open_database(blank_postgres_url)  # the lock released: the migration runs
    assert applied == revisions()
    await db.close()
