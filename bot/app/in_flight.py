"""Answers in flight: what a shutdown lets finish, and the garbage collector tuned around bursts of them.

Every answer leaves discord.py's interaction and its response in reference cycles: answered one at a time
they die young, but in a burst they outlive the collector's young generations. So a burst pauses the
collector until its first quiet moment, which collects every generation and gives memory back.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from typing import Any

from bot.app.memory import release_memory

# After a burst (this many answers in flight at once), the first moment nothing is being answered collects
# garbage and gives memory back (300 games started 50 at a time: 32 -> 20 KB a game).
BURST_ANSWERS = 10
# The collector's thresholds once started (CPython: 700, 10, 10): collecting every 700 allocations walked
# the presses in flight again and again, a tenth of a Roll's CPU in a burst.
COLLECT_AFTER = (5000, 20, 20)
# A burst this long, that never pauses, resumes collecting: an answer leaves a few KB of cycles.
PAUSE_COLLECTOR_AT_MOST = 2000


class AnswersInFlight:
    """The interactions being answered, and the work a shutdown lets finish after them (turn pings)."""

    def __init__(self) -> None:
        self._answering: set[asyncio.Task[Any]] = set()
        self._quiet = asyncio.Event()  # set while no interaction is being answered
        self._quiet.set()
        self._busiest = 0  # the most answers in flight at once since the last quiet moment
        self._answers_paused = 0  # answers begun since this burst paused the collector
        self._finishing: set[asyncio.Task[Any]] = set()

    def answering(self) -> None:
        """The current task answers an interaction: a shutdown lets it finish (its reply and its database
        writes) before closing the connection and the database under it."""
        task = asyncio.current_task()
        if task is not None and task not in self._answering:
            self._answering.add(task)
            self._busiest = max(self._busiest, len(self._answering))
            self._pause_collector()
            self._quiet.clear()
            task.add_done_callback(self._answered)

    def is_answering(self, task: asyncio.Task[Any] | None) -> bool:
        return task in self._answering

    def _answered(self, task: asyncio.Task[Any]) -> None:
        self._answering.discard(task)
        if not self._answering:
            self._quiet.set()
            if self._busiest >= BURST_ANSWERS:  # a few ms, with nobody waiting
                release_memory()
            self._busiest = 0
            if self._answers_paused:
                self._answers_paused = 0
                gc.enable()

    def _pause_collector(self) -> None:
        """In a burst, the collector waits for the first quiet moment (which collects every generation):
        it would walk the answers in flight again and again. A burst that never ends resumes it after
        `PAUSE_COLLECTOR_AT_MOST` answers, so the garbage answers leave stays bounded."""
        if self._busiest < BURST_ANSWERS:
            return
        self._answers_paused += 1
        if self._answers_paused == 1:
            gc.disable()
        elif self._answers_paused > PAUSE_COLLECTOR_AT_MOST:
            gc.enable()

    async def quiet(self, at_most: float) -> None:
        """Return once no interaction is being answered, or after `at_most` seconds: a player waits for
        their answer (Discord gives it 3 s), the next player's turn ping can wait out a burst of presses."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._quiet.wait(), at_most)

    def finish_before_closing(self, task: asyncio.Task[Any]) -> None:
        """A shutdown lets `task` (a turn ping on its way) finish, after the stream's subscribers."""
        self._finishing.add(task)
        task.add_done_callback(self._finishing.discard)

    async def answered(self, within: float) -> None:
        """Wait, at most `within` seconds, for the answers in flight (but the current task's own)."""
        in_flight = self._answering - {asyncio.current_task()}
        if in_flight:
            await asyncio.wait(in_flight, timeout=within)

    async def finished(self, within: float) -> None:
        """Wait, at most `within` seconds, for the work a shutdown lets finish."""
        if self._finishing:
            await asyncio.wait(set(self._finishing), timeout=within)


def tune_collector() -> None:
    """After start-up: everything loaded so far (discord.py, NumPy, the catalogues, restored games) lives as
    long as the process, so it leaves every collection, and young collections come less often."""
    release_memory()
    gc.freeze()
    gc.set_threshold(*COLLECT_AFTER)
