"""Moves at the `make play` table, by a SimCord member or on the page in a browser (tests, screenshots).

A button is found by what it does (its custom id's action), never by where it is drawn; on the page, by
the label or die face the bot drew on it, inside the board's message, so any board layout and language work.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Iterator
from typing import Any

import discord
import simcord
from play import Table, channel_state
from preview_bridge import background_work_done


def every_component(components: list[Any]) -> Iterator[Any]:
    """Every component of a message, in action rows or Components V2 containers and sections."""
    for component in components:
        yield component
        for nested in ("children", "components"):
            yield from every_component(list(getattr(component, nested, None) or []))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from every_component([accessory])


def walk(components: list[Any]) -> Iterator[discord.Button]:
    """Every button of a message (`every_component`)."""
    return (component for component in every_component(components) if isinstance(component, discord.Button))


def board(table: Table) -> discord.Message:
    """The newest message of the bot with game buttons: the board a member looks at."""
    for message in reversed(table.channel.history()):
        if any((button.custom_id or "").startswith("farkle:") for button in walk(message.components)):
            return message
    raise AssertionError("no board in the channel")


def action_of(button: discord.Button) -> str:
    return (button.custom_id or "").split(":", 3)[3] if (button.custom_id or "").count(":") >= 3 else ""


def enabled(table: Table, action: str) -> discord.Button | None:
    """The board's enabled button doing `action` ("roll", "bank", "start", "cpu:expert", "pick:2"...)."""
    return next((b for b in walk(board(table).components) if action_of(b) == action and not b.disabled), None)


async def press(table: Table, member: simcord.MemberActor, action: str) -> None:
    button = enabled(table, action)
    assert button is not None, f"no enabled {action} button"
    async with table.gate:
        await background_work_done(table.env)
        await member.click(board(table), custom_id=button.custom_id)


def free_dice(table: Table) -> dict[int, int]:
    """The dice a member may still pick: position → face (read from the die's emoji, `die_N`)."""
    return {
        int(action_of(b).split(":")[1]): int(b.emoji.name.removeprefix("die_"))
        for b in walk(board(table).components)
        if action_of(b).startswith("pick:") and not b.disabled and b.emoji is not None
    }


def keepers(table: Table) -> list[int]:
    """The free dice worth keeping: every 1 and 5, else the dice of a set of three or more."""
    dice = free_dice(table)
    singles = [position for position, face in dice.items() if face in (1, 5)]
    counts = Counter(dice.values())
    return singles or [position for position, face in dice.items() if counts[face] >= 3]


async def play_one_turn(table: Table, member: simcord.MemberActor) -> None:
    """Roll, keep what scores, and bank: a plain but legal turn."""
    if enabled(table, "roll") is not None and not free_dice(table):
        await press(table, member, "roll")
    for position in keepers(table):
        await press(table, member, f"pick:{position}")
    if enabled(table, "bank") is not None:
        await press(table, member, "bank")


async def button_on_page(page: Any, table: Table, action: str) -> Any:
    """The page's button for the board's enabled button doing `action`, found by its drawn label or die
    face inside the board's message."""
    message = board(table)
    drawn = list(walk(message.components))
    target = next(b for b in drawn if action_of(b) == action and not b.disabled)
    looks = (target.label, target.emoji.name if target.emoji else None)
    twin = [b for b in drawn if (b.label, b.emoji.name if b.emoji else None) == looks].index(target)
    buttons = page.locator(f"article[data-message-id='{message.id}'] button.component-button")
    if target.label:
        found = buttons.filter(has=page.locator(".button-label", has_text=target.label))
    else:
        found = buttons.filter(has=page.locator(f"img[alt='{looks[1]}']"))
    return found.nth(twin)


async def click_on_page(page: Any, table: Table, action: str, tries: int = 3) -> None:
    """Click, in the browser, the board's button doing `action` (`button_on_page`).

    A click that crossed a republication (the bot changed the channel on its own just then) is refused
    by the page as out of date, as Discord refuses a press on a replaced drawing: it is clicked again.
    """
    for _ in range(tries):
        button = await button_on_page(page, table, action)
        before = channel_state(table)
        await button.click()
        await settled(page)
        with contextlib.suppress(AssertionError):  # a refusal is private: the channel stays as it was
            await until(lambda shown=before: channel_state(table) != shown, seconds=3)
        if channel_state(table) != before or enabled(table, action) is None:
            return


async def command_on_page(page: Any, command: str) -> None:
    """Type a slash command in the page's composer, choose it, and send it."""
    composer = page.locator("#channel-composer-input")
    await composer.click()
    await composer.type(command)
    await composer.press("Enter")
    await page.get_by_role("button", name="Send").click()
    await settled(page)


async def settled(page: Any) -> None:
    """The page finished its action and shows every image it has (the die faces)."""
    await page.wait_for_function(
        "() => !document.querySelector('[aria-busy=true]')"
        " && [...document.images].every((image) => image.complete)"
    )
    await page.wait_for_timeout(300)


def turn_of(table: Table, member: simcord.MemberActor) -> bool:
    """It is the member's turn and the board shows it (drawn at the game's current roll)."""
    snapshot = table.bot.services.sessions.snapshot(table.channel.id)
    if snapshot is None or snapshot.current != member.id or snapshot.stage != "playing":
        return False
    drawn_at = {(b.custom_id or "").split(":")[2] for b in walk(board(table).components) if action_of(b)}
    return drawn_at == {snapshot.seq}


def game_over(table: Table) -> bool:
    snapshot = table.bot.services.sessions.snapshot(table.channel.id)
    return snapshot is not None and snapshot.stage == "over"


async def until(condition: Any, seconds: float = 60) -> None:
    """Wait (real time: `make play` follows the wall clock) until the condition holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        assert loop.time() < deadline, "timed out waiting for the table"
        await asyncio.sleep(0.05)
