"""Every Farkle button is one persistent `DynamicItem`: its custom id carries game, roll and action.

The id is `farkle:<game>:<seq>:<action>[:<arg>]`, where `seq` (`Session.seq`) changes only when dice are
thrown, a turn passes or the stage changes. Discord refuses a press whose id is no longer on the message,
so an id must change only when its meaning does: a die button says what it does (`pick:3` / `drop:3`)
and only that die's id changes when it toggles.

A press goes to the bot's `on_game_press` (`GamePresses`: `FarkleBot` hands it to the `/farkle` cog),
so buttons keep working after a restart and rendering never depends on the cogs. Every part is
bounded, so a forged id (a 5,000-digit number, say) simply matches nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol, cast

import discord

PREFIX = "farkle"
TEMPLATE = (
    rf"{PREFIX}:(?P<game>[0-9a-f]{{1,16}}):(?P<seq>[0-9a-z-]{{1,16}}):(?P<action>[a-z]{{1,12}})"
    r"(?::(?P<arg>[a-z0-9-]{1,12}))?"
)


@dataclass(frozen=True)
class ButtonRef:
    """What a custom id carries; `action` is a `ButtonAction` value when drawn, any text when pressed."""

    game_id: str
    seq: str
    action: str
    arg: str | None = None

    @property
    def custom_id(self) -> str:
        tail = f":{self.arg}" if self.arg is not None else ""
        return f"{PREFIX}:{self.game_id}:{self.seq}:{self.action}{tail}"


class DrawnView(discord.ui.View):
    """Buttons that are all `DynamicItem`s: the classes registered at start-up answer them, on any
    message, so a drawing is never stored in discord.py's view store (per edit, that bookkeeping cost as
    much as drawing the board)."""

    def is_dispatchable(self) -> bool:
        return False


class GamePresses(Protocol):
    """The client as a game button sees it: something that answers a press."""

    async def on_game_press(self, interaction: discord.Interaction, ref: ButtonRef) -> None: ...


class FarkleButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    def __init__(
        self,
        ref: ButtonRef,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
        emoji: str | discord.PartialEmoji | None = None,
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
        ref = ButtonRef(match["game"], match["seq"], match["action"], match["arg"])
        button = item if isinstance(item, discord.ui.Button) else None
        return cls(
            ref,
            label=button.label if button else None,
            style=button.style if button else discord.ButtonStyle.secondary,
            disabled=bool(button and button.disabled),
            row=item.row,
            emoji=button.emoji if button else None,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        # hasattr, not isinstance on a runtime-checkable protocol: that check costs a tenth of the press.
        if hasattr(interaction.client, "on_game_press"):
            await cast(GamePresses, interaction.client).on_game_press(interaction, self.ref)
