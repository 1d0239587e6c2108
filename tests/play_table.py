"""A member's moves at the play table, found by what a button does (its custom id), not where it is drawn."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from typing import Any

import discord
import simcord
from play import Table


def walk(components: list[Any]) -> Iterator[discord.Button]:
    """Every button of a message, in action rows or Components V2 containers and sections."""
    for component in components:
        if isinstance(component, discord.Button):
            yield component
        for nested in ("children", "components"):
            yield from walk(list(getattr(component, nested, None) or []))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from walk([accessory])


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
        await member.click(board(table), custom_id=button.custom_id)


def free_dice(table: Table) -> dict[int, int]:
    """The dice a member may still pick: position → face (read from the die's emoji, `die_N`)."""
    return {
        int(action_of(b).split(":")[1]): int(b.emoji.name.removeprefix("die_"))
        for b in walk(board(table).components)
        if action_of(b).startswith("pick:") and not b.disabled and b.emoji is not None
    }


async def play_one_turn(table: Table, member: simcord.MemberActor) -> None:
    """Roll, keep every 1, 5 and set of three or more, and bank: a plain but legal turn."""
    if enabled(table, "roll") is not None and not free_dice(table):
        await press(table, member, "roll")
    dice = free_dice(table)
    counts = Counter(dice.values())
    for position, face in dice.items():
        if face in (1, 5) or counts[face] >= 3:
            await press(table, member, f"pick:{position}")
    if enabled(table, "bank") is not None:
        await press(table, member, "bank")


def turn_of(table: Table, member: simcord.MemberActor) -> bool:
    """It is the member's turn and the board shows it (drawn at the game's current roll)."""
    snapshot = table.bot.sessions.snapshot(table.channel.id)
    roll = enabled(table, "roll")
    return (
        snapshot is not None
        and snapshot.current == member.id
        and roll is not None
        and (roll.custom_id or "").split(":")[2] == snapshot.seq
    )


async def until(condition: Any, seconds: float = 60) -> None:
    """Wait (real time: `make play` follows the wall clock) until the condition holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        assert loop.time() < deadline, "timed out waiting for the table"
        await asyncio.sleep(0.05)
