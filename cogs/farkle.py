"""`/farkle`: the slash commands. Each parses the interaction, asks the session manager and hands the
outcome to the board edge (`cogs.board.boards`), which draws it; the buttons are answered there."""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import replace
from typing import Any, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.app.client import FarkleBot
from bot.app.errors import reply_ephemeral
from bot.engine.messages import Message
from bot.engine.skilled import HIGHEST_SKILL, LOWEST_SKILL, skill_level
from bot.render.choices import matching
from bot.render.help import help_embed, rules_embed
from bot.render.words import echo, rules_name
from bot.services.i18n import for_member, language_of
from bot.sessions.outcome import Outcome
from bot.sessions.requests import Host
from bot.sessions.skill_levels import YOUR_LEVEL
from cogs.activity import TableButton
from cogs.board.boards import Boards
from cogs.board.delivery import board_scope, channel_routes, forced_ephemeral
from cogs.daily import DailyButton, DailyCommands
from cogs.language import public
from cogs.replay import ReplayCommands, ReplayPage
from cogs.review import ReviewButton, ReviewCommands
from cogs.stats import PageButton, StatsCommands
from cogs.threads import NO_THREAD, open_game_thread, show_lobby_in_thread
from cogs.tournament.button import TournamentButton
from cogs.tournament.commands import TournamentCommands
from cogs.tournament.desk import TournamentDesk
from cogs.watch import WatchCommands

# A server that turned external apps off makes every answer private: a board only its host could see.
NO_SHARED_GAME = Message(
    "This server lets apps like Farkle answer only privately, so a game everyone can see can't be posted "
    "here. Play in a channel where Farkle is a member, in a group DM, or in a DM with me."
)


