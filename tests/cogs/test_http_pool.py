"""The bot's pool of connections to Discord's API is bounded: discord.py's own opens one for nearly every
answer in flight in a burst (each a TLS handshake on Discord)."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from bot.app.client import HTTP_CONNECTIONS, FarkleBot
from bot.core.environment import Settings


class LoggedIn(Exception):
    """Stands for the rest of the login: the pool it logs in with is all this test reads."""


async def test_the_bot_logs_in_with_a_bounded_pool_of_connections(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    pools: list[aiohttp.BaseConnector] = []

    async def static_login(http: discord.http.HTTPClient, token: str) -> None:
        pools.append(http.connector)
        raise LoggedIn

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", static_login)
    bot = FarkleBot(settings)
    with pytest.raises(LoggedIn):
        await bot.login("token")
    (pool,) = pools
    try:
        assert isinstance(pool, aiohttp.TCPConnector) and pool.limit == HTTP_CONNECTIONS > 0
    finally:
        await pool.close()
