"""`/farkle tournament`: new, list, show, start, cancel, advance, disqualify.

A mixin of the `/farkle` group cog (Discord applies one command group per cog); the door is
`bot.sessions.tournament.door.Tournaments`, and a new tournament's card is posted by the desk.
"""

from __future__ import annotations

import datetime
import re
from typing import TYPE_CHECKING, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.app.errors import reply_ephemeral, report_error
from bot.engine.messages import N_, Message
from bot.engine.skilled import HIGHEST_SKILL, LOWEST_SKILL, skill_level
from bot.render.language import Translator
from bot.render.tournament import tournament_card, tournament_list
from bot.render.words import echo
from bot.services.i18n import for_member
from bot.sessions.tournament.door import Tournaments
from bot.sessions.tournament.state import STAND_IN_LEVEL
from cogs.board.delivery import board_scope
from cogs.tournament.button import answer_privately
from cogs.tournament.desk import TournamentDesk

if TYPE_CHECKING:
    from bot.app.client import FarkleBot

FORMAT_CHOICES = [
    app_commands.Choice(name=locale_str("single elimination"), value="single"),
    app_commands.Choice(name=locale_str("Swiss"), value="swiss"),
]
LENGTH_CHOICES = [
    app_commands.Choice(name=locale_str("one game"), value=1),
    app_commands.Choice(name=locale_str("best of three"), value=3),
]


def not_a_time(typed: str) -> Message:
    return Message(
        "I can't read “{typed}” as a time: write it as 2026-12-24 18:00 (UTC) or a Discord timestamp <t:…>.",
        typed=echo(typed),
    )


def read_time(typed: str) -> float | None:
    """A sign-up deadline as members type it: `YYYY-MM-DD HH:MM` (UTC) or a Discord timestamp."""
    stamp = re.fullmatch(r"\s*<t:(\d{1,12})(?::[tTdDfFR])?>\s*", typed)
    if stamp:
        return float(stamp[1])
    try:
        when = datetime.datetime.strptime(typed.strip(), "%Y-%m-%d %H:%M")
    except ValueError:
        return None
    return when.replace(tzinfo=datetime.UTC).timestamp()


