"""`/farkle review` and the results' Review button: a finished game's review (with its chance-to-win chart
attached), privately to who asked.

A mixin of the `/farkle` group cog, like `StatsCommands`; it asks the bot's `StatsService` (the same
scope as `/farkle replay`: any finished game of this server) and draws with `bot.render.review`.
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.render.review import CHART_FILE, REVIEW_TEMPLATE, review_card
from bot.render.words import echo
from bot.services.i18n import for_member
from cogs.board.delivery import board_scope
from cogs.buttons import answer_by_farkle
from cogs.replay import recent_game_choices

if TYPE_CHECKING:
    from bot.app.client import FarkleBot


class ReviewCommands(commands.Cog):
    bot: FarkleBot

    async def show_review(self, interaction: discord.Interaction, game: str) -> None:
        """Answer privately: the review (computed now if the background review has not stored it yet)."""
        tr = for_member(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        scope = board_scope(interaction)
        replayed = await self.bot.services.stats.replay(scope, game, reviewed=True, charted=True)
        if replayed is None or replayed.review is None:
            missing = tr.text("No finished game `{game}` in this server.", game=echo(game))
            await interaction.followup.send(missing, ephemeral=True)
            return
        chart = replayed.chart
        drawn = review_card(
            game.strip().lower(),
            replayed.review,
            replayed.names,
            tr,
            self.bot.dice_art,
            chart=chart is not None,
        )
        # the chart rides with the answer as its attachment: no channel access needed (user installs)
        files = [discord.File(io.BytesIO(chart), filename=CHART_FILE)] if chart is not None else []
        await interaction.followup.send(view=drawn.view, files=files, ephemeral=True)

    @app_commands.command(description=locale_str("How well each player of a finished game played"))
    @app_commands.describe(game=locale_str("The game's id, from /farkle history or its results board"))
    async def review(self, interaction: discord.Interaction, game: str) -> None:
        await self.show_review(interaction, game)

    @review.autocomplete("game")
    async def _review_games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await recent_game_choices(self.bot, interaction, current)


class ReviewButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REVIEW_TEMPLATE):
    """The Review button on any results board, even one posted before a restart (`farkle-review:<game>`)."""

    def __init__(self, game_id: str) -> None:
        super().__init__(discord.ui.Button(custom_id=f"farkle-review:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReviewButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer_by_farkle(
            interaction, ReviewCommands, lambda reviews: reviews.show_review(interaction, self.game_id)
        )
