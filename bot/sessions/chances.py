"""Live chances for three to six players, which the two-player win tables don't give.

The playouts (`bot/engine/multi.py`) take a few milliseconds of CPU, so they run in a worker thread, never
on the event loop, once per turn: a change that starts a turn awaits them before it is committed (the
game's lock is held, so nothing else moves the game meanwhile), and every snapshot of that turn reads
them by the game's position (`Session.estimated`). Kept by position, not in the session: a session put
back after a failed save finds them too.

Two-player games keep the tables' chances: where a ruleset's tables don't exist yet they are being
solved in a worker, and the board shows none meanwhile, as before.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.engine import Ruleset, TurnPolicies
from bot.engine.game import Game
from bot.engine.multi import Position, TurnDraws, estimate, position
from bot.sessions.policies import PolicyCache

if TYPE_CHECKING:
    from bot.sessions.session import Session

Chances = dict[str, float]
# Runs the playouts off the event loop: `asyncio.to_thread` in the bot.
Offload = Callable[[Callable[[Position, TurnPolicies], Chances], Position, TurnPolicies], Awaitable[Chances]]
Estimated = Callable[[Game], Chances]  # what a session reads: the chances kept for the game's position

_KEPT = 1024  # positions: a turn's each, for the games of a busy shard
_RULESETS_KEPT = 64  # turn draws: a few hundred KiB each


def none_estimated(game: Game) -> Chances:
    return {}


class LiveChances:
    """Estimates the chances of each turn of a game of three or more sides once, and keeps them."""

    def __init__(self, policies: PolicyCache, offload: Offload) -> None:
        self._policies = policies
        self._offload = offload
        self._estimates: OrderedDict[Position, Chances] = OrderedDict()
        self._draws: OrderedDict[Ruleset, TurnDraws] = OrderedDict()

    def estimated(self, game: Game) -> Chances:
        """The chances estimated for the game's position, or none yet (never computed here)."""
        at = _position(game)
        return self._estimates.get(at, {}) if at is not None else {}

    async def prepare(self, session: Session) -> None:
        """With live odds on, estimate the chances of the turn to play unless they are kept already."""
        game = session.game
        if game is None or not session.table.live_odds or (at := _position(game)) is None:
            return
        if at in self._estimates:
            return
        policies = await self._policies.ensure(game.rules)
        self._estimates[at] = await self._offload(self._estimate, at, policies)
        while len(self._estimates) > _KEPT:
            self._estimates.popitem(last=False)

    def _estimate(self, at: Position, policies: TurnPolicies) -> Chances:
        """In the worker: the rules' turn draws (laid out the first time, about a second), then the
        playouts."""
        draws = self._draws.get(at.rules)
        if draws is None:
            draws = self._draws[at.rules] = TurnDraws.of(policies, at.rules)
            while len(self._draws) > _RULESETS_KEPT:
                self._draws.popitem(last=False)
        return estimate(at, draws)


def _position(game: Game) -> Position | None:
    return position(game) if len(game.sides) > 2 else None
