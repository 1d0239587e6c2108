"""A press goes straight to the board edge: the `DynamicItem` that matches its id answers it."""

from __future__ import annotations

import sys

import discord
import pytest

from bot.client import FarkleBot
from tests.cogs.conftest import Dice, Table
from tests.cogs.play import ROLL_OFF, act, open_game


async def test_a_press_is_answered_in_the_board_edges_callback_with_no_relay(
    table: Table, dice: Dice, monkeypatch: pytest.MonkeyPatch
) -> None:
    answered: list[tuple[str, int]] = []
    GameButton = sys.modules["cogs.board"].GameButton  # the class the running bot loaded and registered
    callback = GameButton.callback

    async def spy(self: discord.ui.DynamicItem, interaction: discord.Interaction) -> None:
        answered.append((str(self.ref.action), interaction.user.id))
        await callback(self, interaction)

    monkeypatch.setattr(GameButton, "callback", spy)
    dice.script(ROLL_OFF, (1, 5, 2, 3, 4, 6))
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")

    assert answered == [("join", table.ben.id), ("start", table.ana.id), ("roll", table.ana.id)]
    relays = {"on_game_press", "on_page_press", "answer_presses"}
    assert not relays & set(dir(FarkleBot)), "the client relays nothing"
