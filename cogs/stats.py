"""`/farkle leaderboard`, `stats`, `history`, `forget-me`, `reset-leaderboard` (`replay`: `cogs/replay.py`).

A mixin of the `/farkle` group cog (Discord applies one command group per cog); it asks the bot's
`StatsService` and draws the answers with `bot.render.stats`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.core.periods import Season
from bot.core.records import METRICS, PERIODS, Metric, Period
from bot.render.daily import add_profile
from bot.render.language import Translator
from bot.render.stats import (
    METRIC_NAMES,
    PAGE_TEMPLATE,
    PERIOD_NAMES,
    add_seasons,
    history_embed,
    leaderboard_embed,
    leaderboard_view,
    stats_embed,
)
from bot.services.i18n import for_member
from cogs.board.delivery import board_scope
from cogs.buttons import answer_by_farkle
from cogs.confirm import ask_to_confirm
from cogs.language import server_public

if TYPE_CHECKING:
    from bot.app.client import FarkleBot

METRIC_CHOICES = [app_commands.Choice(name=locale_str(METRIC_NAMES[m]), value=m) for m in METRICS]
PERIOD_CHOICES = [
    app_commands.Choice(name=locale_str(name), value=period) for period, name in PERIOD_NAMES.items()
]
SCOPE_CHOICES = [
    app_commands.Choice(name=locale_str("this channel"), value="channel"),
    app_commands.Choice(name=locale_str("the whole server"), value="server"),
]


def _period(typed: str) -> Period:
    return next((period for period in PERIODS if period == typed), "all")


def _in_a_server(interaction: discord.Interaction) -> bool:
    """A server's own command sent from a DM or group DM is answered as every server-only command is there
    (`NoPrivateMessage`: "This works in a server only"), not with a permission no DM can grant."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return True


