"""Solved turn policies, as the solver's own JSON."""

from __future__ import annotations

from sqlalchemy import text

from bot.storage.database import Database

_LOAD = text("SELECT policy FROM solver_cache WHERE rules_key = :key AND on_board = :on_board")
_SAVE = text(
    "INSERT INTO solver_cache (rules_key, on_board, policy) VALUES (:key, :on_board, :policy)"
    " ON CONFLICT (rules_key, on_board) DO UPDATE SET policy = excluded.policy"
)


class SqlPolicyStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def load(self, rules_key: str, on_board: bool) -> str | None:
        values = {"key": rules_key, "on_board": int(on_board)}
        policy = await self._db.read(lambda c: c.execute(_LOAD, values).scalar())
        return str(policy) if policy is not None else None

    async def save(self, rules_key: str, on_board: bool, policy: str) -> None:
        values = {"key": rules_key, "on_board": int(on_board), "policy": policy}
        await self._db.write(lambda c: c.execute(_SAVE, values))
