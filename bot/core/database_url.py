"""Where the data lives: a SQLite file (`DATABASE_PATH`, the default) or a PostgreSQL server
(`DATABASE_URL`), parsed once for the settings and the storage layer alike (plain Python: the settings,
and the session layer that reads them, never import SQL libraries)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit, urlunsplit

Dialect = Literal["sqlite", "postgresql"]
_USAGE = "use sqlite:///path or postgresql://user@host/db"


@dataclass(frozen=True)
class DatabaseUrl:
    """The database, as the storage layer connects to it and as the operator named it."""

    dialect: Dialect
    setting: str  # "DATABASE_PATH=data/farkle.sqlite3" or "DATABASE_URL=postgresql://bot:***@db/farkle"
    sqlite_path: Path | None = None  # the file, exactly as named (`?` and `#` are part of it)
    server_url: str | None = None  # PostgreSQL, as a SQLAlchemy URL with the psycopg driver

    @classmethod
    def of_path(cls, path: Path) -> DatabaseUrl:
        return cls("sqlite", f"DATABASE_PATH={path}", sqlite_path=path)

    @classmethod
    def parse(cls, text: str) -> DatabaseUrl:
        """`sqlite:///relative/file`, `sqlite:////absolute/file` or `postgresql://user@host:5432/db`."""
        scheme, _, rest = text.strip().partition("://")
        if scheme == "sqlite":
            if not rest.startswith("/") or rest in ("/", "/:memory:"):
                raise ValueError("a SQLite URL needs a file: sqlite:///data/farkle.sqlite3")
            return cls("sqlite", f"DATABASE_URL={text.strip()}", sqlite_path=Path(rest[1:]))
        if scheme in ("postgresql", "postgres", "postgresql+psycopg"):
            parts = urlsplit(text.strip())
            if not parts.hostname or not parts.path.strip("/"):
                raise ValueError(
                    "a PostgreSQL URL needs a host and a database: postgresql://user@host/farkle"
                )
            url = urlunsplit(parts._replace(scheme="postgresql+psycopg"))
            return cls("postgresql", f"DATABASE_URL={_without_password(text.strip())}", server_url=url)
        if not rest:
            raise ValueError(f"not a database URL: {_USAGE}")
        raise ValueError(f"“{scheme}” is not supported: {_USAGE}")


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}{port}"))