class StatsCommands(commands.Cog):
    bot: FarkleBot

    async def _server_tr(self, guild_id: int) -> Translator:
        """Pages everyone in the channel reads are in the server's language."""
        return await server_public(self.bot, guild_id)

    async def _leaderboard_page(
        self, guild_id: int, user_id: int, metric: Metric, period: Period, page: int
    ) -> tuple[discord.Embed, discord.ui.View]:
        season_length = await self.bot.services.config.season(guild_id)
        shown = await self.bot.services.stats.leaderboard(
            guild_id, user_id, metric, period, page, season_length
        )
        season = shown.window.key if isinstance(shown.window, Season) else None
        tr = await self._server_tr(guild_id)
        embed = leaderboard_embed(
            metric,
            period,
            page,
            shown.rows,
            shown.total,
            shown.mine,
            tr,
            minimum=shown.minimum,
            counted=shown.counted,
            season=season,
        )
        return embed, leaderboard_view(metric, period, page, shown.total, tr)

    @app_commands.command(description=locale_str("This server's best Farkle players"))
    @app_commands.describe(
        metric=locale_str("What to rank by (default: rating)"),
        period=locale_str("All time (default), the last 30 days, this week, this month or this season"),
    )
    @app_commands.choices(metric=METRIC_CHOICES, period=PERIOD_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        metric: app_commands.Choice[str] | None = None,
        period: app_commands.Choice[str] | None = None,
    ) -> None:
        ranked_by: Metric = metric.value if metric and metric.value in METRICS else "rating"
        over = _period(period.value if period else "all")
        embed, view = await self._leaderboard_page(
            board_scope(interaction), interaction.user.id, ranked_by, over, 0
        )
        await interaction.response.send_message(embed=embed, view=view)

    async def turn_page(
        self, interaction: discord.Interaction, metric: Metric, period: Period, page: int
    ) -> None:
        embed, view = await self._leaderboard_page(
            board_scope(interaction), interaction.user.id, metric, period, page
        )
        await interaction.response.edit_message(embed=embed, view=view)

    @app_commands.command(description=locale_str("A member's Farkle numbers in this server"))
    @app_commands.describe(member=locale_str("Whose numbers (default: yours)"))
    async def stats(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        who = member or interaction.user
        scope = board_scope(interaction)
        if interaction.guild_id is None:  # a DM or group DM: the member's numbers everywhere
            tr = for_member(interaction)
            row, skill = await self.bot.services.stats.overall(who.id)
            embed = stats_embed(who.display_name, row, tr, everywhere=True, skill=skill)
        else:
            member_stats = await self.bot.services.stats.member(scope, who.id)
            tr = await self._server_tr(scope)
            embed = stats_embed(
                who.display_name, member_stats.row, tr, member_stats.accuracy, skill=member_stats.skill
            )
            add_seasons(embed, member_stats.seasons, tr)
        add_profile(embed, await self.bot.services.daily.profile(who.id), tr)
        await interaction.response.send_message(embed=embed)

    @app_commands.command(description=locale_str("The last finished games in this channel or server"))
    @app_commands.describe(scope=locale_str("This channel (default) or the whole server"))
    @app_commands.choices(scope=SCOPE_CHOICES)
    async def history(
        self, interaction: discord.Interaction, scope: app_commands.Choice[str] | None = None
    ) -> None:
        tr = for_member(interaction)
        whole_server = scope is not None and scope.value == "server"
        channel_id = None if whole_server else interaction.channel_id
        games = await self.bot.services.stats.history(board_scope(interaction), channel_id)
        if channel_id:
            title = tr.text("🎲 Recent Farkle games in this channel")
        else:
            title = tr.text("🎲 Recent Farkle games in this server")
        await interaction.response.send_message(embed=history_embed(title, games, tr), ephemeral=True)

    @app_commands.command(
        name="forget-me", description=locale_str("Delete your Farkle statistics and your name in past games")
    )
    async def forget_me(self, interaction: discord.Interaction) -> None:
        tr = for_member(interaction)
        warning = tr.text(
            "This deletes your Farkle statistics, daily attempts and achievements in every server and "
            "replaces your name in past games. It cannot be undone."
        )
        confirmed = await ask_to_confirm(interaction, tr, tr.text("Delete my statistics"), warning)
        if confirmed is not None:
            await self.bot.services.stats.forget(interaction.user.id)
            await confirmed.response.edit_message(
                content=tr.text("Done: your statistics and name are gone."), view=None
            )

    @app_commands.command(
        name="reset-leaderboard", description=locale_str("Reset this server's leaderboard (Manage Server)")
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.check(_in_a_server)  # checked first: a DM has no server to manage
    async def reset_leaderboard(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        tr = for_member(interaction)
        warning = tr.text(
            "This deletes every member's statistics in this server; game history stays. It cannot be undone."
        )
        confirmed = await ask_to_confirm(interaction, tr, tr.text("Reset the leaderboard"), warning)
        if confirmed is not None:
            await self.bot.services.stats.reset(interaction.guild_id)
            await confirmed.response.edit_message(
                content=tr.text("Done: the leaderboard starts from zero."), view=None
            )


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=PAGE_TEMPLATE):
    """Previous/Next on any leaderboard message, even one posted before a restart: the id carries the
    page (`farkle-lb:<metric>:<period>:<page>:<which>`), so the press is answered here, statelessly."""

    def __init__(self, metric: Metric, period: Period, page: int, which: str) -> None:
        super().__init__(discord.ui.Button(custom_id=f"farkle-lb:{metric}:{period}:{page}:{which}"))
        self.metric, self.period, self.page = metric, period, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PageButton:
        metric = match["metric"] if match["metric"] in METRICS else "rating"
        return cls(metric, _period(match["period"]), int(match["page"]), match["which"])

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Only a button press turns the page: a select payload carrying this id was forged."""
        pressed = interaction.data.get("component_type") if interaction.data else None
        return pressed == discord.ComponentType.button.value

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer_by_farkle(
            interaction,
            StatsCommands,
            lambda pages: pages.turn_page(interaction, self.metric, self.period, self.page),
        )
