"""Optimal turn policies for computer players and hints: in memory, else from storage, else solved.

Solving takes a fraction of a second per ruleset, so it runs off the event loop and is stored for
the next start-up; loading a stored policy takes a few milliseconds.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from bot.engine import Ruleset, TurnPolicy, solve
from bot.engine.solver import adopt, is_solved

log = logging.getLogger(__name__)


class PolicyStore(Protocol):
    async def load(self, rules_key: str, on_board: bool) -> str | None: ...

    async def save(self, rules_key: str, on_board: bool, policy: str) -> None: ...


class PolicyCache:
    def __init__(self, store: PolicyStore) -> None:
        self._store = store
        self._lock = asyncio.Lock()

    async def ensure(self, rules: Ruleset) -> None:
        """Make sure the solver answers at once for these rules, on and off the board."""
        async with self._lock:
            for on_board in {True, rules.entry_minimum == 0}:
                if not is_solved(rules, on_board):
                    await self._load_or_solve(rules, on_board)

    async def _load_or_solve(self, rules: Ruleset, on_board: bool) -> None:
        stored = await self._store.load(rules.key(), on_board)
        if stored is not None:
            try:
                adopt(TurnPolicy.from_json(stored))
                return
            except ValueError:
                log.info("Stored policy for %s is from another solver version; solving again", rules.name)
        policy = await asyncio.to_thread(solve, rules, on_board)
        await self._store.save(rules.key(), on_board, policy.to_json())
