"""Optimal turn policies for computer players, hints and reviews: in memory, else from storage, else solved.

Solving takes a fraction of a second per ruleset, so it runs off the event loop and is stored for
the next start-up; loading a stored policy takes a few milliseconds. The cache owns the handles
(`TurnPolicies`) the engine plays by: a caller awaits `ensure` and hands on what it returns.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Protocol

from bot.engine import Ruleset, TurnPolicies, TurnPolicy, solve_turn

log = logging.getLogger(__name__)


class PolicyStore(Protocol):
    async def load(self, rules_key: str, on_board: bool) -> str | None: ...

    async def save(self, rules_key: str, on_board: bool, policy: str) -> None: ...


class PolicyCache:
    def __init__(self, store: PolicyStore | None = None, solved: Iterable[TurnPolicies] = ()) -> None:
        """`store=None` keeps solved policies in memory only; `solved`: handles solved before (a tool's,
        a test's), used as they are."""
        self._store = store
        self._lock = asyncio.Lock()
        self._solved = {policies.key: policies for policies in solved}  # by the turn's key (`Ruleset.key`)

    def ready(self, rules: Ruleset) -> TurnPolicies | None:
        """These rules' policies if they are solved or loaded already, else None (not ready: `ensure`)."""
        return self._solved.get(rules.key())

    async def ensure(self, rules: Ruleset) -> TurnPolicies:
        """These rules' policies, on and off the board: loaded or solved off the event loop the first time."""
        ready = self.ready(rules)
        if ready is not None:
            return ready
        async with self._lock:
            ready = self.ready(rules)
            if ready is None:
                on_board = await self._load_or_solve(rules, True)
                off_board = on_board if rules.entry_minimum == 0 else await self._load_or_solve(rules, False)
                ready = self._solved[rules.key()] = await asyncio.to_thread(
                    TurnPolicies.of, on_board, off_board
                )
            return ready

    async def _load_or_solve(self, rules: Ruleset, on_board: bool) -> TurnPolicy:
        stored = await self._store.load(rules.key(), on_board) if self._store is not None else None
        if stored is not None:
            try:
                return TurnPolicy.from_json(stored)
            except ValueError:
                log.info("Stored policy for %s is from another solver version; solving again", rules.name)
        policy = await asyncio.to_thread(solve_turn, rules, on_board)
        if self._store is not None:
            await self._store.save(rules.key(), on_board, policy.to_json())
        return policy