@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class Farkle(
    StatsCommands,
    WatchCommands,
    DailyCommands,
    ReviewCommands,
    TournamentCommands,
    ReplayCommands,
    commands.GroupCog,
    group_name="farkle",
    group_description=locale_str("Play Farkle in this channel"),
):
    def __init__(self, bot: FarkleBot) -> None:
        self.bot = bot
        self.manager = bot.services.sessions

    @property
    def boards(self) -> Boards:
        """The board edge (`cogs.board.boards`): every board and ping this cog's commands produce goes
        there."""
        return cast(Boards, self.bot.get_cog(Boards.__cog_name__))

    # ------------------------------------------------------------------ commands

    @app_commands.command(description=locale_str("Open a Farkle lobby in this channel"))
    @app_commands.describe(rules=locale_str("Which rules to play (default: this server's)"))
    async def new(self, interaction: discord.Interaction, rules: str | None = None) -> None:
        assert interaction.channel_id is not None
        if forced_ephemeral(interaction):
            await reply_ephemeral(interaction, for_member(interaction).say(NO_SHARED_GAME))
            return
        scope = board_scope(interaction)
        config = await self.bot.services.config.get(scope)
        ruleset = await self.bot.services.config.resolve(scope, rules) if rules else config.ruleset
        if ruleset is None:
            names = await self.bot.services.config.rules_names(scope)
            unknown = for_member(interaction).text(
                "Unknown rules “{name}”: choose one of {names}.",
                name=echo(str(rules)),
                names=", ".join(names),
            )
            await reply_ephemeral(interaction, unknown)
            return
        user = interaction.user
        table = config.table
        in_channel = channel_routes(interaction)
        if table.language is None and not (in_channel and interaction.guild_id):  # no server's language here
            table = replace(table, language=language_of(interaction.guild_locale or interaction.locale))

        def open_in(channel_id: int) -> Awaitable[Outcome]:
            return self.manager.open_lobby(
                Host(scope, channel_id, user.id, user.display_name), ruleset, table
            )

        threads = config.threads and in_channel and interaction.guild_id is not None
        thread, no_thread = await open_game_thread(interaction) if threads else (None, None)
        if thread is not None:
            outcome = await open_in(thread.id)
            tr = public(self.bot, config.table.language, interaction.guild_id)
            posted = await show_lobby_in_thread(
                interaction, self.manager, outcome, thread, tr, self.boards.publisher.post_in
            )
            if posted:
                return
            no_thread = NO_THREAD
        await self.boards.show(interaction, await open_in(interaction.channel_id))
        if no_thread:
            await interaction.followup.send(for_member(interaction).term(no_thread), ephemeral=True)

    @new.autocomplete("rules")
    async def _rules_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return matching(await self.bot.services.config.rules_names(board_scope(interaction)), current)

    @app_commands.command(description=locale_str("Join the lobby in this channel"))
    async def join(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        outcome = await self.manager.join(
            interaction.channel_id, interaction.user.id, interaction.user.display_name
        )
        await self.boards.show(interaction, outcome)

    @app_commands.command(description=locale_str("Leave the lobby or the game in this channel"))
    async def leave(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        await self.boards.show(
            interaction, await self.manager.leave(interaction.channel_id, interaction.user.id)
        )

    @app_commands.command(description=locale_str("Start the game (host only)"))
    async def start(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        await self.boards.show(
            interaction, await self.manager.start(interaction.channel_id, interaction.user.id)
        )

    @app_commands.command(description=locale_str("Add a computer at a chosen skill to the lobby (host only)"))
    @app_commands.describe(skill=locale_str("The skill it plays at, 20 to 100 (default: yours)"))
    async def computer(
        self,
        interaction: discord.Interaction,
        skill: app_commands.Range[int, LOWEST_SKILL, HIGHEST_SKILL] | None = None,
    ) -> None:
        assert interaction.channel_id is not None
        level = YOUR_LEVEL if skill is None else skill_level(skill)
        outcome = await self.manager.add_computer(interaction.channel_id, interaction.user.id, level)
        await self.boards.show(interaction, outcome)

    @app_commands.command(
        description=locale_str("End the lobby or game in this channel (host or Manage Messages)")
    )
    async def end(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        moderator = interaction.permissions.manage_messages
        outcome = await self.manager.cancel(interaction.channel_id, interaction.user.id, moderator=moderator)
        await self.boards.show(interaction, outcome)

    @app_commands.command(description=locale_str("Post the game board again at the bottom of the channel"))
    async def board(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        snapshot = self.manager.snapshot(interaction.channel_id)
        if snapshot is None or snapshot.stage == "closed":
            tr = for_member(interaction)
            await reply_ephemeral(
                interaction, tr.text("There is no Farkle game in this channel: start one with `/farkle new`.")
            )
            return
        await self.boards.publisher.post_again(interaction, snapshot)

    @app_commands.command(description=locale_str("The rules of this channel's game, in plain words"))
    async def rules(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        tr = for_member(interaction)
        snapshot = self.manager.snapshot(interaction.channel_id)
        if snapshot is not None and snapshot.stage != "closed":
            ruleset = snapshot.rules
            title = tr.text("Rules of this game: {rules}", rules=rules_name(ruleset.name, tr))
        else:
            ruleset = (await self.bot.services.config.get(board_scope(interaction))).ruleset
            title = tr.text("This server's rules: {rules}", rules=rules_name(ruleset.name, tr))
        embed = rules_embed(ruleset, tr, title=title)
        embed.set_footer(text=tr.text("Target {points}", points=tr.points(ruleset.target)))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(description=locale_str("How to play Farkle with this bot"))
    async def help(self, interaction: discord.Interaction) -> None:
        embed = help_embed(for_member(interaction), command_descriptions(self.bot.tree))
        await interaction.response.send_message(embed=embed, ephemeral=True)


def command_descriptions(tree: app_commands.CommandTree[Any]) -> dict[str, str]:
    """Every slash command's description (the message id it was declared with) by its full name, for the
    help card: a command's description is written once, on the command."""
    return {
        command.qualified_name: command.description
        for command in tree.walk_commands()
        if isinstance(command, app_commands.Command)
    }


async def setup(bot: FarkleBot) -> None:
    bot.add_dynamic_items(PageButton, DailyButton, ReviewButton, TournamentButton, ReplayPage, TableButton)
    await bot.add_cog(TournamentDesk(bot))
    await bot.add_cog(Farkle(bot))
