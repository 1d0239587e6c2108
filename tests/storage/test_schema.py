"""The schema's history: Alembic revisions on both backends, SQLite databases from before Alembic upgraded
in place with their data, and shard processes that migrate one empty PostgreSQL database at the same
moment all succeeding, with the schema a single migration makes."""

from __future__ import annotations

import asyncio
import multiprocessing
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from sqlalchemy import text

from bot.core.database_url import DatabaseUrl
from bot.services.ratings import rate_game
from bot.sessions.archive import record_of
from bot.storage import Database, DatabaseUnavailable, SchemaTooNew, open_database, schema
from bot.storage.boards import SqlBoardLedger
from bot.storage.database import BUSY_TIMEOUT_MS, WRITER_CACHE_KIB, sqlalchemy_url
from bot.storage.schema import _config_on, available_legacy, head_revision, legacy_upgrade, migrate, revisions
from bot.storage.sessions import SqlSessionStore
from tests.databases import PostgresServer
from tests.storage.test_results import ANA, BEN, GUILD, NOW, board, finished, seat


@contextmanager
def written_at(url: DatabaseUrl, revision: str) -> Iterator[sa.Connection]:
    """A blank database migrated up to `revision` only, and a transaction on it for the rows a bot of that
    revision left behind; the revisions after it run when the test opens the database."""
    engine = sa.create_engine(sqlalchemy_url(url), poolclass=sa.NullPool)
    with engine.connect() as connection:
        command.upgrade(_config_on(connection), revision)
        if connection.in_transaction():
            connection.commit()
        with connection.begin():
            yield connection
    engine.dispose()


def _schema(connection: sa.Connection) -> list[tuple[str, str]]:
    inspector = sa.inspect(connection)
    return sorted(
        (table, f"{column['name']} {column['type']} {column['nullable']}")
        for table in inspector.get_table_names()
        for column in inspector.get_columns(table)
    ) + sorted(
        (table, index["name"] or "")
        for table in inspector.get_table_names()
        for index in inspector.get_indexes(table)
    )


async def test_a_fresh_database_gets_every_revision_and_a_second_run_changes_nothing(
    blank_database_url: DatabaseUrl,
) -> None:
    db, applied = await open_database(blank_database_url)
    assert applied == revisions() and applied[0] == "0009"
    before = await db.read(_schema)
    await db.close()
    db, applied = await open_database(blank_database_url)
    assert applied == []
    assert await db.read(_schema) == before
    await db.close()


def test_the_head_read_from_file_names_is_alembics() -> None:
    assert head_revision() == revisions()[-1]


async def test_a_newer_schema_is_refused(database: Database) -> None:
    await database.write(lambda c: c.execute(text("UPDATE alembic_version SET version_num = '9999'")))
    with pytest.raises(SchemaTooNew, match="newer"):
        await open_database(database.where)


