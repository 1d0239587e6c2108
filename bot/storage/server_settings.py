"""Per-server configuration, named rulesets and the change log: every SQL statement about config.

Values stay primitive here (JSON text, ints, NULL for "the bot's default"); `bot.services.server_settings`
gives them meaning.
Each server setting is kept in the `guild_config` column of its name: the store is handed the names
(`bot.core.server_settings` declares them; storage does not import the game's vocabulary).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial

from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import TextClause

from bot.storage.database import Database


@dataclass(frozen=True)
class ConfigRow:
    """One server's stored overrides: its rules (JSON), and its server settings' columns by name; None
    (or no entry) means the bot's default."""

    rules: str | None = None
    settings: Mapping[str, int | str | None] = field(default_factory=dict)  # a switch as 0 or 1


@dataclass(frozen=True)
class _Statements:
    """Reading and replacing a server's row, over the setting columns the store was given."""

    settings: tuple[str, ...]
    load: TextClause
    upsert: TextClause

    @classmethod
    def over(cls, settings: Iterable[str]) -> _Statements:
        names = tuple(settings)
        columns = ("rules", *names)
        return cls(
            names,
            text(f"SELECT {', '.join(columns)} FROM guild_config WHERE guild_id = :guild"),
            text(
                f"INSERT INTO guild_config (guild_id, {', '.join(columns)}, updated_at)"
                f" VALUES (:guild, {', '.join(':' + column for column in columns)}, :at)"
                " ON CONFLICT (guild_id) DO UPDATE SET "
                + ", ".join(f"{column} = excluded.{column}" for column in (*columns, "updated_at"))
            ),
        )


@dataclass(frozen=True)
class AuditEntry:
    user_id: int
    user_name: str
    what: str
    old: str | None
    new: str | None
    at: float


_LOG = text(
    "INSERT INTO config_audit (guild_id, user_id, user_name, what, old_value, new_value, at)"
    " VALUES (:guild, :user, :user_name, :what, :old, :new, :at)"
)
_NAMED = text("SELECT name, rules FROM rulesets WHERE guild_id = :guild ORDER BY name")
_SAVE_NAMED = text(
    "INSERT INTO rulesets (guild_id, name, rules, saved_by, saved_at)"
    " VALUES (:guild, :name, :rules, :user, :at)"
    " ON CONFLICT (guild_id, name) DO UPDATE SET rules = excluded.rules,"
    " saved_by = excluded.saved_by, saved_at = excluded.saved_at"
)
_DELETE_NAMED = text("DELETE FROM rulesets WHERE guild_id = :guild AND name = :name")
_HISTORY = text(
    "SELECT user_id, user_name, what, old_value, new_value, at FROM config_audit"
    " WHERE guild_id = :guild ORDER BY id DESC LIMIT :limit"
)


class SqlConfigStore:
    """Writes in one transaction each; reads on the readers, so they never wait behind a write."""

    def __init__(self, db: Database, settings: Iterable[str]) -> None:
        """`settings`: the server settings' names, each its `guild_config` column."""
        self._db = db
        self._statements = _Statements.over(settings)

    async def load(self, guild_id: int) -> ConfigRow:
        load = self._statements.load
        row = await self._db.read(lambda c: c.execute(load, {"guild": guild_id}).first())
        if row is None:
            return ConfigRow()
        return ConfigRow(row[0], dict(zip(self._statements.settings, row[1:], strict=True)))

    async def save(self, guild_id: int, row: ConfigRow, entry: AuditEntry) -> None:
        """Replace the server's overrides and log the change, both or neither."""
        await self._db.write(partial(_save, self._statements, guild_id, row, entry))

    async def named(self, guild_id: int) -> dict[str, str]:
        """The server's saved rulesets, name → JSON, by name."""
        rows = await self._db.read(lambda c: c.execute(_NAMED, {"guild": guild_id}).all())
        return {str(row[0]): str(row[1]) for row in rows}

    async def save_named(
        self, guild_id: int, name: str, rules: str, entry: AuditEntry, config: ConfigRow
    ) -> None:
        """Keep a named ruleset and the server's config that now carries its name, in one transaction."""
        await self._db.write(partial(_save_named, self._statements, guild_id, name, rules, entry, config))

    async def delete_named(
        self, guild_id: int, name: str, entry: AuditEntry, config: ConfigRow | None
    ) -> bool:
        """Delete, update the config if given, and log; False (nothing changed) when there is no such name."""
        return await self._db.write(partial(_delete_named, self._statements, guild_id, name, entry, config))

    async def history(self, guild_id: int, limit: int) -> list[AuditEntry]:
        """The newest changes first."""
        rows = await self._db.read(lambda c: c.execute(_HISTORY, {"guild": guild_id, "limit": limit}).all())
        return [AuditEntry(int(r[0]), str(r[1]), str(r[2]), r[3], r[4], float(r[5])) for r in rows]


def _save(
    statements: _Statements, guild_id: int, row: ConfigRow, entry: AuditEntry, connection: Connection
) -> None:
    _upsert(connection, statements, guild_id, row, entry.at)
    _log(connection, guild_id, entry)


def _save_named(
    statements: _Statements,
    guild_id: int,
    name: str,
    rules: str,
    entry: AuditEntry,
    config: ConfigRow,
    connection: Connection,
) -> None:
    _upsert(connection, statements, guild_id, config, entry.at)
    connection.execute(
        _SAVE_NAMED, {"guild": guild_id, "name": name, "rules": rules, "user": entry.user_id, "at": entry.at}
    )
    _log(connection, guild_id, entry)


def _delete_named(
    statements: _Statements,
    guild_id: int,
    name: str,
    entry: AuditEntry,
    config: ConfigRow | None,
    connection: Connection,
) -> bool:
    if connection.execute(_DELETE_NAMED, {"guild": guild_id, "name": name}).rowcount != 1:
        return False
    if config is not None:
        _upsert(connection, statements, guild_id, config, entry.at)
    _log(connection, guild_id, entry)
    return True


def _upsert(
    connection: Connection, statements: _Statements, guild_id: int, row: ConfigRow, at: float
) -> None:
    values = {column: row.settings.get(column) for column in statements.settings}
    connection.execute(statements.upsert, {"guild": guild_id, "rules": row.rules, **values, "at": at})


def _log(connection: Connection, guild_id: int, entry: AuditEntry) -> None:
    connection.execute(
        _LOG,
        {
            "guild": guild_id,
            "user": entry.user_id,
            "user_name": entry.user_name,
            "what": entry.what,
            "old": entry.old,
            "new": entry.new,
            "at": entry.at,
        },
    )
