"""The database, SQLite file or PostgreSQL server: opened, migrated, and given units of work to run.

A unit of work is a plain function on a SQLAlchemy Core `Connection`, run whole on a worker thread inside
one transaction: one hop off the event loop per transaction instead of one per statement (a move's
commit costs ≈ 0.25 ms on SQLite this way, ≈ 1.5 ms through SQLAlchemy's asyncio layer over aiosqlite;
see docs/PERFORMANCE.md's storage table). The SQL is the same text for both backends; only connecting differs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy import event, exc
from sqlalchemy.engine import URL, Connection, Engine, make_url

from bot.core.database_url import DatabaseUrl, Dialect
from bot.core.records import DatabaseBusy as DatabaseBusy  # raised here; sessions catch it without SQL

log = logging.getLogger(__name__)

T = TypeVar("T")
Work = Callable[[Connection], T]

# Discord waits 3 s for an answer: a write gives up well before that (waiting for this process's other
# writers, then for another process's lock) so the player hears "nothing changed" in time. Queue waits are
# measured with perf_counter, the same clock in every thread (SimCord makes monotonic virtual in its own).
WRITE_QUEUE_WAIT = 1.0
BUSY_TIMEOUT_MS = 1000
# PostgreSQL: concurrent writers (shard processes) that touched the same rows retry their unit of work.
RETRIES = 5
_RETRY_STATES = {"40001", "40P01"}  # serialization failure, deadlock
_BUSY_STATES = {"55P03", "57014"}  # lock not available (lock_timeout), statement cancelled
MAX_BATCH = 64  # units of work one commit may carry
_SQLITE_WORKERS = (1, 2)  # writer, readers: SQLite has one writer at a time anyway
_POSTGRES_WORKERS = (4, 4)
# The writer's SQLite page cache, in KiB (SQLite's default, 2 MB, fills as the file grows and stays): a
# move's commit touches a few pages, and a page the operating system caches costs microseconds to read
# again (bench/storage.py: commits unchanged, the hourly 30-day rebuild ~50 ms longer than with 2 MB).
# Readers keep the default: a leaderboard page walks thousands of rows.
WRITER_CACHE_KIB = 512


class SchemaTooNew(RuntimeError):
    """The database was written by a newer version of the bot; refusing protects its data."""


class SchemaBehind(RuntimeError):
    """The database needs migrating, and this process was asked not to do it (`open_database`)."""


class DatabaseUnavailable(RuntimeError):
    """The database can't be opened or migrated: one sentence for the operator, naming the setting."""


def _transaction(engine: Engine, work: Work[T], *, retry: bool) -> T:
    """Run `work` in a transaction of its own, turning waits that outlast an answer into `DatabaseBusy`."""
    for attempt in range(RETRIES):
        try:
            with engine.connect() as connection, connection.begin():
                return work(connection)
        except (exc.TimeoutError, exc.DBAPIError) as error:
            if _refused(error) and retry and attempt + 1 < RETRIES:
                time.sleep(0.005 * (attempt + 1))
                continue
            busy = _busy(error)
            if busy is not None:
                raise busy from error
            raise
    raise AssertionError("unreachable: the last attempt returns or raises")


class _Readers:
    """Reader threads with a connection each; a read waits at most `WRITE_QUEUE_WAIT` for one."""

    def __init__(self, engine: Engine, workers: int) -> None:
        self.engine = engine
        self._executor = ThreadPoolExecutor(workers, thread_name_prefix="farkle-db-read")

    async def run(self, work: Work[T]) -> T:
        deadline = time.perf_counter() + WRITE_QUEUE_WAIT
        return await asyncio.get_running_loop().run_in_executor(self._executor, self._call, work, deadline)

    def _call(self, work: Work[T], deadline: float) -> T:
        if time.perf_counter() > deadline:  # queued behind slow reads for longer than an answer can wait
            raise DatabaseBusy("the database is busy")
        return _transaction(self.engine, work, retry=False)

    def close(self) -> None:
        self._executor.shutdown(wait=True)
        self.engine.dispose()


@dataclass
class _Job:
    work: Work[Any]
    future: asyncio.Future[Any]
    deadline: float


