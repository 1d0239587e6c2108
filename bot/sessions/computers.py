"""Computer players take their turns themselves: one task per channel, a step, a pause, the next step."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.clock import Clock

# Takes one move in the channel's game, if it is still a computer's turn in that game; False once not.
Step = Callable[[int, str], Awaitable[bool]]


class ComputerRunner:
    def __init__(self, clock: Clock, pause: float, step: Step) -> None:
        self._clock = clock
        self._pause = pause
        self._step = step
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def wake(self, channel_id: int, game_id: str) -> None:
        """Start playing the channel's computer turn, unless a task is already at it."""
        running = self._tasks.get(channel_id)
        if running is not None and not running.done():
            return
        self._tasks[channel_id] = asyncio.create_task(
            self._play(channel_id, game_id), name=f"farkle-cpu-{channel_id}"
        )

    async def _play(self, channel_id: int, game_id: str) -> None:
        """Pause before each move, so players can follow the computer's turn on the board."""
        while True:
            await self._clock.sleep_until(self._clock.now() + self._pause)
            if not await self._step(channel_id, game_id):
                return

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
