"""Per-server configuration, named rulesets and the change log: every SQL statement about config.

Values stay primitive here (JSON text, ints, NULL for "the bot's default"); `bot.config` gives them meaning.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.storage.database import transaction

_COLUMNS = ("rules", "turn_timeout", "lobby_timeout", "hints", "threads", "language")


@dataclass(frozen=True)
class ConfigRow:
    """One server's stored overrides; None means the bot's default."""

    rules: str | None = None
    turn_timeout: int | None = None
    lobby_timeout: int | None = None
    hints: bool | None = None
    threads: bool | None = None
    language: str | None = None


@dataclass(frozen=True)
class AuditEntry:
    user_id: int
    user_name: str
    what: str
    old: str | None
    new: str | None
    at: float


def _flag(value: object) -> bool | None:
    return None if value is None else bool(value)


class SqliteConfigStore:
    """Writes on the bot's connection; reads on `reader` (if given), so they never wait behind a write."""

    def __init__(self, db: aiosqlite.Connection, reader: aiosqlite.Connection | None = None) -> None:
        self._db = db
        self._reader = reader or db

    async def load(self, guild_id: int) -> ConfigRow:
        async with self._reader.execute(
            f"SELECT {', '.join(_COLUMNS)} FROM guild_config WHERE guild_id = ?", (guild_id,)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return ConfigRow()
        return ConfigRow(row[0], row[1], row[2], _flag(row[3]), _flag(row[4]), row[5])

    async def save(self, guild_id: int, row: ConfigRow, entry: AuditEntry) -> None:
        """Replace the server's overrides and log the change, both or neither."""
        async with transaction(self._db):
            await self._upsert(guild_id, row, entry.at)
            await self._log(guild_id, entry)

    async def named(self, guild_id: int) -> dict[str, str]:
        """The server's saved rulesets, name → JSON, by name."""
        rows = await self._reader.execute_fetchall(
            "SELECT name, rules FROM rulesets WHERE guild_id = ? ORDER BY name", (guild_id,)
        )
        return {str(row[0]): str(row[1]) for row in rows}

    async def save_named(
        self, guild_id: int, name: str, rules: str, entry: AuditEntry, config: ConfigRow
    ) -> None:
        """Keep a named ruleset and the server's config that now carries its name, in one transaction."""
        async with transaction(self._db):
            await self._upsert(guild_id, config, entry.at)
            await self._db.execute(
                "INSERT INTO rulesets (guild_id, name, rules, saved_by, saved_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT(guild_id, name) DO UPDATE SET rules = excluded.rules,"
                " saved_by = excluded.saved_by, saved_at = excluded.saved_at",
                (guild_id, name, rules, entry.user_id, entry.at),
            )
            await self._log(guild_id, entry)

    async def delete_named(
        self, guild_id: int, name: str, entry: AuditEntry, config: ConfigRow | None
    ) -> bool:
        """Delete, update the config if given, and log; False (nothing changed) when there is no such name."""
        async with transaction(self._db):
            cursor = await self._db.execute(
                "DELETE FROM rulesets WHERE guild_id = ? AND name = ?", (guild_id, name)
            )
            if cursor.rowcount != 1:
                return False
            if config is not None:
                await self._upsert(guild_id, config, entry.at)
            await self._log(guild_id, entry)
        return True

    async def history(self, guild_id: int, limit: int) -> list[AuditEntry]:
        """The newest changes first."""
        rows = await self._reader.execute_fetchall(
            "SELECT user_id, user_name, what, old_value, new_value, at FROM config_audit"
            " WHERE guild_id = ? ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
        )
        return [AuditEntry(int(r[0]), str(r[1]), str(r[2]), r[3], r[4], float(r[5])) for r in rows]

    async def _upsert(self, guild_id: int, row: ConfigRow, at: float) -> None:
        await self._db.execute(
            f"INSERT INTO guild_config (guild_id, {', '.join(_COLUMNS)}, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(guild_id) DO UPDATE SET"
            " rules = excluded.rules, turn_timeout = excluded.turn_timeout,"
            " lobby_timeout = excluded.lobby_timeout, hints = excluded.hints,"
            " threads = excluded.threads, language = excluded.language, updated_at = excluded.updated_at",
            (
                guild_id,
                row.rules,
                row.turn_timeout,
                row.lobby_timeout,
                row.hints,
                row.threads,
                row.language,
                at,
            ),
        )

    async def _log(self, guild_id: int, entry: AuditEntry) -> None:
        await self._db.execute(
            "INSERT INTO config_audit (guild_id, user_id, user_name, what, old_value, new_value, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (guild_id, entry.user_id, entry.user_name, entry.what, entry.old, entry.new, entry.at),
        )
