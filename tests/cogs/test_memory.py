"""What a live bot keeps between presses: nothing drawn outlives the answer that showed it, and the
cycles answers leave behind are collected (and the pages freed handed back) once the bot is quiet.

discord.py keeps a view answered with `send_message` in its view store for the life of the process
(that path skips the `is_dispatchable` check every other path makes), buttons, texts and all: before
drawings said they were finished, every lobby, `/farkle board` and leaderboard page stayed there.
"""

from __future__ import annotations

import gc

import pytest

import bot.app.in_flight
from bot.app.in_flight import BURST_ANSWERS, COLLECT_AFTER
from bot.render.components import DrawnLayout, DrawnView
from tests.cogs.conftest import Dice, Table
from tests.cogs.forge import press_together
from tests.cogs.play import ROLL_OFF, act, board_message, buttons, open_game


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


async def test_the_first_quiet_moment_after_a_burst_collects_its_cycles(
    table: Table, dice: Dice, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Answers one at a time leave their cycles to the collector's young generations; a burst's outlive
    them and would wait for Python's own full collection, every few hundred answers."""
    dice.script(ROLL_OFF, (1, 5, 2, 3, 5, 1))
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")
    collected: list[bool] = []
    monkeypatch.setattr(bot.app.in_flight, "release_memory", lambda: collected.append(True) or True)
    for _ in range(BURST_ANSWERS):
        await table.ana.slash(table.channel, "farkle rules")
    assert collected == [], "one answer at a time is no burst"
    board = board_message(table.channel)
    tap = buttons(board)["die:0"].custom_id
    await press_together(table.env, [(table.ana, board, tap)] * BURST_ANSWERS)
    assert collected == [True], "one release, once the last answer of the burst was out"


@pytest.mark.parametrize("at_most", [bot.app.in_flight.PAUSE_COLLECTOR_AT_MOST, 5])
async def test_a_burst_pauses_the_collector_until_its_quiet_moment_or_for_so_many_answers(
    table: Table, dice: Dice, monkeypatch: pytest.MonkeyPatch, at_most: int
) -> None:
    """In a burst the collector's young collections walked the answers in flight again and again; the
    quiet moment after it collects every generation. A burst that goes on resumes the collector."""
    dice.script(ROLL_OFF, (1, 5, 2, 3, 5, 1))
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")
    collecting: list[bool] = []
    monkeypatch.setattr(
        bot.app.in_flight, "release_memory", lambda: collecting.append(gc.isenabled()) or True
    )
    monkeypatch.setattr(bot.app.in_flight, "PAUSE_COLLECTOR_AT_MOST", at_most)
    board = board_message(table.channel)
    tap = buttons(board)["die:0"].custom_id
    await press_together(table.env, [(table.ana, board, tap)] * (2 * BURST_ANSWERS))
    paused = at_most > BURST_ANSWERS + 1  # the answers begun once the burst reached BURST_ANSWERS
    assert collecting == [not paused], "collecting when the quiet moment came"
    assert gc.isenabled(), "the quiet moment resumes the collector"


async def test_a_started_bot_collects_young_cycles_less_often(table: Table) -> None:
    """Set once start-up is done (the collector's cost in a burst: `COLLECT_AFTER`)."""
    assert gc.get_threshold() == COLLECT_AFTER