class TournamentCommands(commands.Cog):
    bot: FarkleBot

    tournament = app_commands.Group(
        name="tournament", description=locale_str("Run a Farkle tournament on this server"), guild_only=True
    )

    @property
    def tournaments(self) -> Tournaments:
        return self.bot.services.tournaments

    def _manager(self, interaction: discord.Interaction) -> bool:
        """Manage Server runs any tournament of the server; a host runs their own."""
        return interaction.permissions.manage_guild

    async def _may_not_hold(self, interaction: discord.Interaction, tr: Translator) -> str | None:
        """Why the member may not hold a tournament (None: they may): they need Manage Server or the
        role the server set (`/farkle-config set tournament_role`)."""
        assert interaction.guild_id is not None
        if self._manager(interaction):
            return None
        role = (await self.bot.services.config.get(interaction.guild_id)).tournament_role
        if role is None:
            return tr.text("Only members with Manage Server can hold a tournament.")
        member = interaction.user
        everyone = role == interaction.guild_id  # @everyone's id is the server's; no member lists it
        if everyone or (isinstance(member, discord.Member) and member.get_role(role) is not None):
            return None
        return tr.text(
            "Only members with Manage Server or the {role} role can hold a tournament.", role=f"<@&{role}>"
        )

    def _here(self, interaction: discord.Interaction, tournament: str | None) -> str | None:
        """The running tournament named (of this server only), else the one signing up or running in
        this channel."""
        assert interaction.guild_id is not None
        running = self.tournaments.running_in(interaction.guild_id)
        if tournament:
            wanted = tournament.strip().lower()
            return next((v.tournament_id for v in running if v.tournament_id == wanted), None)
        here = [v for v in running if v.channel_id == interaction.channel_id]
        return here[0].tournament_id if here else None

    @tournament.command(name="new", description=locale_str("Open sign-up for a tournament in this channel"))
    @app_commands.describe(
        name=locale_str("The tournament's name"),
        format=locale_str("Single elimination, or Swiss over a number of rounds"),
        rules=locale_str("Which rules to play (default: this server's)"),
        target=locale_str("Points that end a game (default: the rules')"),
        length=locale_str("One game a match, or the best of three"),
        rounds=locale_str("Swiss only: how many rounds (default: enough for one unbeaten player)"),
        signup_until=locale_str("When sign-up closes, UTC: 2026-12-24 18:00 (default: when the host starts)"),
        deadline=locale_str("Minutes to press Ready once a match opens (default 10)"),
        stand_in_skill=locale_str("The skill a bye's computer plays at, 20 to 100 (default: normal)"),
    )
    @app_commands.choices(format=FORMAT_CHOICES)
    @app_commands.choices(length=LENGTH_CHOICES)
    async def tournament_new(
        self,
        interaction: discord.Interaction,
        name: str,
        format: str = "single",
        rules: str | None = None,
        target: int | None = None,
        length: int = 1,
        rounds: int | None = None,
        signup_until: str | None = None,
        deadline: int = 10,
        stand_in_skill: app_commands.Range[int, LOWEST_SKILL, HIGHEST_SKILL] | None = None,
    ) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        tr = for_member(interaction)
        refusal = await self._may_not_hold(interaction, tr)
        if refusal:
            await reply_ephemeral(interaction, refusal)
            return
        scope = board_scope(interaction)
        ruleset = (
            await self.bot.services.config.resolve(scope, rules)
            if rules
            else (await self.bot.services.config.get(scope)).ruleset
        )
        if ruleset is None:
            names = ", ".join(await self.bot.services.config.rules_names(scope))
            unknown = tr.text(
                "Unknown rules “{name}”: choose one of {names}.", name=echo(str(rules)), names=names
            )
            await reply_ephemeral(interaction, unknown)
            return
        if target is not None:
            try:
                ruleset = ruleset.with_option("target", str(target))
            except Exception as refused:
                await report_error(interaction, refused)
                return
        until = None
        if signup_until:
            until = read_time(signup_until)
            if until is None:
                await reply_ephemeral(interaction, tr.say(not_a_time(signup_until)))
                return
        answer = await self.tournaments.create(
            (interaction.guild_id, interaction.channel_id, interaction.user.id),
            name,
            "swiss" if format == "swiss" else "single",
            ruleset,
            best_of=3 if length == 3 else 1,
            rounds=rounds if format == "swiss" else None,
            match_deadline=deadline * 60,
            signup_until=until,
            stand_in_level=STAND_IN_LEVEL if stand_in_skill is None else skill_level(stand_in_skill),
        )
        if answer.view is None:
            await answer_privately(interaction, answer, "")
            return
        desk = cast(TournamentDesk, self.bot.get_cog(TournamentDesk.__cog_name__))
        await desk.post_card(interaction, answer.view)

    @tournament.command(
        name="start", description=locale_str("Close sign-up and start this channel's tournament")
    )
    async def tournament_start(self, interaction: discord.Interaction) -> None:
        tournament = self._here(interaction, None)
        if tournament is None:
            await reply_ephemeral(
                interaction, for_member(interaction).text("No tournament is signing up here.")
            )
            return
        answer = await self.tournaments.start(
            tournament, interaction.user.id, manager=self._manager(interaction)
        )
        await answer_privately(interaction, answer, N_("Started: the first round's matches are opening."))

    @tournament.command(name="list", description=locale_str("This server's tournaments, running and past"))
    async def tournament_list(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        views = await self.tournaments.of_guild(interaction.guild_id)
        await reply_ephemeral(interaction, tournament_list(views, for_member(interaction)))

    @tournament.command(name="show", description=locale_str("A tournament's card: its bracket or standings"))
    @app_commands.describe(tournament=locale_str("The tournament's id (default: this channel's)"))
    async def tournament_show(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        assert interaction.guild_id is not None
        wanted = tournament.strip().lower() if tournament else self._here(interaction, None)
        views = [
            v for v in await self.tournaments.of_guild(interaction.guild_id) if v.tournament_id == wanted
        ]
        if not views:
            await reply_ephemeral(
                interaction, for_member(interaction).text("There is no such tournament on this server.")
            )
            return
        await interaction.response.send_message(
            **tournament_card(views[0], for_member(interaction)).message, ephemeral=True
        )

    @tournament.command(
        name="cancel", description=locale_str("Cancel a tournament (its host or Manage Server)")
    )
    @app_commands.describe(tournament=locale_str("The tournament's id (default: this channel's)"))
    async def tournament_cancel(
        self, interaction: discord.Interaction, tournament: str | None = None
    ) -> None:
        wanted = self._here(interaction, tournament)
        answer = await self.tournaments.cancel(
            wanted or "", interaction.user.id, manager=self._manager(interaction)
        )
        await answer_privately(interaction, answer, N_("The tournament is cancelled."))

    @tournament.command(name="advance", description=locale_str("Decide a stuck match for one of its players"))
    @app_commands.describe(
        match=locale_str("The match, as the card shows it (2-1: round 2, match 1)"),
        winner=locale_str("Who advances"),
        tournament=locale_str("The tournament's id (default: this channel's)"),
    )
    async def tournament_advance(
        self,
        interaction: discord.Interaction,
        match: str,
        winner: discord.Member,
        tournament: str | None = None,
    ) -> None:
        wanted = self._here(interaction, tournament)
        answer = await self.tournaments.advance(
            wanted or "", match.strip(), winner.id, interaction.user.id, manager=self._manager(interaction)
        )
        await answer_privately(interaction, answer, N_("Done: the match is decided."))

    @tournament.command(
        name="disqualify", description=locale_str("Remove a player from a running tournament")
    )
    @app_commands.describe(
        member=locale_str("Who is disqualified"),
        tournament=locale_str("The tournament's id (default: this channel's)"),
    )
    async def tournament_disqualify(
        self, interaction: discord.Interaction, member: discord.Member, tournament: str | None = None
    ) -> None:
        wanted = self._here(interaction, tournament)
        answer = await self.tournaments.disqualify(
            wanted or "", member.id, interaction.user.id, manager=self._manager(interaction)
        )
        await answer_privately(interaction, answer, N_("Done: the member is disqualified."))
