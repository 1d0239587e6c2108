"""`/farkle leaderboard`, `stats`, `history`, `replay`, `forget-me`, `reset-leaderboard`.

A mixin of the `/farkle` group cog (Discord applies one command group per cog); it asks the bot's
`StatsService` and draws the answers with `bot.render.stats`.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import report_error
from bot.records import Metric, Period
from bot.render.stats import (
    history_embed,
    leaderboard_embed,
    leaderboard_view,
    replay_lines,
    stats_embed,
)
from bot.render.words import echo
from cogs.confirm import ask_to_confirm

if TYPE_CHECKING:
    from bot.client import FarkleBot

MetricChoice = Literal["rating", "wins", "win_rate", "best_turn", "points"]
PeriodChoice = Literal["all", "30d"]
REPLAY_INLINE_LIMIT = 3800


class StatsCommands(commands.Cog):
    bot: FarkleBot

    async def _leaderboard_page(
        self, guild_id: int, user_id: int, metric: Metric, period: Period, page: int
    ) -> tuple[discord.Embed, discord.ui.View]:
        shown = await self.bot.stats.leaderboard(guild_id, user_id, metric, period, page)
        embed = leaderboard_embed(metric, period, page, shown.rows, shown.total, shown.mine)
        return embed, leaderboard_view(metric, period, page, shown.total)

    @app_commands.command(description="This server's best Farkle players")
    @app_commands.describe(metric="What to rank by (default: rating)", period="All time or the last 30 days")
    async def leaderboard(
        self, interaction: discord.Interaction, metric: MetricChoice = "rating", period: PeriodChoice = "all"
    ) -> None:
        assert interaction.guild_id is not None
        embed, view = await self._leaderboard_page(
            interaction.guild_id, interaction.user.id, metric, period, 0
        )
        await interaction.response.send_message(embed=embed, view=view)

    async def turn_page(
        self, interaction: discord.Interaction, metric: Metric, period: Period, page: int
    ) -> None:
        self.bot.answering()
        try:
            if interaction.guild_id is None:  # a forged press: Discord only shows these in servers
                raise app_commands.NoPrivateMessage()
            embed, view = await self._leaderboard_page(
                interaction.guild_id, interaction.user.id, metric, period, page
            )
            await interaction.response.edit_message(embed=embed, view=view)
        except Exception as error:
            await report_error(interaction, error)

    @app_commands.command(description="A member's Farkle numbers in this server")
    @app_commands.describe(member="Whose numbers (default: yours)")
    async def stats(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        assert interaction.guild_id is not None
        who = member or interaction.user
        row = await self.bot.stats.member(interaction.guild_id, who.id)
        await interaction.response.send_message(embed=stats_embed(who.display_name, row))

    @app_commands.command(description="The last finished games in this channel or server")
    @app_commands.describe(scope="This channel (default) or the whole server")
    async def history(
        self, interaction: discord.Interaction, scope: Literal["channel", "server"] = "channel"
    ) -> None:
        assert interaction.guild_id is not None
        channel_id = interaction.channel_id if scope == "channel" else None
        games = await self.bot.stats.history(interaction.guild_id, channel_id)
        title = "🎲 Recent Farkle games" + (" in this channel" if channel_id else " in this server")
        await interaction.response.send_message(embed=history_embed(title, games), ephemeral=True)

    @app_commands.command(description="A finished game, move by move")
    @app_commands.describe(game="The game's id, from /farkle history or its results board")
    async def replay(self, interaction: discord.Interaction, game: str) -> None:
        assert interaction.guild_id is not None
        replayed = await self.bot.stats.replay(interaction.guild_id, game)
        if replayed is None:
            await interaction.response.send_message(
                f"No finished game `{echo(game)}` in this server.", ephemeral=True
            )
            return
        text = "\n".join(replay_lines(replayed.game, replayed.names))
        if len(text) <= REPLAY_INLINE_LIMIT:
            await interaction.response.send_message(f"```\n{text}\n```", ephemeral=True)
        else:
            attachment = discord.File(io.BytesIO(text.encode()), filename=f"farkle-{game}.txt")
            await interaction.response.send_message(f"Game `{game}`:", file=attachment, ephemeral=True)

    @app_commands.command(
        name="forget-me", description="Delete your Farkle statistics and your name in past games"
    )
    async def forget_me(self, interaction: discord.Interaction) -> None:
        warning = (
            "This deletes your Farkle statistics in every server and replaces your name in past games. "
            "It cannot be undone."
        )
        confirmed = await ask_to_confirm(interaction, "Delete my statistics", warning)
        if confirmed is not None:
            await self.bot.stats.forget(interaction.user.id)
            await confirmed.response.edit_message(
                content="Done: your statistics and name are gone.", view=None
            )

    @app_commands.command(
        name="reset-leaderboard", description="Reset this server's leaderboard (Manage Server)"
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def reset_leaderboard(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        warning = (
            "This deletes every member's statistics in this server; game history stays. It cannot be undone."
        )
        confirmed = await ask_to_confirm(interaction, "Reset the leaderboard", warning)
        if confirmed is not None:
            await self.bot.stats.reset(interaction.guild_id)
            await confirmed.response.edit_message(
                content="Done: the leaderboard starts from zero.", view=None
            )
