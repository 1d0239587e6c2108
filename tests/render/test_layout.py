"""Every light part sends exactly what discord.py's `ui` item of the same arguments sends: each case is
built twice, from `bot.render.layout` and from `discord.ui` (the same constructors), and the payloads
compared, so a drift from discord.py's payload fails here."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import discord
import pytest
from discord import ButtonStyle, PartialEmoji, SeparatorSpacing, ui

from bot.render import layout
from bot.render.components import GOLD, GREY

DIE = PartialEmoji(name="die_3", id=1234567890123456789)
ROLL = "farkle:a1b2c3:1-1:roll"


def die(kit: ModuleType, **options: Any) -> Any:
    return kit.Button(custom_id="farkle:a1b2c3:1-1:pick:0", emoji=DIE, **options)


def chart() -> discord.MediaGalleryItem:
    return discord.MediaGalleryItem("attachment://chart.png", description="Alex: 50 % → 80 %")


CASES: dict[str, Callable[[ModuleType], Any]] = {
    "text": lambda kit: kit.TextDisplay("### 🎲 Farkle · **ana**\n-# 10,000 points"),
    "separator": lambda kit: kit.Separator(),
    "separator, no line, large": lambda kit: kit.Separator(visible=False, spacing=SeparatorSpacing.large),
    "button": lambda kit: kit.Button(label="Leave", custom_id=ROLL),
    "button, primary, disabled": lambda kit: kit.Button(
        label="Roll 6 dice", custom_id=ROLL, style=ButtonStyle.primary, disabled=True
    ),
    "button, success": lambda kit: kit.Button(label="Bank 300", custom_id=ROLL, style=ButtonStyle.success),
    "button, danger": lambda kit: kit.Button(label="Cancel", custom_id=ROLL, style=ButtonStyle.danger),
    "button, emoji text": lambda kit: kit.Button(label="Hint", custom_id=ROLL, emoji="💡"),
    "button, custom emoji text": lambda kit: kit.Button(
        label="3", custom_id=ROLL, emoji="<:die_3:1234567890123456789>"
    ),
    "button, custom emoji, no label": lambda kit: die(kit, style=ButtonStyle.success),
    "button, animated emoji": lambda kit: kit.Button(
        custom_id=ROLL, emoji=PartialEmoji(name="spin", id=1234567890123456789, animated=True)
    ),
    "button, empty label": lambda kit: kit.Button(label="", custom_id=ROLL),
    "action row": lambda kit: kit.ActionRow(die(kit), die(kit, disabled=True), kit.Button(custom_id=ROLL)),
    "section": lambda kit: kit.Section(
        kit.TextDisplay("**ana's turn**"), accessory=kit.Button(label="Hint", custom_id=ROLL, emoji="💡")
    ),
    "media gallery": lambda kit: kit.MediaGallery(chart()),
    "media gallery, no description": lambda kit: kit.MediaGallery(
        discord.MediaGalleryItem("attachment://chart.png")
    ),
    "container": lambda kit: kit.Container(kit.TextDisplay("The board moved down ⬇️"), accent_colour=GREY),
    "container, no colour": lambda kit: kit.Container(kit.TextDisplay("—")),
    "container, every part": lambda kit: kit.Container(
        kit.TextDisplay("### 🎲 Farkle"),
        kit.Separator(),
        kit.Section(kit.TextDisplay("ana"), accessory=kit.Button(label="Hint", custom_id=ROLL, emoji="💡")),
        kit.ActionRow(die(kit), die(kit)),
        kit.MediaGallery(chart()),
        accent_colour=GOLD,
    ),
}


@pytest.mark.parametrize("build", CASES.values(), ids=list(CASES))
def test_each_part_sends_what_discord_py_sends(build: Callable[[ModuleType], Any]) -> None:
    assert build(layout).to_component_dict() == build(ui).to_component_dict()

