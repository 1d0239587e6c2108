"""Live chances for three to six players, which the two-player win tables don't give.

The playouts (`bot/engine/multi.py`) take a few milliseconds of CPU, so they run in a worker thread, never
on the event loop, once per turn: a change that starts a turn awaits them before it is committed (the
game's lock is held, so nothing else moves the game meanwhile), and every snapshot of that turn reads
them here by the game's position. Kept by position, not in the session: a session put back after a
failed save, or the same game drawn from another view, finds them too.

Two-player games keep the tables' chances: where a ruleset's tables don't exist yet they are being
solved in a worker, and the board shows none meanwhile, as before.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.engine.game import Game
from bot.engine.multi import Position, estimate, position

if TYPE_CHECKING:
    from bot.sessions.session import Session

# Runs the playouts off the event loop: `asyncio.to_thread` in the bot.
Offload = Callable[[Callable[[Position], dict[str, float]], Position], Awaitable[dict[str, float]]]

_KEPT = 1024  # positions: a turn's each, for the games of a busy shard
_estimates: OrderedDict[Position, dict[str, float]] = OrderedDict()


def estimated(game: Game) -> dict[str, float]:
    """The chances estimated for the game's position, or none yet (never computed here)."""
    at = _position(game)
    return _estimates.get(at, {}) if at is not None else {}


async def estimate_chances(session: Session, offload: Offload) -> None:
    """With live odds on, estimate the chances of the turn to play in a game of three or more sides,
    unless they are kept already."""
    game = session.game
    if game is None or not session.table.live_odds or (at := _position(game)) is None or at in _estimates:
        return
    _estimates[at] = await offload(estimate, at)
    while len(_estimates) > _KEPT:
        _estimates.popitem(last=False)


def _position(game: Game) -> Position | None:
    return position(game) if len(game.sides) > 2 else None
