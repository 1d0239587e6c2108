"""Screenshots of `make play` for the README: the page in Chromium, English and German, wide and narrow.

    python scripts/screenshots.py [--out docs/screenshots] [--seed 11]

Each run plays one game against an `expert` computer on a 1,000-point target and saves the lobby, a turn
with dice selected, a Farkle and the results. It uses the system's Chromium (Debian package `chromium`).
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


async def shoot(page: Page, path: Path) -> None:
    await settled(page)
    await page.screenshot(path=path)
    print(f"wrote {path}")


async def my_turn(table: Table) -> None:
    await until(
        lambda: turn_of(table, table.you) or table.bot.sessions.snapshot(table.channel.id).stage == "over",
        120,
    )


async def one_game(page: Page, table: Table, out: Path, prefix: str) -> None:
    """Lobby, a turn with dice selected, a Farkle, the results: one game, risky until it farkles."""
    await command_on_page(page, "/farkle new")
    await click_on_page(page, table, "cpu:expert")
    await shoot(page, out / f"{prefix}-lobby.png")
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
                    await shoot(page, out / f"{prefix}-farkle.png")
                farkled = True
                break
            for position in keep if farkled else keep[:1]:
                await click_on_page(page, table, f"pick:{position}")
            if not selected:
                await shoot(page, out / f"{prefix}-turn.png")
                selected = True
            if farkled or len(free_dice(table)) < 2:
                await click_on_page(page, table, "bank")
                break
    await until(lambda: enabled(table, "rematch") is not None, 60)  # the results are drawn
    rematch = enabled(table, "rematch")
    assert rematch is not None and rematch.label
    results = page.locator(f"article[data-message-id='{board(table).id}']")
    await results.locator(".button-label", has_text=rematch.label).wait_for(state="visible")  # and shown
    await shoot(page, out / f"{prefix}-results.png")


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
