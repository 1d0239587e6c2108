"""A persistent button's press (leaderboard pages, replays, reviews, dailies, tournaments): counted as an
answer in flight (`FarkleBot.answering`: the collector waits, a shutdown lets it finish) and, should its
answer fail, told so privately (`report_error`) instead of Discord's "This interaction failed"."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar, cast

import discord

from bot.app.errors import report_error

if TYPE_CHECKING:
    from bot.app.client import FarkleBot

Mixin = TypeVar("Mixin")


async def answer_press(
    interaction: discord.Interaction, answer: Callable[[FarkleBot], Awaitable[None]]
) -> None:
    """Answer a press with `answer(bot)`; any error it raises is reported to the member who pressed."""
    bot = cast("FarkleBot", interaction.client)
    bot.in_flight.answering()
    try:
        await answer(bot)
    except Exception as error:
        await report_error(interaction, error)


async def answer_by_farkle(
    interaction: discord.Interaction, mixin: type[Mixin], answer: Callable[[Mixin], Awaitable[None]]
) -> None:
    """A press the `/farkle` group cog answers, through one of its mixins (`mixin`); none while unloaded."""

    async def by_cog(bot: FarkleBot) -> None:
        cog = cast("Mixin | None", bot.get_cog("Farkle"))
        if cog is not None:
            await answer(cog)

    await answer_press(interaction, by_cog)
