"""The one source of time for sessions and timers, so tests can control it.

Only the protocol lives here (the session layer imports it); the real one is
`bot.app.system_clock.SystemClock`.
"""

from __future__ import annotations

from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch; deadlines are stored in this unit so they survive restarts."""
        ...

    async def sleep_until(self, deadline: float) -> None:
        """Return once `now()` has reached `deadline`."""
        ...
