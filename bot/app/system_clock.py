"""The production clock (`bot.core.clock.Clock`): discord.py's idea of now, and asyncio's sleep.

SimCord virtualises both `discord.utils.utcnow` and `asyncio.sleep`, so tests run the bot with it unchanged.
"""

from __future__ import annotations

import asyncio

import discord


class SystemClock:
    def now(self) -> float:
        return discord.utils.utcnow().timestamp()

    async def sleep_until(self, deadline: float) -> None:
        delay = deadline - self.now()
        if delay > 0:
            await asyncio.sleep(delay)
