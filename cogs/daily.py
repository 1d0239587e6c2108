"""`/farkle daily` and `/farkle daily-standings`, the daily board's buttons, and achievement announcements.

A mixin of the `/farkle` group cog. The daily board is ephemeral: it works in every context `/farkle`
works in (a user install can't post or DM, but can always answer its interactions), each press edits
that message, and `/farkle daily` shows it again. The public result is a non-ephemeral follow-up of the
press that finished the attempt, never a channel message, which Discord refuses where the app is not a
member; so are its achievements, when the stream says which are new (`Awarded`): the cog keeps that
press's interaction for them, for as long as its token lasts.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.app.errors import reply_ephemeral
from bot.app.wiring import Hooks
from bot.render.daily import TEMPLATE, awarded_text, daily_board, daily_result, standings_embed
from bot.render.language import Translator
from bot.services.i18n import for_member
from bot.sessions.daily.attempt import DailyAttempt
from bot.sessions.daily.door import DailyMove
from bot.sessions.stream_events import Awarded, GameEvent
from cogs.board.boards import Boards
from cogs.buttons import answer_by_farkle
from cogs.language import server_public

if TYPE_CHECKING:
    from bot.app.client import FarkleBot

log = logging.getLogger(__name__)

# How long a finishing press's interaction may still post its achievements: Discord's 15-minute follow-up
# token, less a margin (later, they stay on /farkle stats).
FOLLOW_UP_SECONDS = 14 * 60
PERIOD_CHOICES = [
    app_commands.Choice(name=locale_str("today"), value="today"),
    app_commands.Choice(name=locale_str("this week"), value="week"),
]
SCOPE_CHOICES = [
    app_commands.Choice(name=locale_str("this server"), value="server"),
    app_commands.Choice(name=locale_str("everyone"), value="everyone"),
]


@dataclass
class _Finishing:
    """A daily press that may finish its attempt: its interaction posts the result, then the achievements
    the stream names (which may be heard before or after the result is out)."""

    interaction: discord.Interaction
    since: float
    public: Translator | None = None  # set once the result is posted
    awarded: Awarded | None = None


class DailyCommands(commands.Cog):
    bot: FarkleBot

    async def cog_load(self) -> None:
        self._finishing: dict[tuple[int, int], _Finishing] = {}  # by (member, day)

    def hooks(self) -> Hooks:
        return Hooks(stream=(self._on_event,))

    async def _public(self, interaction: discord.Interaction) -> Translator:
        """What the channel reads: the server's language, else (a DM) the member's own."""
        if interaction.guild_id is None:
            return for_member(interaction)
        return await server_public(self.bot, interaction.guild_id)

    @app_commands.command(description=locale_str("Play today's daily challenge: the same dice for everyone"))
    async def daily(self, interaction: discord.Interaction) -> None:
        user = interaction.user
        move = await self.bot.services.daily.open(user.id, user.display_name, interaction.guild_id)
        assert move.attempt is not None
        board = daily_board(move.attempt, for_member(interaction), self.bot.dice_art)
        await interaction.response.send_message(**board.message, ephemeral=True)

    @app_commands.command(
        name="daily-standings", description=locale_str("The best daily scores today or this week")
    )
    @app_commands.describe(
        period=locale_str("Today (default) or this week"),
        scope=locale_str("This server (default) or everyone"),
    )
    @app_commands.choices(period=PERIOD_CHOICES, scope=SCOPE_CHOICES)
    async def daily_standings(
        self,
        interaction: discord.Interaction,
        period: app_commands.Choice[str] | None = None,
        scope: app_commands.Choice[str] | None = None,
    ) -> None:
        week = period is not None and period.value == "week"
        server = interaction.guild_id is not None and (scope is None or scope.value == "server")
        rows = await self.bot.services.daily.standings(week, interaction.guild_id if server else None)
        embed = standings_embed(rows, week, server, await self._public(interaction))
        await interaction.response.send_message(embed=embed)

    async def on_daily_press(
        self, interaction: discord.Interaction, day: int, seq: str, action: str, arg: int | None
    ) -> None:
        user = interaction.user
        move = await self.bot.services.daily.press(
            user.id, user.display_name, interaction.guild_id, day, seq, action, arg
        )
        key, now = (user.id, day), self.bot.clock.now()
        if move.ended:  # kept before anything awaits: the stream has not handed out its achievements yet
            for stale in [k for k, f in self._finishing.items() if now - f.since >= FOLLOW_UP_SECONDS]:
                del self._finishing[stale]  # their achievements never came (a failed award)
            self._finishing[key] = _Finishing(interaction, now)
        try:
            await self._answer(interaction, move)
        except Exception:
            self._finishing.pop(key, None)  # no result, so no achievements after it
            raise

    async def _answer(self, interaction: discord.Interaction, move: DailyMove) -> None:
        tr = for_member(interaction)
        if move.refusal is not None:
            await reply_ephemeral(interaction, tr.say(move.refusal))
            return
        assert move.attempt is not None
        await interaction.response.edit_message(**daily_board(move.attempt, tr, self.bot.dice_art).message)
        if move.ended:
            await self._post_result(interaction, move.attempt)

    async def _post_result(self, interaction: discord.Interaction, attempt: DailyAttempt) -> None:
        public = await self._public(interaction)
        expert = await self.bot.services.daily.expert(attempt.day)
        await interaction.followup.send(daily_result(attempt, expert, public), ephemeral=False)
        key = (attempt.user_id, attempt.day)
        if (finishing := self._finishing.get(key)) is not None:
            finishing.public = public
            await self._post_awards(key)

    async def _post_awards(self, key: tuple[int, int]) -> None:
        """A finished daily's new achievements, once both its result is out and the stream named them."""
        finishing = self._finishing.get(key)
        if finishing is None or finishing.public is None or finishing.awarded is None:
            return
        del self._finishing[key]
        awarded, attempt = finishing.awarded, finishing.awarded.daily
        if not awarded.awards or attempt is None:
            return
        if self.bot.clock.now() - finishing.since >= FOLLOW_UP_SECONDS:
            log.info("The daily of %s finished too long ago to announce its achievements", attempt.user_id)
            return
        text = awarded_text(attempt.name, list(awarded.awards), finishing.public)
        try:
            await finishing.interaction.followup.send(text, ephemeral=False)
        except discord.HTTPException as error:
            log.warning("Could not announce the daily achievements of %s: %s", attempt.user_id, error)

    async def _on_event(self, event: GameEvent) -> None:
        """New achievements: a daily's follow the press that finished it, a game's go to its channel."""
        if not isinstance(event, Awarded):
            return
        if event.daily is not None:
            key = (event.daily.user_id, event.daily.day)
            finishing = self._finishing.get(key)
            if finishing is not None:
                finishing.awarded = event
                await self._post_awards(key)
            return
        await self._announce(event)

    async def _announce(self, awarded: Awarded) -> None:
        """A game's new achievements, in its channel (or through its token where only that can post)."""
        record = awarded.game
        if record is None or not awarded.awards:
            return
        tr = await server_public(self.bot, record.guild_id)
        channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
        delivery = cast(Boards, self.bot.get_cog(Boards.__cog_name__)).delivery
        # Where the app is not a member, channel routes are refused: only the game's token can post.
        by_token = delivery.holds(record.channel_id)
        member = record.guild_id != record.channel_id and self.bot.get_guild(record.guild_id) is not None
        names = {player.user_id: player.name for player in record.players}
        for user_id in sorted({award.user_id for award in awarded.awards}):
            text = awarded_text(
                names.get(user_id, "?"), [a for a in awarded.awards if a.user_id == user_id], tr
            )
            if by_token or not member:
                if not await delivery.tell(record.channel_id, text):
                    log.info("No live token to announce achievements in conversation %s", record.channel_id)
                continue
            try:
                await channel.send(text)
            except discord.HTTPException as error:
                log.warning("Could not announce achievements in channel %s: %s", record.channel_id, error)


class DailyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """Every daily board's button: `farkle-daily:<day>:<seq>:<action>[:<arg>]`."""

    def __init__(self, day: int, seq: str, action: str, arg: int | None) -> None:
        tail = f":{arg}" if arg is not None else ""
        super().__init__(discord.ui.Button(custom_id=f"farkle-daily:{day}:{seq}:{action}{tail}"))
        self.day, self.seq, self.action, self.arg = day, seq, action, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DailyButton:
        arg = int(match["arg"]) if match["arg"] is not None else None
        return cls(int(match["day"]), match["seq"], match["action"], arg)

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer_by_farkle(
            interaction,
            DailyCommands,
            lambda cog: cog.on_daily_press(interaction, self.day, self.seq, self.action, self.arg),
        )
