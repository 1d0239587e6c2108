"""`/farkle replay`: a finished game as paged cards with the `.txt` to download; game ids autocompleted.

A mixin of the `/farkle` group cog, like `StatsCommands`. Pages are stateless: a Previous/Next id
carries the game and the page (`farkle-replay:<game>:<page>`), so a press rebuilds that page from the
archive, on any replay message, even after a restart. The `.txt` (keycap dice: a file shows no Discord
emoji) stays attached while the pages turn.
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.render.dice import KEYCAP_ART
from bot.render.replay import REPLAY_TEMPLATE, game_choice, replay_card, replay_pages
from bot.render.review import replay_marks
from bot.render.stats import replay_lines
from bot.render.words import echo
from bot.services.i18n import for_member
from cogs.board.delivery import board_scope
from cogs.buttons import answer_by_farkle

if TYPE_CHECKING:
    from bot.app.client import FarkleBot


async def recent_game_choices(
    bot: FarkleBot, interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The member's newest games in this server whose id or description holds what they typed."""
    tr = for_member(interaction)
    games = await bot.services.stats.played(board_scope(interaction), interaction.user.id)
    typed = current.strip().lower()
    choices = [(game.game_id, game_choice(game, tr)) for game in games]
    return [app_commands.Choice(name=name, value=game) for game, name in choices if typed in name.lower()]


class ReplayCommands(commands.Cog):
    bot: FarkleBot

    async def _pages(self, interaction: discord.Interaction, game: str) -> tuple[list[list[str]], str] | None:
        """The replay's pages (die emojis) and its `.txt` (keycaps), or None: no such game here."""
        tr = for_member(interaction)
        replayed = await self.bot.services.stats.replay(board_scope(interaction), game, reviewed=True)
        if replayed is None:
            return None
        marks = replay_marks(replayed.review, tr) if replayed.review else None
        drawn = replay_lines(replayed.game, replayed.names, tr, marks, self.bot.dice_art)
        text = replay_lines(replayed.game, replayed.names, tr, marks, KEYCAP_ART)
        return replay_pages(drawn), "\n".join(text)

    @app_commands.command(description=locale_str("A finished game, move by move"))
    @app_commands.describe(game=locale_str("The game's id, from /farkle history or its results board"))
    async def replay(self, interaction: discord.Interaction, game: str) -> None:
        tr = for_member(interaction)
        game_id = game.strip().lower()
        found = await self._pages(interaction, game_id)
        if found is None:
            missing = tr.text("No finished game `{game}` in this server.", game=echo(game))
            await interaction.response.send_message(missing, ephemeral=True)
            return
        pages, text = found
        embed, view = replay_card(game_id, pages, 0, tr)
        attachment = discord.File(io.BytesIO(text.encode()), filename=f"farkle-{game_id}.txt")
        await interaction.response.send_message(embed=embed, view=view, file=attachment, ephemeral=True)

    @replay.autocomplete("game")
    async def _replay_games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await recent_game_choices(self.bot, interaction, current)

    async def turn_replay_page(self, interaction: discord.Interaction, game_id: str, page: int) -> None:
        found = await self._pages(interaction, game_id)
        if found is None:
            await interaction.response.defer()
            return
        embed, view = replay_card(game_id, found[0], page, for_member(interaction))
        await interaction.response.edit_message(embed=embed, view=view)


class ReplayPage(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REPLAY_TEMPLATE):
    """Previous/Next on any replay card (`farkle-replay:<game>:<page>`), answered statelessly."""

    def __init__(self, game_id: str, page: int) -> None:
        super().__init__(discord.ui.Button(custom_id=f"farkle-replay:{game_id}:{page}"))
        self.game_id, self.page = game_id, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayPage:
        return cls(match["game"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer_by_farkle(
            interaction,
            ReplayCommands,
            lambda replays: replays.turn_replay_page(interaction, self.game_id, self.page),
        )
