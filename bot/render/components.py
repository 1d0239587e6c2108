"""The custom id every game button carries: game, roll and action; render draws plain buttons with it.

The id is `farkle:<game>:<seq>:<action>[:<arg>]`, where `seq` (`Session.seq`) changes only when dice are
thrown, a turn passes or the stage changes. Discord refuses a press whose id is no longer on the message,
so an id must change only when its meaning does: a die button says what it does (`pick:3` / `drop:3`)
and only that die's id changes when it toggles.

The board edge (`cogs/board.py`) registers the `DynamicItem` that matches `TEMPLATE` on any message, so
buttons keep working after a restart and rendering never depends on the cogs. Every part is bounded, so
a forged id (a 5,000-digit number, say) simply matches nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

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


Button = discord.ui.Button[discord.ui.View]


class DrawnView(discord.ui.View):
    """Buttons that are all `DynamicItem`s: the classes registered at start-up answer them, on any
    message, so a drawing is never stored in discord.py's view store (per edit, that bookkeeping cost as
    much as drawing the board)."""

    def is_dispatchable(self) -> bool:
        return False
