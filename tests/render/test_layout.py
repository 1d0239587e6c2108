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
from bot.render.components import GOLD, GREY, DrawnLayout, DrawnView

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


def test_a_card_sends_and_counts_what_a_layout_view_does() -> None:
    """The whole message: the components, the V2 flag, and the component and text counts Discord's
    limits are checked against (nested parts and a section's button counted)."""
    ours = DrawnLayout(CASES["container, every part"](layout))
    theirs = ui.LayoutView(timeout=None)
    theirs.add_item(CASES["container, every part"](ui))
    assert ours.to_components() == theirs.to_components()
    assert ours.has_components_v2() and theirs.has_components_v2()
    assert ours.total_children_count == theirs.total_children_count == 10
    assert ours.content_length() == theirs.content_length() > 0


def test_a_row_of_page_buttons_sends_what_a_view_does() -> None:
    """Leaderboard, replay and match-call buttons: one action row on a message with embeds, no V2 flag."""
    pages = [("◀ Previous", True), ("Next ▶", False)]
    ours = DrawnView(
        layout.ActionRow(*(layout.Button(label=label, custom_id=label, disabled=off) for label, off in pages))
    )
    theirs = ui.View(timeout=None)
    for label, off in pages:
        theirs.add_item(ui.Button(label=label, custom_id=label, disabled=off))
    assert ours.to_components() == theirs.to_components()
    assert not ours.has_components_v2() and not theirs.has_components_v2()
