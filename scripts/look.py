"""Look at one command's answer on the `make play` page, in Chromium, wide and 390 px.

    .venv/bin/python scripts/look.py "/farkle help" --expect "Start a new game" [--lang de] [--out DIR]

Runs the command as the member on the page (an admin), reads the page until every `--expect` text is
shown with no Inspector report, then captures `<out>/<lang>-<size>-<command>.png`; else it fails naming
what is missing. For the answers the README's game pictures (`scripts/screenshots.py`) don't cover:
help, config, stats, tournaments.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
from pathlib import Path

from play import LOCALES, play_world
from playwright.async_api import TimeoutError as PageTimeout
from playwright.async_api import async_playwright
from screenshots import CHROMIUM, NO_CHROMIUM, SIZES, browser_page
from table_moves import command_on_page, settled


async def look(command: str, expected: list[str], language: str, out: Path) -> None:
    slug = re.sub(r"[^a-z0-9]+", "-", command.lower()).strip("-")
    async with async_playwright() as playwright:
        for size_name, size in SIZES.items():
            with tempfile.TemporaryDirectory() as scratch:
                async with play_world(Path(scratch) / "farkle.sqlite3", language=language) as table:
                    page = await browser_page(playwright, Path(scratch) / "chromium", size)
                    await page.goto(table.url)
                    await page.locator("#channel-composer-input").wait_for()
                    await command_on_page(page, command)
                    path = out / f"{language}-{size_name}-{slug}.png"
                    try:
                        for text in expected:
                            await page.get_by_text(text, exact=False).first.wait_for(timeout=10_000)
                    except PageTimeout as missing:
                        await page.screenshot(path=path.with_name(f"failed-{path.name}"), full_page=True)
                        raise AssertionError(f"{path.name}: the page does not show {expected}") from missing
                    await settled(page)
                    badge = (await page.locator(".inspector-count").inner_text()).strip()
                    if badge:
                        raise AssertionError(f"{path.name}: the Inspector reports {badge}")
                    await page.screenshot(path=path, full_page=True)
                    print(f"wrote {path}")
                    await page.context.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", help='the slash command as typed, e.g. "/farkle help"')
    parser.add_argument("--expect", action="append", required=True, help="text the answer must show")
    parser.add_argument("--lang", choices=sorted(LOCALES), default="en")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "farkle-look")
    args = parser.parse_args()
    if CHROMIUM is None:
        sys.exit(f"look: {NO_CHROMIUM}")
    args.out.mkdir(parents=True, exist_ok=True)
    asyncio.run(look(args.command, args.expect, args.lang, args.out))
