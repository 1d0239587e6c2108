"""Both backends for the storage suites: a SQLite file, and a throw-away PostgreSQL database per test.

PostgreSQL comes from `TEST_DATABASE_URL` (default: the local server these machines and CI run). Each
test gets a fresh database copied from a template migrated once per run, dropped afterwards. Where no
server answers, its cases are skipped with one line in the summary; `REQUIRE_POSTGRES=1` (set by
`.ci/run`) turns that skip into a failure.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy import exc

from bot.core.database_url import DatabaseUrl
from bot.storage import Database, open_database
from bot.storage.database import sqlalchemy_url
from bot.storage.schema import migrate

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
BACKENDS = ("sqlite", "postgresql")
_names = itertools.count()


class PostgresServer:
    """The server the tests borrow databases from: one template per run, one copy per test."""

    def __init__(self, url: str) -> None:
        self.base = sqlalchemy_url(DatabaseUrl.parse(url))
        self.template = f"farkle_template_{os.getpid()}"
        self._admin: sa.Engine | None = None
        self.problem: str | None = None

    def admin(self) -> sa.Engine:
        if self._admin is None:
            self._admin = sa.create_engine(self.base, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
            try:
                with self._admin.connect() as connection:
                    connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{self.template}" WITH (FORCE)')
                    connection.exec_driver_sql(f'CREATE DATABASE "{self.template}"')
                template = sa.create_engine(self.url_of(self.template), poolclass=sa.NullPool)
                with template.connect() as connection:
                    migrate(connection)
                template.dispose()
            except exc.OperationalError as error:
                self.problem = str(error.orig).strip().splitlines()[0]
        if self.problem is not None:
            message = f"PostgreSQL at {TEST_DATABASE_URL} is not reachable ({self.problem})"
            if os.environ.get("REQUIRE_POSTGRES") == "1":
                pytest.fail(f"{message}, and REQUIRE_POSTGRES=1 requires it", pytrace=False)
            pytest.skip(message)
        return self._admin

    def url_of(self, name: str) -> sa.URL:
        return self.base.set(database=name)

    def create(self, *, migrated: bool = True) -> str:
        name = f"farkle_test_{os.getpid()}_{next(_names)}"
        template = f' TEMPLATE "{self.template}"' if migrated else ""
        with self.admin().connect() as connection:
            connection.exec_driver_sql(f'CREATE DATABASE "{name}"{template}')
        return name

    def drop(self, name: str) -> None:
        with self.admin().connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def close(self) -> None:
        if self._admin is not None:
            if self.problem is None:
                self.drop(self.template)
            self._admin.dispose()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    server = PostgresServer(TEST_DATABASE_URL)
    yield server
    server.close()


def _borrowed(server: PostgresServer, *, migrated: bool) -> Iterator[DatabaseUrl]:
    name = server.create(migrated=migrated)
    yield DatabaseUrl.parse(server.url_of(name).render_as_string(hide_password=False))
    server.drop(name)


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[DatabaseUrl]:
    """A fresh, migrated, empty PostgreSQL database for one test, dropped afterwards."""
    yield from _borrowed(postgres_server, migrated=True)


@pytest.fixture
def blank_postgres_url(postgres_server: PostgresServer) -> Iterator[DatabaseUrl]:
    """A PostgreSQL database without even the schema, for migration tests."""
    yield from _borrowed(postgres_server, migrated=False)


def _on_backend(request: pytest.FixtureRequest, tmp_path: Path, postgres: str) -> DatabaseUrl:
    if request.param == "sqlite":
        return DatabaseUrl.of_path(tmp_path / "farkle.sqlite3")
    url: DatabaseUrl = request.getfixturevalue(postgres)
    return url


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> DatabaseUrl:
    """Each storage test runs once on a SQLite file and once on PostgreSQL (already migrated there)."""
    return _on_backend(request, tmp_path, "postgres_url")


@pytest.fixture(params=BACKENDS)
def blank_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> DatabaseUrl:
    """Nothing there yet, on either backend."""
    return _on_backend(request, tmp_path, "blank_postgres_url")


@pytest.fixture
async def database(database_url: DatabaseUrl) -> AsyncIterator[Database]:
    db, _ = await open_database(database_url)
    yield db
    await db.close()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The one line that says PostgreSQL cases were skipped, and why."""
    skipped = terminalreporter.stats.get("skipped", [])
    reasons = {str(report.longrepr[2]) for report in skipped if isinstance(report.longrepr, tuple)}
    for reason in sorted(r for r in reasons if "PostgreSQL" in r):
        terminalreporter.write_line(f"{reason}: its cases were skipped (REQUIRE_POSTGRES=1 fails instead)")
