"""The one source of time for sessions and timers, so tests can control it."""

from __future__ import annotations

import asyncio
from typing import Protocol

import discord


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch; deadlines are stored in this unit so they survive restarts."""
        ...

    async def sleep_until(self, deadline: float) -> None:
        """Return once `now()` has reached `deadline`."""
        ...


class SystemClock:
    """Wall-clock time; SimCord virtualises both `utcnow` and `asyncio.sleep`, so tests use it unchanged."""

    def now(self) -> float:
        return discord.utils.utcnow().timestamp()

    async def sleep_until(self, deadline: float) -> None:
        delay = deadline - self.now()
        if delay > 0:
            await asyncio.sleep(delay)
