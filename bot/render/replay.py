"""A finished game's replay as paged cards (Previous / Next), its `.txt` kept as the download, and the
choices that autocomplete a game id with the member's recent games."""

from __future__ import annotations

import datetime

import discord

from bot.core.records import GameSummary
from bot.render.components import GOLD, DrawnView
from bot.render.language import Translator
from bot.render.layout import ActionRow, Button
from bot.render.parts import stored_name
from bot.render.words import DESCRIPTION_LIMIT, TITLE_LIMIT, clip, rules_name

REPLAY_PREFIX = "farkle-replay"
# The game id and the page to show; a forged page past the last shows the last.
REPLAY_TEMPLATE = rf"{REPLAY_PREFIX}:(?P<game>[0-9a-f]{{1,16}}):(?P<page>[0-9]{{1,4}})"
PAGE_TEXT = 3000  # of an embed description's 4,096: a phone screen or two of turns
CHOICE_LIMIT = 100  # Discord's length of an autocomplete choice's name


def replay_pages(lines: list[str], limit: int | None = None) -> list[list[str]]:
    """The replay's lines (a turn each) in pages of at most `limit` characters (`PAGE_TEXT`); a longer
    line is cut."""
    limit = limit or PAGE_TEXT
    pages: list[list[str]] = [[]]
    used = 0
    for line in lines:
        line = clip(line, limit)
        if pages[-1] and used + len(line) + 1 > limit:
            pages.append([])
            used = 0
        pages[-1].append(line)
        used += len(line) + 1
    return pages


def _page_button(game_id: str, page: int, label: str, disabled: bool) -> Button:
    return Button(label=label, disabled=disabled, custom_id=f"{REPLAY_PREFIX}:{game_id}:{page}")


def replay_card(
    game_id: str, pages: list[list[str]], page: int, tr: Translator
) -> tuple[discord.Embed, DrawnView]:
    """One page of the replay, with Previous / Next: each button's id names the page it shows."""
    page = max(0, min(page, len(pages) - 1))
    title = tr.text("🎬 Replay of game {game}", game=game_id)
    embed = discord.Embed(title=clip(title, TITLE_LIMIT), colour=GOLD)
    embed.description = clip("\n".join(pages[page]), DESCRIPTION_LIMIT) or "—"
    embed.set_footer(text=tr.text("Page {page} of {pages}", page=page + 1, pages=len(pages)))
    previous = _page_button(game_id, page - 1, tr.text("◀ Previous"), page == 0)
    following = _page_button(game_id, page + 1, tr.text("Next ▶"), page >= len(pages) - 1)
    return embed, DrawnView(ActionRow(previous, following))


def game_choice(game: GameSummary, tr: Translator) -> str:
    """A recent game as an autocomplete choice: "a1b2c3 · 2026-11-27 · classic · ana, Computer 1"."""
    day = datetime.datetime.fromtimestamp(game.ended_at, datetime.UTC).date().isoformat()
    players = ", ".join(stored_name(name, tr) for name, _, _ in game.players)
    return clip(f"{game.game_id} · {day} · {rules_name(game.rules_name, tr)} · {players}", CHOICE_LIMIT)
