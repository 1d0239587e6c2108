"""`/farkle`: playing in a channel. Discord glue only; the session manager decides everything."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import FarkleBot


@app_commands.guild_only()
class Farkle(commands.GroupCog, group_name="farkle", group_description="Play Farkle in this channel"):
    def __init__(self, bot: FarkleBot) -> None:
        self.bot = bot

    @app_commands.command(description="How to play Farkle with this bot")
    async def help(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="How to play Farkle", colour=discord.Colour.gold())
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: FarkleBot) -> None:
    await bot.add_cog(Farkle(bot))
