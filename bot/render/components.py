"""The custom id every game button carries, and the Components V2 card every board is drawn on.

The id is `farkle:<game>:<seq>:<action>[:<arg>]`, where `seq` (`Session.seq`) changes only when dice are
thrown, a turn passes or the stage changes. Discord refuses a press whose id is no longer on the message,
so an id must change only when its meaning does: a die button says what it does (`pick:3` / `drop:3`)
and only that die's id changes when it toggles.

The board edge (`cogs/board/boards.py`) answers every press whose id matches `TEMPLATE`, on any message, so
buttons keep working after a restart and rendering never depends on the cogs. Every part is bounded, so
a forged id (a 5,000-digit number, say) simply matches nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import discord
from discord import ui
from discord.ui.view import BaseView

from bot.render.layout import ActionRow, Button, Container, Part, Section, TextDisplay, walk

PREFIX = "farkle"
TEMPLATE = (
    rf"{PREFIX}:(?P<game>[0-9a-f]{{1,16}}):(?P<seq>[0-9a-z-]{{1,16}}):(?P<action>[a-z]{{1,12}})"
    r"(?::(?P<arg>[a-z0-9-]{1,12}))?"
)
GOLD = discord.Colour.gold()
GREY = discord.Colour.dark_grey()
# Components V2 limits: every component counts, nested ones too; text counts across the message.
MOST_COMPONENTS = 40
MOST_TEXT = 4000


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


class Drawing(BaseView):
    """A drawing's buttons are answered by what the cogs registered at start-up (the board edge's
    listener, `DynamicItem`s), on any message, so a drawing is never stored in discord.py's view store:
    per edit, that bookkeeping cost as much as drawing the board, and a view answered with `send_message`
    (which skips the `is_dispatchable` check) stayed there for the life of the process, buttons and all.

    It holds light parts (`parts`, `bot/render/layout.py`), not discord.py `ui` items (its `children`
    stay empty), and serialises them itself, once, when it is first sent: sent again (a redraw after a
    failed answer), it sends the same components. The parts link to nothing but their children, so a
    drawing sent is freed by reference counting alone, not left as cyclic garbage for the collector.
    Its kinds are discord.py's `LayoutView` and `View` too, as discord.py's send and edit methods take
    those; of a view, they read only what is overridden here (and `timeout`).
    """

    components_v2: ClassVar[bool]
    _sent: list[dict[str, Any]] | None = None

    def __init__(self, *parts: Part) -> None:
        super().__init__(timeout=None)
        self.parts = parts

    def is_dispatchable(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return True

    def has_components_v2(self) -> bool:
        return self.components_v2

    def to_components(self) -> list[dict[str, Any]]:
        if self._sent is None:
            self._sent = [part.to_component_dict() for part in self.parts]
        return self._sent

    def walk_parts(self) -> Iterator[Part]:
        return walk(self.parts)

    @property
    def total_children_count(self) -> int:
        """Every component, nested ones too, as Discord counts them against `MOST_COMPONENTS`."""
        return sum(1 for _ in self.walk_parts())

    def content_length(self) -> int:
        """The text of every text display, as Discord counts it against `MOST_TEXT`."""
        return sum(len(part.content) for part in self.walk_parts() if isinstance(part, TextDisplay))


class DrawnLayout(Drawing, ui.LayoutView):
    """A Components V2 drawing (boards and every other card): one `Container`."""

    components_v2 = True


class DrawnView(Drawing, ui.View):
    """A drawing for the embeds with buttons that are not boards (leaderboard pages): action rows."""

    components_v2 = False


@dataclass(frozen=True)
class Rendered:
    """What one message shows: a Components V2 card (an accent-coloured container)."""

    view: DrawnLayout

    @property
    def message(self) -> dict[str, Any]:
        """The keyword arguments that send or edit a message to show this drawing (one place for all).

        Content and embeds are cleared: a V2 message can carry neither, and boards drawn before the
        upgrade (an embed) become V2 only when an edit clears them along with setting the flag, which
        discord.py sets from the view."""
        return {"content": None, "embed": None, "view": self.view}


def card(parts: list[Part], colour: discord.Colour = GOLD) -> Rendered:
    return Rendered(DrawnLayout(Container(*parts, accent_colour=colour)))


def heading(title: str, text: str) -> str:
    """A block with a bold heading line, as a field was in the old embeds."""
    return f"**{title}**\n{text}"


def rows(buttons: list[Button], width: int = 5) -> list[Part]:
    """Buttons in action rows of at most `width` each."""
    return [ActionRow(*buttons[i : i + width]) for i in range(0, len(buttons), width)]


def without_buttons(rendered: Rendered, *extra: Part) -> Rendered:
    """The same card for reading, not playing (a spectator's follow board): its action rows dropped, a
    section's button accessory dropped with the section kept as its text; `extra` parts appended."""
    frames: list[Part] = []
    for frame in rendered.view.parts:
        if not isinstance(frame, Container):
            continue
        kept: list[Part] = []
        for child in frame.children:
            if isinstance(child, Section):
                kept.extend(child.children)
            elif not isinstance(child, ActionRow):
                kept.append(child)
        frames.append(Container(*kept, *extra, accent_colour=frame.accent_colour))
    return Rendered(DrawnLayout(*frames))
