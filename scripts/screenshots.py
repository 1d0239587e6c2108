"""Screenshots of `make play` for the README: the page in Chromium, English and German, wide and 390 px.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots] [--seed 11] [--quick]

Each run plays one game against an `expert` computer on a 1,000-point target and saves the lobby, a turn
with dice selected, a Farkle just rolled and the results. Before each capture it reads the page, and the
run fails naming what disagrees unless:
- the state is there: the board's own words for it, taken from the board the bot drew (Start, Bank,
  "Farkle", Rematch), and no Inspector report;
- every number the bot drew on the board is on the page, and each die is shown in the style (colour) the
  bot drew it with: a picture never shows an older bot;
- in the lobby, each computer level's skill on the page is the one `bot/assets/level_skill.json` gives.
It uses the system's Chromium (Debian package `chromium`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import discord
from play import Table, play_world
from playwright.async_api import Page, async_playwright
from playwright.async_api import TimeoutError as PageTimeout
from table_moves import (
    board,
    click_on_page,
    command_on_page,
    enabled,
    every_component,
    free_dice,
    game_over,
    keepers,
    settled,
    turn_of,
    until,
    walk,
)

from bot.engine import LEVELS

# The system's Chromium, found once: the browser tests skip where it is missing and launch this one.
CHROMIUM = shutil.which("chromium")
NO_CHROMIUM = "chromium is not installed (apt-get install chromium)"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
TEXTS = ("content", "label")  # what a text display and a button show
LEVEL_SKILL = Path(__file__).resolve().parents[1] / "bot" / "assets" / "level_skill.json"
# Custom emojis, mentions and timestamps: the page draws them as pictures or words.
MARKUP = re.compile(r"<[^>]*>")
NUMBER = re.compile(r"\d+(?:[.,\u00a0\u202f]\d+)*")
# Each die button of the board: its face (the emoji's name) and its style, as the page draws them.
PAGE_DICE = """(article) => [...article.querySelectorAll('button.component-button')]
    .filter((button) => button.querySelector("img.custom-emoji[alt^='die_']"))
    .map((button) => [button.querySelector('img.custom-emoji').alt,
                      Number((button.className.match(/button-style-(\\d+)/) || [0, 0])[1])])"""
SIZES = {"wide": {"width": 1280, "height": 900}, "narrow": {"width": 390, "height": 844}}
LANGUAGES = ("en", "de")


async def browser_page(playwright: object, profile: Path, size: dict[str, int]) -> Page:
    """A fresh headless Chromium profile, its one page at this size."""
    context = await playwright.chromium.launch_persistent_context(  # type: ignore[attr-defined]
        profile, executable_path=CHROMIUM, headless=True, args=FLAGS, viewport=size
    )
    return context.pages[0] if context.pages else await context.new_page()


async def shoot(
    page: Page, table: Table, path: Path, *shown: str, selected: int = 0, lobby: bool = False
) -> None:
    """Capture the page once it shows the state named: the board's text holds every one of `shown`, the
    bot drew at least `selected` dice selected, the page draws the board's numbers and dice as the bot
    drew them (and, in the `lobby`, the measured skills), and the Inspector reports nothing; else fail,
    naming what is missing. The clock waits meanwhile (the gate), so a computer can't move the board away."""
    async with table.gate:
        drawn = board(table)
        article = page.locator(f"article[data-message-id='{drawn.id}']")
        dice = drawn_dice(drawn)
        try:
            for text in shown:
                await article.get_by_text(text, exact=False).first.wait_for(timeout=10_000)
            await page.wait_for_function(
                f"([id, dice]) => JSON.stringify(({PAGE_DICE})("
                "document.querySelector(`article[data-message-id='${id}']`))) === JSON.stringify(dice)",
                arg=[str(drawn.id), dice],
                timeout=10_000,
            )
        except PageTimeout as missing:
            await page.screenshot(path=path.with_name(f"failed-{path.name}"))
            page_dice = await article.evaluate(f"(article) => ({PAGE_DICE})(article)")
            raise AssertionError(
                f"{path.name}: the page does not show {shown}, or its dice {page_dice} are not {dice}"
            ) from missing
        picked = sum(action_of_die(button).startswith("drop:") for button in walk(drawn.components))
        assert picked >= selected, f"{path.name}: {picked} dice selected, {selected} wanted"
        await at_rest(page)
        await settled(page)
        badge = (await page.locator(".inspector-count").inner_text()).strip()
        if badge:
            reports = await page.locator(".inspector-panel").inner_text()
            raise AssertionError(
                f"{path.name}: the Inspector reports {badge}: {' '.join(reports.split())[:600]}"
            )
        on_page = await article.inner_text()
        missing_numbers = numbers_missing(drawn_text(drawn), on_page)
        assert not missing_numbers, f"{path.name}: the page lacks the drawn numbers {missing_numbers}"
        if lobby:
            labels = await article.locator(".button-label").all_inner_texts()
            shown_skills, measured = skill_figures(labels), measured_skills()
            assert shown_skills == measured, (
                f"{path.name}: skills {shown_skills} on the page, {measured} measured"
            )
        await page.screenshot(path=path)
    print(f"wrote {path}")


