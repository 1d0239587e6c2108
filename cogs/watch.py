"""`/farkle watch`: follow a running game of this server from another channel, on a read-only follow
board (`cogs.board.follow`, part of the board edge). A mixin of the `/farkle` group cog, like
`ReviewCommands`."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.app.errors import reply_ephemeral
from bot.engine.messages import N_
from bot.services.i18n import for_member
from bot.sessions.session import Snapshot
from cogs.board.boards import Boards

if TYPE_CHECKING:
    from bot.app.client import FarkleBot

NOTHING_TO_WATCH = N_("No running game of this server matches: name a player, or pick a game from the list.")
CHOICE_NAME = 100  # Discord: the most characters of an autocomplete choice's name


class WatchCommands(commands.Cog):
    bot: FarkleBot

    @app_commands.command(description=locale_str("Follow a game of this server here: its board, read-only"))
    @app_commands.describe(
        member=locale_str("A player of the game to follow"),
        game=locale_str("The game to follow (start typing: this server's running games)"),
    )
    async def watch(
        self, interaction: discord.Interaction, member: discord.User | None = None, game: str | None = None
    ) -> None:
        running = self._running(interaction.guild_id)
        chosen = next(
            (
                snapshot
                for snapshot in running
                if snapshot.game_id == (game or "").strip().lower()
                or (member is not None and any(seat.user_id == member.id for seat in snapshot.seats))
            ),
            None,
        )
        if chosen is None:
            await reply_ephemeral(interaction, for_member(interaction).term(NOTHING_TO_WATCH))
            return
        await cast(Boards, self.bot.get_cog(Boards.__cog_name__)).follows.watch(interaction, chosen)

    @watch.autocomplete("game")
    async def _games(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        choices = []
        for snapshot in self._running(interaction.guild_id):
            channel = self.bot.get_channel(snapshot.channel_id)
            where = f"#{channel.name}" if isinstance(channel, discord.abc.GuildChannel) else snapshot.game_id
            name = f"{where} · {', '.join(seat.name for seat in snapshot.seats)}"[:CHOICE_NAME]
            if current.strip().lower() in f"{name} {snapshot.game_id}".lower():
                choices.append(app_commands.Choice(name=name, value=snapshot.game_id))
        return choices[:25]

    def _running(self, guild_id: int | None) -> list[Snapshot]:
        """This server's games in a lobby or being played (a DM has none to follow)."""
        if guild_id is None:
            return []
        return [
            s
            for s in self.bot.services.sessions.snapshots()
            if s.guild_id == guild_id and s.stage in ("lobby", "playing")
        ]
