"""The "Play at the table" button on boards: answered by opening the Activity (LAUNCH_ACTIVITY, callback
type 12), in a server, the bot's DM, or a DM or group DM where a member installed the app. Discord opens
it for whoever pressed; the Activity shows the game of the channel it was opened from."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.render.parts import TABLE_BUTTON
from cogs.buttons import answer_press


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=re.escape(TABLE_BUTTON)):
    def __init__(self) -> None:
        super().__init__(discord.ui.Button(custom_id=TABLE_BUTTON))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        async def launch(_: object) -> None:
            await interaction.response.launch_activity()

        await answer_press(interaction, launch)
