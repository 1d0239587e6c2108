"""The Activity's page in Chromium, as `make play` serves it (the SDK's mock, `?user=`): two members play a
turn from the Activity and the chat board shows it, a press on the chat board reaches the pages, a
spectator's tab shows the game without controls, and at 390×844 nothing is cut off.

Skipped with one line where Chromium (Debian package `chromium`) or Playwright is missing, as in CI.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.async_api", reason="playwright is not installed (pip install '.[play]')")

from loopback.activity_discord import Member
from play import MOCK_INSTANCE, Table, play_world
from playwright.async_api import Page, async_playwright
from screenshots import CHROMIUM, NO_CHROMIUM, browser_page
from table_moves import board, until

from tests.cogs.play import buttons, rolled

if CHROMIUM is None:
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1100, "height": 900}
# Where the pages' screenshots go for a person to look at (wide and phone, English and German), if set.
SHOTS = os.environ.get("ACTIVITY_SHOTS")


async def a_spectator(table: Table) -> str:
    """A third member of the server, in the Activity but not at the table: `?user=cy`."""
    assert table.sign_in is not None
    async with table.gate:  # the clock's driver waits
        cy = table.guild.add_member(table.env.create_user("cy", global_name="Cy"))
    member = Member(cy.id, "Cy", "en-US")
    table.sign_in.mock_members["cy"] = member
    table.sign_in.join(MOCK_INSTANCE, table.channel.id, table.guild.id, member)
    return "cy"


async def page_for(playwright: Any, table: Table, user: str, folder: Path, size: dict[str, int]) -> Page:
    page = await browser_page(playwright, folder / user, size)
    await page.goto(table.activity_url(user))
    return page


async def press(page: Page, name: str) -> None:
    await page.get_by_role("button", name=name, exact=False).first.click()


async def shown_dice(page: Page) -> list[str]:
    return await page.locator(".dice .die-button").evaluate_all("(dice) => dice.map((d) => d.ariaLabel)")


async def opened_and_started(
    playwright: Any, table: Table, folder: Path, size: dict[str, int]
) -> tuple[Page, Page]:
    """Alex opens a game from the Activity, Sam joins from theirs, Alex starts."""
    alex = await page_for(playwright, table, "alex", folder, size)
    sam = await page_for(playwright, table, "sam", folder, size)
    await press(alex, "Start a game")
    await sam.get_by_role("button", name="Join").wait_for()
    await press(sam, "Join")
    await alex.get_by_role("button", name="Start", exact=True).wait_for()
    await press(alex, "Start")
    await alex.locator(".status").wait_for()
    return alex, sam


def current(table: Table) -> str:
    snapshot = table.bot.services.sessions.snapshot(table.channel.id)
    assert snapshot is not None and snapshot.current is not None
    return "alex" if snapshot.current == table.you.id else "sam"


async def test_two_members_play_from_the_activity_and_the_chat_board_follows(tmp_path: Path) -> None:
    async with play_world(tmp_path / "farkle.sqlite3", seed=3) as table, async_playwright() as playwright:
        alex, sam = await opened_and_started(playwright, table, tmp_path, WIDE)
        cy = await page_for(playwright, table, await a_spectator(table), tmp_path, WIDE)
        pages = {"alex": alex, "sam": sam}
        mover, other = pages[current(table)], pages["sam" if current(table) == "alex" else "alex"]
        await mover.locator("button.roll").click()  # the Activity's Roll
        await mover.locator(".dice .die-button").first.wait_for()
        faces = len(await shown_dice(mover))
        await until(lambda: len(rolled(board(table))) == faces, 10)  # the chat board shows the roll
        await other.locator(".dice .die-button").nth(faces - 1).wait_for()
        assert await other.locator("button.roll").count() == 0, "not their turn: no controls"
        await cy.locator(".dice .die-button").nth(faces - 1).wait_for()
        assert await cy.locator(".controls").count() == 0, "a spectator sees the game, no controls"
        assert await cy.locator(".watching").is_visible()
        assert all(await cy.locator(".dice .die-button").evaluate_all("(d) => d.map((b) => b.disabled)"))

        # The other way round: a die picked on the chat board is picked on every page.
        snapshot = table.bot.services.sessions.snapshot(table.channel.id)
        assert snapshot is not None
        player = table.you if snapshot.current == table.you.id else table.friend
        first_die = buttons(board(table))["die:0"]
        async with table.gate:
            await player.click(board(table), custom_id=first_die.custom_id)
        for page in (alex, sam, cy):
            await page.get_by_role("button", name="die 1, picked").wait_for(timeout=10_000)
        await _shoot(mover, "wide-en")
        for page in (alex, sam, cy):
            await page.context.close()


async def test_at_phone_size_nothing_is_cut_off_in_english_and_german(tmp_path: Path) -> None:
    for language, word in (("en", "Start a game"), ("de", "Spiel starten")):
        folder = tmp_path / language
        world = play_world(folder / "farkle.sqlite3", seed=5, language=language)
        async with world as table, async_playwright() as playwright:
            alex = await page_for(playwright, table, "alex", folder, PHONE)
            await alex.get_by_role("button", name=word).wait_for()
            await alex.context.close()
            alex, sam = await _started_in(playwright, table, folder, language)
            mover = alex if current(table) == "alex" else sam
            await mover.locator("button.roll").click()
            await mover.locator(".dice .die-button").first.wait_for()
            await mover.wait_for_timeout(600)  # the roll's animation
            width = await mover.evaluate("() => document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"{language}: the page scrolls sideways ({width} px)"
            boxes = await mover.locator("button, h1, p, li").evaluate_all(
                "(all) => all.map((e) => { const r = e.getBoundingClientRect();"
                " return [e.textContent, r.left, r.right, e.scrollWidth > e.clientWidth + 1]; })"
            )
            cut = [
                text for text, left, right, clipped in boxes if left < 0 or right > PHONE["width"] or clipped
            ]
            assert not cut, f"{language}: cut off: {cut}"
            await _shoot(mover, f"phone-{language}")
            for page in (alex, sam):
                await page.context.close()


async def _started_in(playwright: Any, table: Table, folder: Path, language: str) -> tuple[Page, Page]:
    words = {"en": ("Start a game", "Join", "Start"), "de": ("Spiel starten", "Beitreten", "Starten")}
    new, join, start = words[language]
    alex = await page_for(playwright, table, "alex", folder / "2", PHONE)
    sam = await page_for(playwright, table, "sam", folder / "2", PHONE)
    await press(alex, new)
    await sam.get_by_role("button", name=join, exact=True).wait_for()
    await press(sam, join)
    await alex.get_by_role("button", name=start, exact=True).wait_for()
    await alex.get_by_role("button", name=start, exact=True).click()
    await alex.locator(".status").wait_for()
    return alex, sam


async def _shoot(page: Page, name: str) -> None:
    if SHOTS:  # Playwright makes the folder
        await page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)