class _GroupCommit:
    """Writer threads that take every unit of work waiting and commit them together.

    A burst of moves across channels then costs a few transactions instead of one each, the writer
    holds the GIL for a batch instead of fighting the event loop for it per move, and the loop is woken
    once a batch. Every unit is still committed before its caller hears back. A batch that fails inside
    a unit (a compare-and-set lost, a constraint, a PostgreSQL serialization failure) is rolled back and
    its units run again one by one, so one unit's failure never touches another's.
    """

    def __init__(self, engine: Engine, workers: int) -> None:
        self.engine = engine
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._threads = [
            threading.Thread(target=self._serve, name=f"farkle-db-write-{n}", daemon=True)
            for n in range(workers)
        ]
        for thread in self._threads:
            thread.start()

    async def run(self, work: Work[T]) -> T:
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put(_Job(work, future, time.perf_counter() + WRITE_QUEUE_WAIT))
        return await future

    def _serve(self) -> None:
        while (job := self._queue.get()) is not None:
            batch = [job]
            while len(batch) < MAX_BATCH:
                try:
                    waiting = self._queue.get_nowait()
                except queue.Empty:
                    break
                if waiting is None:  # closing: finish this batch, then stop
                    self._queue.put(None)
                    break
                batch.append(waiting)
            try:
                outcomes = self._commit(batch)
            except BaseException as error:  # the writer lives on: every caller hears, none waits forever
                outcomes = [(job, None, error) for job in batch]
            _hand_back(outcomes)

    def _commit(self, batch: list[_Job]) -> list[_Outcome]:
        # Queued behind slow work for longer than an answer can wait: refused untouched, in time.
        outcomes: list[_Outcome] = []
        due: list[_Job] = []
        for job in batch:
            if _past(job):
                outcomes.append(_late(job))
            elif not job.future.cancelled():
                due.append(job)
        if len(due) > 1:
            together = self._together(due)
            if together is not None:
                return outcomes + together
        for job in due:  # one by one, each with its own outcome; still refused once too late
            if _past(job):
                outcomes.append(_late(job))
                continue
            try:
                outcomes.append((job, _transaction(self.engine, job.work, retry=True), None))
            except Exception as error:
                outcomes.append((job, None, error))
        return outcomes

    def _together(self, due: list[_Job]) -> list[_Outcome] | None:
        """Every unit in one transaction; None when a unit failed and nothing landed (each then runs
        alone). A busy database fails them all at once, and a commit that failed for another reason
        may have landed, so it is reported, never run again."""
        try:
            with self.engine.connect() as connection:
                transaction = connection.begin()
                try:
                    results = [job.work(connection) for job in due]
                except Exception as error:
                    transaction.rollback()
                    if _busy(error) is not None:
                        raise
                    return None
                try:
                    transaction.commit()
                except (exc.TimeoutError, exc.DBAPIError) as error:
                    if _refused(error):
                        return None  # the server refused the commit: nothing landed
                    raise
        except Exception as error:
            failure = _busy(error) or error
            return [(job, None, failure) for job in due]
        return [(job, result, None) for job, result in zip(due, results, strict=True)]

    def close(self) -> None:
        for _ in self._threads:  # one stop for each writer, after the work already queued
            self._queue.put(None)
        for thread in self._threads:
            thread.join()
        self.engine.dispose()


_Outcome = tuple[_Job, Any, BaseException | None]


def _past(job: _Job) -> bool:
    return time.perf_counter() > job.deadline


def _late(job: _Job) -> _Outcome:
    return job, None, DatabaseBusy("the database is busy with other writes")


def _hand_back(outcomes: list[_Outcome]) -> None:
    """Hand each caller its result, one wake-up of each event loop for the whole batch."""
    by_loop: dict[asyncio.AbstractEventLoop, list[_Outcome]] = {}
    for outcome in outcomes:
        by_loop.setdefault(outcome[0].future.get_loop(), []).append(outcome)
    for loop, settled in by_loop.items():
        with contextlib.suppress(RuntimeError):  # that event loop is closed: nobody is waiting any more
            loop.call_soon_threadsafe(_resolve, settled)


def _resolve(outcomes: list[_Outcome]) -> None:
    for job, result, error in outcomes:
        if job.future.done():  # its caller was cancelled (a shutdown)
            continue
        if error is None:
            job.future.set_result(result)
        else:
            job.future.set_exception(error)


def failure_cause(error: BaseException) -> str:
    """What went wrong, in the operator's words: the OS's or the database's own first line."""
    text = getattr(error, "strerror", None) or str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _sqlstate(error: exc.DBAPIError) -> str | None:
    return getattr(error.orig, "sqlstate", None)


