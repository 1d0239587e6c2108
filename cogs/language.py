"""The language of the messages a whole channel reads: one function, used by every board and ping."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.render.language import Translator
from bot.services.i18n import for_server

if TYPE_CHECKING:
    from bot.app.client import FarkleBot


def public(client: discord.Client, setting: str | None, guild_id: int | None) -> Translator:
    """The server's language setting (a game keeps the one it was created with), else its locale."""
    guild = client.get_guild(guild_id) if guild_id is not None else None
    return for_server(setting, guild.preferred_locale if guild is not None else None)


async def server_public(bot: FarkleBot, guild_id: int) -> Translator:
    """What a server's channels read outside any game: its language setting now, else its locale."""
    return public(bot, await bot.services.config.language(guild_id), guild_id)
