"""Turn pings leave with the game: however a game ends, no "it's your turn" is left in the channel."""

from __future__ import annotations

from tests.cogs.conftest import Dice, Table
from tests.cogs.play import FARKLE, ROLL_OFF, act, open_game, pings


async def test_a_game_ended_by_its_host_leaves_no_turn_ping(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF, FARKLE)
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")  # a Farkle: ben's turn, ben is pinged
    await table.env.advance_time(2)
    assert pings(table.channel) == [f"<@{table.ben.id}> 🎲 it's your turn!"]

    result = await table.ana.slash(table.channel, "farkle end")
    assert result.response is not None
    await table.env.advance_time(2)
    assert pings(table.channel) == [], "the ping was deleted with the game"


async def test_a_game_won_leaves_no_turn_ping(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF, FARKLE)
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")
    await table.env.advance_time(2)
    result = await table.ben.slash(table.channel, "farkle leave")  # ana is left alone: she wins
    assert result.response is not None
    await table.env.advance_time(2)
    assert pings(table.channel) == []