def _refused(error: BaseException) -> bool:
    """PostgreSQL refused the transaction (serialization failure, deadlock): nothing landed, run again."""
    return isinstance(error, exc.DBAPIError) and _sqlstate(error) in _RETRY_STATES


def _busy(error: BaseException) -> DatabaseBusy | None:
    """The wait that outlasted an answer, in the operator's words, or None for any other error."""
    if isinstance(error, DatabaseBusy):
        return error
    if isinstance(error, exc.TimeoutError):  # no pooled connection came in time
        return DatabaseBusy("no database connection is free")
    if isinstance(error, exc.DBAPIError) and (_sqlstate(error) in _BUSY_STATES or _sqlite_busy(error)):
        return DatabaseBusy(str(error.orig))
    return None


def _sqlite_busy(error: exc.DBAPIError) -> bool:
    return isinstance(error.orig, sqlite3.OperationalError) and (
        "locked" in str(error.orig) or "busy" in str(error.orig)
    )


class Database:
    """Runs units of work: writes one at a time per connection, reads on their own connections.

    SQLite: one writer thread (`BEGIN IMMEDIATE`) and read-only WAL readers that never wait for it.
    PostgreSQL: a few threads each; writes run at REPEATABLE READ and are retried when another process
    wrote the same rows at the same moment (two shards recording one member), so no update is lost.
    """

    def __init__(self, where: DatabaseUrl) -> None:
        self.where = where
        self.dialect: Dialect = where.dialect
        writers, readers = _SQLITE_WORKERS if self.dialect == "sqlite" else _POSTGRES_WORKERS
        self._writer = _GroupCommit(_engine(where, writers, read_only=False), writers)
        self._reader = _Readers(_engine(where, readers, read_only=True), readers)

    async def write(self, work: Work[T]) -> T:
        """Run `work` in a write transaction (maybe shared with other units waiting at the same moment):
        committed before this returns if it returns, rolled back if it raises."""
        return await self._writer.run(work)

    async def read(self, work: Work[T]) -> T:
        """Run `work` on a reader: a long leaderboard never waits behind a game's commit."""
        return await self._reader.run(work)

    async def set_up(self, work: Work[T]) -> T:
        """Run `work` on a connection outside any transaction (migrations manage their own), before any
        other unit of work."""
        return await asyncio.to_thread(self._unmanaged, work)

    def _unmanaged(self, work: Work[T]) -> T:
        with self._writer.engine.connect() as connection:
            return work(connection)

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """A reader connection on the calling thread, for a command's unit of work that reads another
        database (`copy-db`)."""
        with self._reader.engine.connect() as connection, connection.begin():
            yield connection

    async def close(self) -> None:
        await asyncio.to_thread(self._close)

    def _close(self) -> None:
        self._writer.close()
        self._reader.close()


def sqlalchemy_url(where: DatabaseUrl) -> URL:
    if where.sqlite_path is not None:
        return URL.create("sqlite+pysqlite", database=str(where.sqlite_path))
    assert where.server_url is not None
    return make_url(where.server_url)


def _engine(where: DatabaseUrl, pool: int, *, read_only: bool) -> Engine:
    common: dict[str, Any] = {"pool_size": pool, "max_overflow": 0, "pool_timeout": WRITE_QUEUE_WAIT}
    if where.dialect == "postgresql":
        return sa.create_engine(
            sqlalchemy_url(where),
            **common,
            pool_pre_ping=True,  # a restarted server leaves dead connections in the pool
            isolation_level="READ COMMITTED" if read_only else "REPEATABLE READ",
            connect_args={"options": f"-c lock_timeout={BUSY_TIMEOUT_MS} -c statement_timeout=2500"},
        )
    engine = sa.create_engine(sqlalchemy_url(where), **common, connect_args={"check_same_thread": False})
    pragmas = ["foreign_keys=ON", f"busy_timeout={BUSY_TIMEOUT_MS}"]
    pragmas += (
        ["query_only=ON"]
        if read_only
        else ["journal_mode=WAL", "synchronous=NORMAL", f"cache_size=-{WRITER_CACHE_KIB}"]
    )

    @event.listens_for(engine, "connect")
    def _configure(connection: sqlite3.Connection, _record: object) -> None:
        connection.isolation_level = None  # transactions are begun below, not by the driver's guesses
        for pragma in pragmas:
            connection.execute(f"PRAGMA {pragma}").close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        # IMMEDIATE takes the write lock up front: a transaction never fails half-way for lack of it.
        connection.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")

    return engine
