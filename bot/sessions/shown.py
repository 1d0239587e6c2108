"""Which version each board message shows, written behind the moves in batches.

Only a start-up after a crash reads these marks (to redraw the boards that fell behind), and a mark that
never reached the database merely redraws one board once more. So they don't cost a transaction per
press: the marks made while one batch is being written go in the next one, a burst of presses across
hundreds of channels sharing a handful of writes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

Mark = tuple[int, str, int]  # channel id, game id, the version its board shows
WriteMarks = Callable[[list[Mark]], Awaitable[None]]


class ShownMarks:
    def __init__(self, write: WriteMarks) -> None:
        self._write = write
        self._pending: dict[int, Mark] = {}
        self._writer: asyncio.Task[None] | None = None

    def note(self, channel_id: int, game_id: str, version: int) -> None:
        self._pending[channel_id] = (channel_id, game_id, version)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_all(), name="farkle-shown-marks")

    async def _write_all(self) -> None:
        while self._pending:
            batch, self._pending = list(self._pending.values()), {}
            try:
                await self._write(batch)
            except Exception:  # only needless redraws after the next restart are at stake
                log.exception("Could not record which version %d boards show", len(batch))

    async def close(self) -> None:
        """Write what is pending before the database closes (a clean stop redraws nothing needlessly)."""
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)
