"""The delivery side of tournaments: what the door says (`Notice`s), shown on Discord — the card posted
and redrawn, a thread and a call for each match, its games' boards through the board edge, how a match
was decided, and the podium."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, cast

import discord
from discord.ext import commands

from bot.app.wiring import Hooks
from bot.engine.messages import N_
from bot.render.language import Translator
from bot.render.tournament import decided_line, match_call, podium, thread_title, tournament_card
from bot.sessions.tournament.book import Notice
from bot.sessions.tournament.state import TournamentView
from cogs.board.boards import Boards
from cogs.language import server_public

if TYPE_CHECKING:
    from bot.app.client import FarkleBot

log = logging.getLogger(__name__)

NO_MATCH_THREAD = N_(
    "I couldn't open a thread for match {key} (I need the Create Public Threads and Send Messages in "
    "Threads permissions here), so it is played in this channel."
)


class TournamentDesk(commands.Cog):
    """Listens to the tournament door and shows each notice, in the server's language."""

    def __init__(self, bot: FarkleBot) -> None:
        self.bot = bot

    def hooks(self) -> Hooks:
        return Hooks(tournament_notices=self.on_notice)

    @property
    def boards(self) -> Boards:
        return cast(Boards, self.bot.get_cog(Boards.__cog_name__))

    async def _tr(self, guild_id: int) -> Translator:
        return await server_public(self.bot, guild_id)

    async def post_card(self, interaction: discord.Interaction, view: TournamentView) -> None:
        """A new tournament's card, as the answer to the command that opened it; the board ledger keeps
        where it is, so every change redraws it."""
        assert interaction.channel_id is not None
        tr = await self._tr(view.guild_id)
        await interaction.response.send_message(**tournament_card(view, tr).message)
        message = await interaction.original_response()
        await self.boards.ledger.attach_card(view.tournament_id, interaction.channel_id, message.id)

    async def on_notice(self, notice: Notice) -> None:
        view = notice.view
        tr = await self._tr(view.guild_id)
        match = view.match(notice.key) if notice.key else None
        card = await self.boards.ledger.card(view.tournament_id) if notice.kind == "card" else None
        if card is not None and card.message_id is not None:
            message = self.bot.get_partial_messageable(card.channel_id).get_partial_message(card.message_id)
            await message.edit(**tournament_card(view, tr).message)
        elif notice.kind == "match" and match is not None:
            await self._open_match(notice, tr)
        elif notice.kind == "game" and notice.snapshot is not None:
            await self.boards.publisher.post_in(
                self.bot.get_partial_messageable(notice.snapshot.channel_id), notice.snapshot
            )
        elif notice.kind == "decided" and match is not None:
            place = notice.place or view.channel_id
            await self.bot.get_partial_messageable(place).send(decided_line(view, match, tr))
        elif notice.kind == "podium":
            await self.bot.get_partial_messageable(view.channel_id).send(**podium(view, tr).message)

    async def _open_match(self, notice: Notice, tr: Translator) -> None:
        """A thread named for the match, else the tournament's channel (saying so); the call pings both."""
        view = notice.view
        match = view.match(notice.key or "")
        assert match is not None
        channel = self.bot.get_channel(view.channel_id)
        place: discord.abc.Messageable | None = None
        if isinstance(channel, discord.TextChannel):
            allowed = channel.permissions_for(channel.guild.me)
            if allowed.create_public_threads and allowed.send_messages_in_threads:
                try:
                    place = await channel.create_thread(
                        name=thread_title(view, match, tr),
                        type=discord.ChannelType.public_thread,
                        auto_archive_duration=1440,
                    )
                except discord.HTTPException as error:
                    log.warning(
                        "Could not open a thread for match %s in %s: %s", match.key, channel.id, error
                    )
        in_thread = place is not None
        if place is None:
            place = self.bot.get_partial_messageable(view.channel_id)
            await place.send(tr.text(NO_MATCH_THREAD, key=match.key))
        text, ready = match_call(view, match, tr)
        await place.send(text, view=ready, allowed_mentions=discord.AllowedMentions(users=True))
        place_id = cast(discord.abc.Snowflake, place).id
        await self.bot.services.tournaments.place_match(
            view.tournament_id, match.key, place_id, in_thread=in_thread
        )
