"""Computer players take their turns themselves: one task per game, a step, a pause, the next step."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.core.clock import Clock

# Takes one move in the game (by id), if it is still a computer's turn in it; False once not.
Step = Callable[[str], Awaitable[bool]]


class ComputerRunner:
    def __init__(self, clock: Clock, pause: float, step: Step) -> None:
        self._clock = clock
        self._pause = pause
        self._step = step
        self._tasks: dict[str, asyncio.Task[None]] = {}  # by game id, while one plays

    def wake(self, game_id: str) -> None:
        """Start playing the game's computer turn, unless a task is already at it."""
        running = self._tasks.get(game_id)
        if running is not None and not running.done():  # a finished task's callback may not have run yet
            return
        task = asyncio.create_task(self._play(game_id), name=f"farkle-cpu-{game_id}")
        self._tasks[game_id] = task
        task.add_done_callback(lambda done: self._forget(game_id, done))

    def _forget(self, game_id: str, task: asyncio.Task[None]) -> None:
        """A finished task leaves, unless a newer one for its game already took its place."""
        if self._tasks.get(game_id) is task:
            del self._tasks[game_id]

    async def _play(self, game_id: str) -> None:
        """Pause before each move, so players can follow the computer's turn on the board."""
        while True:
            await self._clock.sleep_until(self._clock.now() + self._pause)
            if not await self._step(game_id):
                return

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
