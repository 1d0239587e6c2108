"""A press goes straight to the board edge: its listener reads the button from the raw interaction and
answers it, with no view rebuilt from the pressed card and nothing relayed by the client."""

from __future__ import annotations

import logging

import discord
import pytest

from bot.app.client import FarkleBot
from tests.cogs.conftest import Dice, Table
from tests.cogs.forge import forged_component
from tests.cogs.play import ROLL_OFF, act, board_message, buttons, open_game


async def test_a_press_is_answered_by_the_board_edge_without_rebuilding_the_card(
    table: Table, dice: Dice, monkeypatch: pytest.MonkeyPatch
) -> None:
    rebuilt: list[int] = []
    from_message = discord.ui.LayoutView.from_message.__func__  # type: ignore[attr-defined]

    def spy(cls: type[discord.ui.LayoutView], message: discord.Message, /, **kwargs: object) -> object:
        rebuilt.append(message.id)
        return from_message(cls, message, **kwargs)

    monkeypatch.setattr(discord.ui.LayoutView, "from_message", classmethod(spy))
    dice.script(ROLL_OFF, (1, 5, 2, 3, 4, 6))
    await open_game(table.channel, table.ana, table.ben)  # Join and Start, pressed
    await act(table.ana, table.channel, "roll")  # answered by editing the board
    await act(table.ana, table.channel, "die:0")

    assert buttons(board_message(table.channel))["die:0"].custom_id.endswith(":drop:0")  # type: ignore[union-attr]
    assert rebuilt == [], "discord.py rebuilt a pressed card as a view"
    relays = {"on_game_press", "on_page_press", "answer_presses"}
    assert not relays & set(dir(FarkleBot)), "the client relays nothing"


async def test_a_select_carrying_a_game_buttons_id_is_ignored_quietly(
    table: Table, dice: Dice, caplog: pytest.LogCaptureFixture
) -> None:
    dice.script(ROLL_OFF)
    await open_game(table.channel, table.ana, table.ben)
    board = board_message(table.channel)
    roll = buttons(board)["roll"].custom_id
    assert roll is not None

    result = await forged_component(table.ana, board, roll, values=["1"])
    assert not result.acknowledged
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert table.env.errors == []
