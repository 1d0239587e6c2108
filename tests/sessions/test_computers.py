"""ComputerRunner: a game's computer turn is played by one task at a time, and a wake is never lost."""

from __future__ import annotations

import asyncio

from bot.sessions.computers import ComputerRunner
from tests.fakes import FakeClock


async def test_a_wake_just_after_a_task_finished_starts_a_new_one() -> None:
    """The turn came back to the computer as its last task ended, before that task's done callback ran:
    the wake must start a new task, not take the finished one for a running one."""
    steps: list[str] = []
    runner: ComputerRunner

    async def step(game_id: str) -> bool:
        steps.append(game_id)
        if len(steps) == 1:
            # Runs after this task ends but before its done callback (queued later): the wake a press
            # passing the turn to the computer would make.
            asyncio.get_running_loop().call_soon(runner.wake, game_id)
        return False

    runner = ComputerRunner(FakeClock(), 0.0, step)  # no pause: not what is tested here
    runner.wake("g1")
    for _ in range(10):
        await asyncio.sleep(0)
    await runner.close()
    assert steps == ["g1", "g1"]
