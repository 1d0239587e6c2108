"""Posts a season's final standings in the channel its server chose; the `SeasonKeeper` decides when, and
makes sure it happens once."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.app.wiring import Hooks
from bot.render.stats import season_embed
from bot.services.seasons import SeasonEnded
from cogs.language import server_public

if TYPE_CHECKING:
    from bot.app.client import FarkleBot

log = logging.getLogger(__name__)


class SeasonPosts(commands.Cog):
    def __init__(self, bot: FarkleBot) -> None:
        self.bot = bot

    def hooks(self) -> Hooks:
        return Hooks(season_posts=self.post)

    async def post(self, ended: SeasonEnded) -> int | None:
        """The standings, in the server's language; None when the channel is gone or closed to the bot
        (the post is then given up: a season ends once)."""
        tr = await server_public(self.bot, ended.guild_id)
        try:
            channel = self.bot.get_channel(ended.channel_id) or await self.bot.fetch_channel(ended.channel_id)
            if not isinstance(channel, discord.abc.Messageable):
                raise TypeError(f"channel {ended.channel_id} takes no messages")
            message = await channel.send(embed=season_embed(ended.season, ended.standings, tr))
        except (discord.HTTPException, TypeError) as error:
            log.warning("Season %s of guild %s not posted: %s", ended.season, ended.guild_id, error)
            return None
        return message.id


async def setup(bot: FarkleBot) -> None:
    await bot.add_cog(SeasonPosts(bot))
