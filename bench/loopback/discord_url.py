"""Points an unmodified discord.py at the loopback server: its REST base and its gateway URL."""

from __future__ import annotations

import discord
import yarl
from discord.gateway import DiscordWebSocket

from .payloads import API, GATEWAY_PATH


def point_discord_at(url: str) -> None:
    """Every REST route (webhooks and interaction callbacks too) and the first gateway connection."""
    discord.http.Route.BASE = url + API
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url.replace("http://", "ws://") + GATEWAY_PATH)
