"""What a live bot keeps between presses: nothing drawn outlives the answer that showed it, and the
cycles answers leave behind are collected once the bot is quiet.

discord.py keeps a view answered with `send_message` in its view store for the life of the process
(that path skips the `is_dispatchable` check every other path makes), buttons, texts and all: before
drawings said they were finished, every lobby, `/farkle board` and leaderboard page stayed there.
"""

from __future__ import annotations

import gc

import pytest

from bot.client import COLLECT_AFTER_ANSWERS
from bot.render.components import DrawnLayout, DrawnView
from tests.cogs.conftest import Dice, Table
from tests.cogs.play import ROLL_OFF, act, open_game


def drawings_alive() -> list[object]:
    gc.collect()
    return [kept for kept in gc.get_objects() if isinstance(kept, DrawnLayout | DrawnView)]


async def test_no_drawing_outlives_its_answer(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF, (1, 5, 2, 3, 5, 1))
    await open_game(table.channel, table.ana, table.ben)  # the lobby is the answer to /farkle new
    await act(table.ana, table.channel, "roll")
    for command in ("farkle board", "farkle leaderboard", "farkle rules"):
        result = await table.ana.slash(table.channel, command)
        assert result.response is not None
    assert drawings_alive() == []


async def test_a_quiet_moment_after_many_answers_collects_their_cycles(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Python's own full collection comes every few hundred answers; a burst's cycles would wait for it."""
    collected: list[int] = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: collected.append(generation) or 0)
    for _ in range(COLLECT_AFTER_ANSWERS - 1):
        await table.ana.slash(table.channel, "farkle rules")
    assert collected == []
    await table.ana.slash(table.channel, "farkle rules")
    assert collected == [2], "one full collection, once the last answer was out"
