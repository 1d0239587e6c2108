"""`make play` in Chromium: the page starts a game, shows the rolled board, and plays a whole game.

Skipped with one line where Chromium (Debian package `chromium`) or Playwright is missing, as in CI.
"""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

import pytest

pytest.importorskip("playwright.async_api", reason="playwright is not installed (pip install '.[play]')")

from PIL import Image, ImageStat
from play import FRIENDS_NAME, YOUR_NAME, Table, play_world
from playwright.async_api import async_playwright
from screenshots import CHROMIUM, NO_CHROMIUM, browser_page, one_game
from table_moves import (
    board,
    click_on_page,
    command_on_page,
    enabled,
    free_dice,
    game_over,
    settled,
    turn_of,
    until,
)

if CHROMIUM is None:
    pytest.skip(NO_CHROMIUM, allow_module_level=True)


async def open_game(page: object, table: Table) -> None:
    await command_on_page(page, "/farkle new")
    await click_on_page(page, table, "cpu:expert")
    await click_on_page(page, table, "start")
    await until(lambda: turn_of(table, table.you), 60)


async def test_the_page_starts_a_game_and_shows_the_rolled_board(tmp_path: Path) -> None:
    async with play_world(tmp_path / "farkle.sqlite3", seed=3) as table, async_playwright() as playwright:
        page = await browser_page(playwright, tmp_path / "chromium", {"width": 1280, "height": 900})
        await page.goto(table.url)
        await open_game(page, table)
        await click_on_page(page, table, "roll")
        await until(lambda: bool(free_dice(table)) or not turn_of(table, table.you))
        if free_dice(table):
            await click_on_page(page, table, f"pick:{min(free_dice(table))}")
        drawn = page.locator(f"article[data-message-id='{board(table).id}']")
        faces = await drawn.locator("img.custom-emoji").evaluate_all(
            "(images) => images.map((image) => [image.alt, image.naturalWidth])"
        )
        assert faces and all(alt.startswith("die_") and width > 0 for alt, width in faces), faces
        shot = Image.open(BytesIO(await drawn.screenshot())).convert("L")
        assert shot.width > 300 and shot.height > 200
        assert max(ImageStat.Stat(shot).stddev) > 20, "the board's region is blank"
        await page.context.close()


async def test_a_whole_game_against_expert_is_played_from_the_page(tmp_path: Path) -> None:
    async with play_world(tmp_path / "farkle.sqlite3", seed=11) as table, async_playwright() as playwright:
        async with table.gate:  # a short game: the admin sets a 1,000-point target first
            await table.you.slash(table.channel, "farkle-config set", option="target", value="1000")
        page = await browser_page(playwright, tmp_path / "chromium", {"width": 390, "height": 844})
        await page.goto(table.url)
        await page.locator("#channel-composer-input").wait_for()
        await one_game(page, table, tmp_path, "game")
        assert game_over(table)
        rematch = enabled(table, "rematch")
        assert rematch is not None and rematch.label
        results = page.locator(f"article[data-message-id='{board(table).id}']")
        await results.locator(".button-label", has_text=rematch.label).wait_for(
            state="visible", timeout=10_000
        )
        await page.context.close()


async def test_the_friend_joins_from_the_viewer_switch_and_commands_answer(tmp_path: Path) -> None:
    async with play_world(tmp_path / "farkle.sqlite3") as table, async_playwright() as playwright:
        page = await browser_page(playwright, tmp_path / "chromium", {"width": 1280, "height": 900})
        await page.goto(table.url)
        answers = page.locator("article.channel-message")
        for command in ("/farkle rules", "/farkle help", "/farkle new"):
            shown = await answers.count()
            await command_on_page(page, command)
            await page.wait_for_function(
                "(shown) => document.querySelectorAll('article.channel-message').length > shown", arg=shown
            )
        await page.get_by_label("Viewing as").select_option(label=FRIENDS_NAME)
        await settled(page)
        await click_on_page(page, table, "join")
        await page.get_by_label("Viewing as").select_option(label=YOUR_NAME)
        await settled(page)
        await click_on_page(page, table, "start")
        snapshot = table.bot.services.sessions.snapshot(table.channel.id)
        assert snapshot is not None and snapshot.stage == "playing"
        assert {seat.user_id for seat in snapshot.seats} == {table.you.id, table.friend.id}
        await page.context.close()
