"""The parts a card is drawn with: light, slotted stand-ins for discord.py's `ui` items.

A board is drawn on every press, and discord.py's items cost more to build than the board's text: each
button wraps a component built through `_raw_construct`, and each item carries its view and its parent.
These parts take the same arguments and keep the same attribute names as the `ui` classes `bot/render`
used, and each gives the component dict discord.py would send for it (`to_component_dict`;
`tests/render/test_layout.py` holds every kind to discord.py's own payload). They link to nothing but
their children, so a drawing sent is freed by reference counting alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import discord
from discord import ButtonStyle, ComponentType, PartialEmoji, SeparatorSpacing

# Discord's numbers for each kind of component.
ACTION_ROW = ComponentType.action_row.value
BUTTON = ComponentType.button.value
SECTION = ComponentType.section.value
TEXT_DISPLAY = ComponentType.text_display.value
MEDIA_GALLERY = ComponentType.media_gallery.value
SEPARATOR = ComponentType.separator.value
CONTAINER = ComponentType.container.value


class TextDisplay:
    """Markdown text."""

    __slots__ = ("content",)

    def __init__(self, content: str) -> None:
        self.content = content

    def to_component_dict(self) -> dict[str, Any]:
        return {"type": TEXT_DISPLAY, "content": self.content}


class Separator:
    """Space between parts, with a divider line when `visible`."""

    __slots__ = ("spacing", "visible")

    def __init__(self, *, visible: bool = True, spacing: SeparatorSpacing = SeparatorSpacing.small) -> None:
        self.visible = visible
        self.spacing = spacing

    def to_component_dict(self) -> dict[str, Any]:
        return {"type": SEPARATOR, "divider": self.visible, "spacing": self.spacing.value}


class Button:
    """A button whose press the cogs answer by its custom id (every drawn button has one); an emoji
    given as text is read as discord.py reads it (`<:name:id>` is a custom emoji)."""

    __slots__ = ("custom_id", "disabled", "emoji", "label", "style")

    def __init__(
        self,
        *,
        custom_id: str,
        label: str | None = None,
        style: ButtonStyle = ButtonStyle.secondary,
        emoji: str | PartialEmoji | None = None,
        disabled: bool = False,
    ) -> None:
        self.custom_id = custom_id
        self.label = label
        self.style = style
        self.emoji = PartialEmoji.from_str(emoji) if isinstance(emoji, str) else emoji
        self.disabled = disabled

    def to_component_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": BUTTON, "style": self.style.value, "disabled": self.disabled}
        if self.label:
            data["label"] = self.label
        data["custom_id"] = self.custom_id
        if self.emoji is not None:
            data["emoji"] = self.emoji.to_dict()
        return data


class ActionRow:
    """Up to five buttons side by side."""

    __slots__ = ("children",)

    def __init__(self, *children: Button) -> None:
        self.children = children

    def to_component_dict(self) -> dict[str, Any]:
        return {"type": ACTION_ROW, "components": [child.to_component_dict() for child in self.children]}


class Section:
    """Text with a button beside it (`accessory`)."""

    __slots__ = ("accessory", "children")

    def __init__(self, *children: TextDisplay, accessory: Button) -> None:
        self.children = children
        self.accessory = accessory

    def to_component_dict(self) -> dict[str, Any]:
        return {
            "type": SECTION,
            "components": [child.to_component_dict() for child in self.children],
            "accessory": self.accessory.to_component_dict(),
        }


class MediaGallery:
    """Images: the review's chart, an attachment of the same message."""

    __slots__ = ("items",)

    def __init__(self, *items: discord.MediaGalleryItem) -> None:
        self.items = items

    def to_component_dict(self) -> dict[str, Any]:
        return {"type": MEDIA_GALLERY, "items": [item.to_dict() for item in self.items]}


class Container:
    """The card: its parts inside an accent-coloured frame."""

    __slots__ = ("accent_colour", "children")

    def __init__(self, *children: Part, accent_colour: discord.Colour | None = None) -> None:
        self.children = children
        self.accent_colour = accent_colour

    def to_component_dict(self) -> dict[str, Any]:
        colour = self.accent_colour
        return {
            "type": CONTAINER,
            "accent_color": colour.value if colour else None,
            "spoiler": False,
            "components": [child.to_component_dict() for child in self.children],
        }


Part = TextDisplay | Separator | Button | ActionRow | Section | MediaGallery | Container


def walk(parts: Iterable[Part]) -> Iterator[Part]:
    """Every part and every part inside it, a section's button too: what Discord counts against a
    message's limit of components."""
    for part in parts:
        yield part
        if isinstance(part, ActionRow | Container):
            yield from walk(part.children)
        elif isinstance(part, Section):
            yield from walk(part.children)
            yield part.accessory
