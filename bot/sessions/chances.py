"""Live chances the two-player win tables don't give (three to six players, rules without tables yet).

The playouts (`bot/engine/multi.py`) take a few milliseconds of CPU, so they run in a worker thread, never
on the event loop, once per turn: a change that starts a turn awaits them before it is committed (the
game's lock is held, so nothing else moves the game meanwhile), and every snapshot of that turn reads
them from the session (`Session.estimated`).
"""

from __future__ import annotations

import asyncio

from bot.engine.multi import estimate, position
from bot.engine.review import measure_for
from bot.engine.win.tables import tables_for
from bot.sessions.session import Session


async def estimate_chances(session: Session) -> None:
    """With live odds on, estimate the chances of the turn to play unless the tables give them or the
    session holds them already."""
    game = session.game
    if game is None or not session.table.live_odds or measure_for(game, tables_for(game.rules)) == "win":
        return
    at = position(game)
    if at is None or (session.estimated is not None and session.estimated[0] == at):
        return
    session.estimated = (at, await asyncio.to_thread(estimate, at))
