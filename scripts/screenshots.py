"""Screenshots of `make play` for the README: the page in Chromium, English and German, wide and 390 px.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots] [--seed 11] [--quick]

Each run plays one game against an `expert` computer on a 1,000-point target and saves the lobby, a turn
with dice selected, a Farkle just rolled and the results. Before each capture it reads the page: the
state must be there (the board's own words for it, taken from the board the bot drew: Start, Bank,
"Farkle", Rematch) with no Inspector report, or the run fails naming what is missing. It uses the
system's Chromium (Debian package `chromium`).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
from pathlib import Path

from play import Table, play_world
from playwright.async_api import Page, async_playwright
from playwright.async_api import TimeoutError as PageTimeout
from table_moves import (
    board,
    click_on_page,
    command_on_page,
    enabled,
    free_dice,
    game_over,
    keepers,
    settled,
    turn_of,
    until,
)

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
SIZES = {"wide": {"width": 1280, "height": 900}, "narrow": {"width": 390, "height": 844}}
LANGUAGES = ("en", "de")


async def browser_page(playwright: object, profile: Path, size: dict[str, int]) -> Page:
    """A fresh headless Chromium profile, its one page at this size."""
    context = await playwright.chromium.launch_persistent_context(  # type: ignore[attr-defined]
        profile, executable_path=CHROMIUM, headless=True, args=FLAGS, viewport=size
    )
    return context.pages[0] if context.pages else await context.new_page()


async def shoot(page: Page, table: Table, path: Path, *shown: str, selected: int = 0) -> None:
    """Capture the page once it shows the state named: the board's text holds every one of `shown`, at
    least `selected` dice are drawn selected, and the Inspector reports nothing; else fail, naming what
    is missing. The clock waits meanwhile (the gate), so a computer can't move the board away."""
    async with table.gate:
        article = page.locator(f"article[data-message-id='{board(table).id}']")
        try:
            for text in shown:
                await article.get_by_text(text, exact=False).first.wait_for(timeout=10_000)
            if selected:
                await page.wait_for_function(
                    f"() => document.querySelectorAll(\"article[data-message-id='{board(table).id}']"
                    f' button.button-style-3 img.custom-emoji").length >= {selected}',
                    timeout=10_000,
                )
        except PageTimeout as missing:
            await page.screenshot(path=path.with_name(f"failed-{path.name}"))
            raise AssertionError(
                f"{path.name}: the page does not show {shown} ({selected} selected)"
            ) from missing
        await settled(page)
        badge = (await page.locator(".inspector-count").inner_text()).strip()
        if badge:
            reports = await page.locator(".inspector-panel").inner_text()
            raise AssertionError(
                f"{path.name}: the Inspector reports {badge}: {' '.join(reports.split())[:600]}"
            )
        await page.screenshot(path=path)
    print(f"wrote {path}")


def label(table: Table, action: str) -> str:
    button = enabled(table, action)
    assert button is not None and button.label, f"no {action} button on the board"
    return button.label


async def one_game(page: Page, table: Table, out: Path, prefix: str) -> None:
    """Lobby, a turn with dice selected, a Farkle just rolled, the results: one game, risky until it
    farkles."""
    await command_on_page(page, "/farkle new")
    await click_on_page(page, table, "cpu:expert")
    await shoot(page, table, out / f"{prefix}-lobby.png", label(table, "start"))
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
