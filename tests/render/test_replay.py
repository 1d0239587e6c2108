"""Replay pages: every line once, in order, each page inside its size; a page past the end is the last."""

from __future__ import annotations

import re

from bot.render.layout import ActionRow
from bot.render.replay import REPLAY_TEMPLATE, replay_card, replay_pages
from bot.services.i18n import translator


def test_pages_hold_every_line_once_within_their_size() -> None:
    lines = [f"{turn}. " + "x" * (turn * 7 % 90) for turn in range(60)]
    pages = replay_pages(lines, 300)
    assert [line for page in pages for line in page] == lines
    assert all(sum(len(line) + 1 for line in page) <= 300 for page in pages)
    assert replay_pages(["y" * 500], 300) == [["y" * 299 + "…"]], "a line longer than a page is cut"


def test_a_card_names_its_page_and_its_neighbours() -> None:
    pages = [["a"], ["b"], ["c"]]
    embed, view = replay_card("abc123", pages, 9999, translator("en"))
    assert embed.description == "c" and embed.footer.text == "Page 3 of 3"
    (buttons,) = view.parts
    assert isinstance(buttons, ActionRow)
    previous, following = buttons.children
    assert previous.custom_id == "farkle-replay:abc123:1" and not previous.disabled
    assert following.disabled

    assert re.fullmatch(REPLAY_TEMPLATE, previous.custom_id)
    assert re.fullmatch(REPLAY_TEMPLATE, "farkle-replay:abc123:" + "9" * 50) is None