async def at_rest(page: Page) -> None:
    """Nothing hovered or focused: the page's hover colour of a button (blue over a green die, in SimCord's
    stylesheet) or a message's hover toolbar would be in the picture, not what the bot drew."""
    await page.locator("header.channel-header").hover()
    await page.evaluate("() => document.activeElement && document.activeElement.blur()")
    hovered = await page.evaluate("() => document.querySelectorAll('button:hover, article:hover').length")
    assert hovered == 0, f"{hovered} buttons or messages are still under the mouse"


def action_of_die(button: discord.Button) -> str:
    """`pick:2` or `drop:2` for a die of the roll (the custom id's action), else ""."""
    parts = (button.custom_id or "").split(":", 3)
    return parts[3] if len(parts) == 4 and parts[3].startswith(("pick:", "drop:")) else ""


def drawn_dice(message: discord.Message) -> list[list[Any]]:
    """Each die of the roll as the bot drew it: its face's emoji name and its button style (selected dice
    green), in order."""
    return [
        [button.emoji.name, button.style.value]
        for button in walk(message.components)
        if action_of_die(button) and button.emoji is not None
    ]


def drawn_text(message: discord.Message) -> str:
    """Every text the message shows: its content, its text displays and button labels."""
    shown = [getattr(c, attribute, None) for c in every_component(message.components) for attribute in TEXTS]
    return "\n".join([message.content or "", *(text for text in shown if isinstance(text, str))])


def numbers_missing(drawn: str, page: str) -> list[str]:
    """The numbers in the bot's drawing (markup left out) that the page's text does not show as often."""
    wanted = Counter(NUMBER.findall(MARKUP.sub(" ", drawn)))
    return sorted((wanted - Counter(NUMBER.findall(page))).elements())


def skill_figures(labels: list[str]) -> list[int]:
    """The skills on the page's buttons, in order: the number ending "Add computer: expert · skill 94"."""
    return [int(found[1]) for label in labels if (found := re.search(r"·\D*(\d+)\s*$", label.strip()))]


def measured_skills() -> list[int]:
    """Each level's skill in the lobby's order, rounded, as the shipped level_skill.json gives it, then
    "your level": the host of these pictures has played no game, so normal's."""
    levels = json.loads(LEVEL_SKILL.read_text())["levels"]
    return [*(round(levels[level]["skill"]) for level in LEVELS), round(levels["normal"]["skill"])]


def label(table: Table, action: str) -> str:
    button = enabled(table, action)
    assert button is not None and button.label, f"no {action} button on the board"
    return button.label


async def one_game(page: Page, table: Table, out: Path, prefix: str) -> None:
    """Lobby, a turn with dice selected, a Farkle just rolled, the results: one game, risky until it
    farkles."""
    await command_on_page(page, "/farkle new")
    await click_on_page(page, table, "cpu:expert")
    await shoot(page, table, out / f"{prefix}-lobby.png", label(table, "start"), lobby=True)
    await click_on_page(page, table, "start")
    selected = farkled = False
    while True:
        await until(lambda: turn_of(table, table.you) or game_over(table), 120)
        if game_over(table):
            break
        while enabled(table, "roll") is not None and turn_of(table, table.you):
            await click_on_page(page, table, "roll")
            await until(lambda: free_dice(table) or not turn_of(table, table.you))
            keep = keepers(table)
            if not turn_of(table, table.you):  # nothing scored: a Farkle passed the turn
                if not farkled:
                    await shoot(page, table, out / f"{prefix}-farkle.png", "Farkle")
                farkled = True
                break
            for position in keep if farkled else keep[:1]:
                await click_on_page(page, table, f"pick:{position}")
            if not selected:
                await shoot(page, table, out / f"{prefix}-turn.png", label(table, "bank"), selected=1)
                selected = True
            if farkled or len(free_dice(table)) < 2:
                await click_on_page(page, table, "bank")
                break
    await until(lambda: enabled(table, "rematch") is not None, 60)  # the results are drawn
    await shoot(page, table, out / f"{prefix}-results.png", label(table, "rematch"))


async def main(out: Path, seed: int) -> None:
    async with async_playwright() as playwright:
        for language in LANGUAGES:
            for name, size in SIZES.items():
                with tempfile.TemporaryDirectory() as scratch:
                    async with play_world(
                        Path(scratch) / "farkle.sqlite3", language=language, seed=seed
                    ) as table:
                        async with table.gate:  # a short game: the admin sets the target first
                            await table.you.slash(
                                table.channel, "farkle-config set", option="target", value="1000"
                            )
                        page = await browser_page(playwright, Path(scratch) / "chromium", size)
                        await page.goto(table.url)
                        await page.locator("#channel-composer-input").wait_for()
                        try:
                            await one_game(page, table, out, f"{language}-{name}")
                        except AssertionError:
                            await page.screenshot(path=out / "failed.png")
                            raise
                        await page.context.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).resolve().parents[1] / "docs" / "screenshots"
    )
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--quick", action="store_true", help="English and wide only")
    args = parser.parse_args()
    if CHROMIUM is None:
        sys.exit(f"screenshots: {NO_CHROMIUM}")
    args.out.mkdir(parents=True, exist_ok=True)
    if args.quick:
        LANGUAGES, SIZES = ("en",), {"wide": SIZES["wide"]}
    sys.exit(asyncio.run(main(args.out, args.seed)))
