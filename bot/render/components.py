"""Every Farkle button is one persistent `DynamicItem`: its custom id carries game, version and action.

The item only parses and forwards: the cog that listens to `farkle_button` decides what a press means,
so rendering never depends on the cogs and buttons keep working after a restart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

PREFIX = "farkle"
TEMPLATE = rf"{PREFIX}:(?P<game>[0-9a-f]+):(?P<version>[0-9]+):(?P<action>[a-z]+)(?::(?P<arg>[a-z0-9-]+))?"


@dataclass(frozen=True)
class ButtonRef:
    game_id: str
    version: int
    action: str
    arg: str | None = None

    @property
    def custom_id(self) -> str:
        tail = f":{self.arg}" if self.arg is not None else ""
        return f"{PREFIX}:{self.game_id}:{self.version}:{self.action}{tail}"


class FarkleButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    def __init__(
        self,
        ref: ButtonRef,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
        emoji: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=style, disabled=disabled, row=row, emoji=emoji, custom_id=ref.custom_id
            )
        )
        self.ref = ref

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> FarkleButton:
        ref = ButtonRef(match["game"], int(match["version"]), match["action"], match["arg"])
        button = item if isinstance(item, discord.ui.Button) else None
        label = button.label if button else None
        style = button.style if button else discord.ButtonStyle.secondary
        return cls(ref, label=label, style=style, disabled=bool(button and button.disabled), row=item.row)

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction.client.dispatch("farkle_button", interaction, self.ref)
