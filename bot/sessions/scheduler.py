"""One sleeping task for many deadlines: thousands of games cost one timer, not thousands."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, Generic, TypeVar

from bot.core.clock import Clock

Key = TypeVar("Key")
Alarm = TypeVar("Alarm")


class DeadlineScheduler(Generic[Key, Alarm]):
    """At most one alarm per key; each rings `ring(key, alarm)` as its own short task when it is due.

    The task sleeps until the earliest alarm and is restarted only when an earlier one appears.
    """

    def __init__(
        self, clock: Clock, ring: Callable[[Key, Alarm], Coroutine[Any, Any, None]], name: str
    ) -> None:
        self._clock = clock
        self._ring = ring
        self._name = name
        self._alarms: dict[Key, tuple[float, Alarm]] = {}
        self._wakes_at: float | None = None
        self._task: asyncio.Task[None] | None = None
        self._ringing: set[asyncio.Task[None]] = set()

    def set(self, key: Key, when: float, alarm: Alarm) -> None:
        self._alarms[key] = (when, alarm)
        if not self._wakes_by(when):  # every move re-arms a timer: no scan of them all when it does
            self._reschedule()

    def cancel(self, key: Key) -> None:
        self._alarms.pop(key, None)

    def pending(self, key: Key) -> Alarm | None:
        entry = self._alarms.get(key)
        return entry[1] if entry else None

    async def close(self) -> None:
        tasks = [*self._ringing, *([self._task] if self._task else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._alarms.clear()
        self._task = None

    def _reschedule(self) -> None:
        earliest = min((when for when, _ in self._alarms.values()), default=None)
        if earliest is None or self._wakes_by(earliest):
            return
        if self._task is not None:
            self._task.cancel()
        self._task = asyncio.create_task(self._run(), name=self._name)

    def _wakes_by(self, when: float) -> bool:
        """The sleeping task already wakes at or before `when`."""
        running = self._task is not None and not self._task.done()
        return running and self._wakes_at is not None and self._wakes_at <= when

    async def _run(self) -> None:
        while self._alarms:
            self._wakes_at = min(when for when, _ in self._alarms.values())
            await self._clock.sleep_until(self._wakes_at)
            now = self._clock.now()
            for key, (when, alarm) in list(self._alarms.items()):
                if when <= now:
                    del self._alarms[key]
                    ring = asyncio.create_task(self._ring(key, alarm), name=f"{self._name}-{key}")
                    self._ringing.add(ring)
                    ring.add_done_callback(self._ringing.discard)
        self._wakes_at = None