def legacy_database(path: Path, upto: int, directory: Path | None = None) -> sqlite3.Connection:
    """A SQLite database as the numbered migrations of earlier versions left it."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
        " applied_at TEXT NOT NULL DEFAULT (datetime('now')))"
    )
    for version, script in available_legacy()[:upto]:
        db.executescript(f"BEGIN;{script.read_text()};COMMIT;")
        db.execute("INSERT INTO schema_migrations (version, name) VALUES (?, ?)", (version, script.name))
    return db


async def test_a_database_from_before_alembic_keeps_a_running_game(tmp_path: Path) -> None:
    path = tmp_path / "farkle.sqlite3"
    old = legacy_database(path, upto=2)  # command sync and sessions: no results yet
    session = finished("g1", [seat(ANA), seat(BEN)])
    session.stage, session.ended_at = "playing", None  # stored as a game still going
    old.execute(
        "INSERT INTO sessions (channel_id, guild_id, game_id, stage, version, board_message_id,"
        " deadline, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (10, GUILD, "g1", "playing", session.version, 555, NOW + 60, session.dump()),
    )
    old.execute("INSERT INTO command_sync (scope, tree_hash) VALUES ('global', 'abc')")
    old.close()

    db, applied = await open_database(DatabaseUrl.of_path(path))
    try:
        assert applied == revisions()[1:], "the legacy files run, then the revisions after the baseline"
        legacy = sqlite3.connect(path).execute("SELECT MAX(version) FROM schema_migrations").fetchone()
        assert legacy == (available_legacy()[-1][0],)
        store = SqlSessionStore(db, rate_game)
        (row,) = await store.load_all()
        assert row.channel_id == 10
        fetched = await db.read(lambda c: c.execute(text("SELECT deadline FROM sessions")).all())
        assert [tuple(r) for r in fetched] == [(NOW + 60,)]
        (shown,) = await SqlBoardLedger(db).load(["g1"])
        assert (shown.channel_id, shown.message_id, shown.route) == (10, 555, "channel")
        assert shown.shown_version == session.version, "a row saved before 0008 counts as shown"
        assert "board_message_id" not in row.state, "the session's saved state holds no message id"
        hashes = await db.read(lambda c: c.execute(text("SELECT tree_hash FROM command_sync")).all())
        assert [r[0] for r in hashes] == ["abc"]
        # The upgraded database takes results straight away, through the compare-and-set of its row.
        restored = session.load(row.state, row.revision)
        restored.stage, restored.ended_at = "over", NOW
        await store.save(restored.row(restored.dump()), record_of(restored))
        assert await board(db, "wins") == [(1, "ana"), (2, "ben")]
    finally:
        await db.close()


async def test_a_legacy_database_newer_than_its_files_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "farkle.sqlite3"
    old = legacy_database(path, upto=9)
    old.execute("INSERT INTO schema_migrations (version, name) VALUES (99, '0099_future.sql')")
    old.close()
    with pytest.raises(SchemaTooNew, match="newer"):
        await open_database(DatabaseUrl.of_path(path))


def test_a_failed_legacy_migration_is_rolled_back(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_good.sql").write_text("CREATE TABLE good (x INTEGER);")
    (folder / "0002_bad.sql").write_text("CREATE TABLE half (x INTEGER); INSERT INTO missing VALUES (1);")
    legacy_database(tmp_path / "farkle.sqlite3", upto=0).close()
    engine = sa.create_engine(sqlalchemy_url(DatabaseUrl.of_path(tmp_path / "farkle.sqlite3")))
    with engine.connect() as connection, pytest.raises(Exception, match="missing"):
        legacy_upgrade(connection, folder)
    engine.dispose()
    db = sqlite3.connect(tmp_path / "farkle.sqlite3")
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "good" in tables and "half" not in tables
    assert [row[0] for row in db.execute("SELECT version FROM schema_migrations")] == [1]
    db.close()


async def test_sqlite_connections_wait_briefly_and_use_the_write_ahead_log(tmp_path: Path) -> None:
    db, _ = await open_database(DatabaseUrl.of_path(tmp_path / "farkle.sqlite3"))
    # Well under Discord's 3-second answer window: a locked database still gets its answer in time.
    # Its page cache small (the OS caches the file): SQLite's default 2 MB would fill as the file grows.
    expected_pragmas = (
        ("journal_mode", "wal"),
        ("foreign_keys", 1),
        ("busy_timeout", BUSY_TIMEOUT_MS),
        ("cache_size", -WRITER_CACHE_KIB),
    )
    for pragma, expected in expected_pragmas:
        value = await db.write(lambda c, pragma=pragma: c.exec_driver_sql(f"PRAGMA {pragma}").scalar())
        assert value == expected
    assert await db.read(lambda c: c.exec_driver_sql("PRAGMA query_only").scalar()) == 1
    await db.close()


def test_stored_ratings_move_to_the_friendly_scale(tmp_path: Path) -> None:
    """Revision 0018: openskill's ordinal (a first loss showed "-1.8") becomes the friendly scale,
    1,000 + 40 × ordinal, never below 0."""
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'ratings.sqlite3'}")
    with engine.connect() as connection:
        command.upgrade(_config_on(connection), "0014")
        connection.commit()
        insert = text(
            "INSERT INTO player_stats (guild_id, user_id, name, games, mu, sigma, rating, last_played)"
            " VALUES (1, :user, 'm', 1, 25, 8, :rating, 0)"
        )
        connection.execute(
            insert, [{"user": 1, "rating": -1.8}, {"user": 2, "rating": -30.0}, {"user": 3, "rating": 2.0}]
        )
        connection.commit()
        migrate(connection)
        ratings = connection.execute(text("SELECT user_id, rating FROM player_stats ORDER BY user_id")).all()
    engine.dispose()
    assert [(user, pytest.approx(rating)) for user, rating in ratings] == [(1, 928.0), (2, 0.0), (3, 1080.0)]


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
