"""What a live bot keeps between presses: nothing drawn outlives the answer that showed it.

discord.py keeps a view answered with `send_message` in its view store for the life of the process
(that path skips the `is_dispatchable` check every other path makes), buttons, texts and all: before
drawings said they were finished, every lobby, `/farkle board` and leaderboard page stayed there.
"""

from __future__ import annotations

import gc

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
