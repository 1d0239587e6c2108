"""What each board message shows and which turn ping it has, written behind the moves in batches.

Only a start-up after a crash reads these marks (to redraw the boards that fell behind and ping turns
never pinged), and a mark that never reached the database merely redraws one board or posts one ping
once more. So they cost no transaction of their own: the marks made while one batch is being written
go in the next one, a burst of presses across hundreds of channels sharing a handful of writes, and a
turn-passing press notes its board and its ping as one mark (its move's commit plus one write).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.records import BoardMark

log = logging.getLogger(__name__)

WriteMarks = Callable[[list[BoardMark]], Awaitable[None]]


class BoardMarks:
    def __init__(self, write: WriteMarks) -> None:
        self._write = write
        self._pending: dict[int, BoardMark] = {}
        self._writer: asyncio.Task[None] | None = None

    def note(self, mark: BoardMark) -> None:
        """Queue a mark; one still waiting for the same channel and game is merged into it."""
        earlier = self._pending.get(mark.channel_id)
        if earlier is not None and earlier.game_id == mark.game_id:
            mark = BoardMark(
                mark.channel_id,
                mark.game_id,
                mark.shown_version if mark.shown_version is not None else earlier.shown_version,
                mark.ping if mark.ping is not None else earlier.ping,
            )
        self._pending[mark.channel_id] = mark
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_all(), name="farkle-board-marks")

    async def _write_all(self) -> None:
        while self._pending:
            batch, self._pending = list(self._pending.values()), {}
            try:
                await self._write(batch)
            except Exception as error:  # only needless redraws or pings after the next restart are at stake
                log.warning("Could not record what %d boards show: %s", len(batch), error)

    async def close(self) -> None:
        """Write what is pending before the database closes (a clean stop redraws nothing needlessly)."""
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)
