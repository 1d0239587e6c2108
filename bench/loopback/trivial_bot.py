"""The baselines: a discord.py bot that answers every press by redrawing the message, and nothing else.

Its board is the size of a Farkle board (an embed with the same fields, nine buttons on three rows) and
changes on every press, so the two bots differ only in what the Farkle bot does between receiving a
press and answering it. It stores nothing and sends nothing else. With TRIVIAL_ANSWER=message it is the
second baseline: the same board, each press answered with a small new message (one line, no buttons),
the least a bot can do that shows something.

Run by the bench as `python -m loopback.trivial_bot URL` with DISCORD_TOKEN (and TRIVIAL_ANSWER) set.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from typing import Any

import discord
from discord.ext import commands

from .discord_url import point_discord_at
from .profiling import profile_on_signals

DICE = 6
BUTTONS = (*(f"d{i}" for i in range(DICE)), "roll", "bank", "hint")
FACES = "⚀⚁⚂⚃⚄⚅"
SMALL_MESSAGE = os.environ.get("TRIVIAL_ANSWER") == "message"


def board(number: int, move: int) -> tuple[discord.Embed, discord.ui.View]:
    """Board `number` after `move` presses: the dice and totals vary with the move, the ids never do."""
    faces = [(move * 7 + i * 3 + number) % 6 + 1 for i in range(DICE)]
    embed = discord.Embed(title="🎲 Farkle game · classic rules", colour=discord.Colour.gold())
    embed.description = f"**ana-{number}'s turn** · turn total **{move % 20 * 50:,}**"
    embed.add_field(
        name="Roll", value=" ".join(FACES[f - 1] for f in faces) + "\n" + "⬛ " * DICE, inline=False
    )
    embed.add_field(name="Set aside this turn", value="—", inline=True)
    embed.add_field(name="Next roll", value=f"{DICE} dice · 2.31 % Farkle chance", inline=True)
    embed.add_field(
        name="Standings", value=f"▶️ **ana-{number}** · 1,250\n▫️ **ben-{number}** · 900", inline=False
    )
    embed.add_field(
        name="Latest", value="\n".join(f"ana-{number} banked {n * 50}" for n in range(5)), inline=False
    )
    embed.set_footer(text=f"Game {number:x} · move {move} · first to 10,000")
    view = discord.ui.View(timeout=None)
    for button in BUTTONS:
        view.add_item(BoardButton(number, button, move))
    return embed, view


def board_message(number: int) -> dict[str, Any]:
    """The board as the message the bench seeds on the server before the first press."""
    embed, view = board(number, 0)
    return {"embeds": [embed.to_dict()], "components": view.to_components()}


class BoardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"trivial:(?P<board>[0-9]+):(?P<button>[a-z0-9]+)",
):
    def __init__(self, number: int, button: str, move: int = 0) -> None:
        die = button.startswith("d")
        super().__init__(
            discord.ui.Button(
                label=str((move + number + int(button[1:])) % 6 + 1) if die else button.title(),
                emoji="🎲" if die else ("💡" if button == "hint" else None),
                style=discord.ButtonStyle.primary if button == "roll" else discord.ButtonStyle.secondary,
                row=int(button[1:]) // 3 if die else 2,
                custom_id=f"trivial:{number}:{button}",
            )
        )
        self.number = number
        self.button = button

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> BoardButton:
        return cls(int(match["board"]), match["button"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if SMALL_MESSAGE:
            await interaction.response.send_message(f"ana-{self.number} pressed {self.button}")
            return
        embed, view = board(self.number, interaction.id % 1000)
        await interaction.response.edit_message(embed=embed, view=view)


class TrivialBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())

    async def setup_hook(self) -> None:
        self.add_dynamic_items(BoardButton)


async def _run(token: str) -> None:
    async with TrivialBot() as bot:
        await bot.start(token)


if __name__ == "__main__":
    point_discord_at(sys.argv[1])
    profile_on_signals()
    discord.utils.setup_logging()
    asyncio.run(_run(os.environ["DISCORD_TOKEN"]))
