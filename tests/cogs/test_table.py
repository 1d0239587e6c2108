"""The table as a member meets it: each die drawn once, the last turn above the current player, a
two-tap turn, exact countdowns, and a lobby whose host seats and unseats computers."""

from __future__ import annotations

import re

import discord
import simcord

from tests.cogs.conftest import Dice, Table
from tests.cogs.play import (
    DIE_EMOJI,
    FARKLE,
    ROLL_OFF,
    act,
    board_message,
    buttons,
    description,
    disabled,
    field,
    keep,
    labels,
    last_turn,
    latest,
    open_game,
    parts,
    refused,
    rolled,
    set_aside,
    texts,
)


def faces_drawn(message: discord.Message) -> int:
    """Every die face a player sees on a board: in its text and on its buttons."""
    in_text = sum(len(DIE_EMOJI.findall(text)) for text in texts(message))
    on_buttons = sum(
        1
        for item in parts(message)
        if isinstance(item, discord.Button) and item.emoji is not None and item.emoji.name.startswith("die_")
    )
    return in_text + on_buttons


def session_of(table: Table):  # type: ignore[no-untyped-def]
    return table.env.bot.services.sessions._games.in_channel(table.channel.id)  # type: ignore[attr-defined]


async def test_a_mid_turn_board_shows_each_die_once(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF, (1, 5, 2, 3, 3, 4), (1, 2, 3, 4), (5, 2, 3))
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")
    assert faces_drawn(board_message(table.channel)) == 6
    await keep(table.ana, table.channel, 0, 1)
    assert faces_drawn(board_message(table.channel)) == 6, "a selected die is its button, nothing more"
    await act(table.ana, table.channel, "roll")
    board = board_message(table.channel)
    assert rolled(board) == [1, 2, 3, 4] and set_aside(board) == "1 5 (+150)"
    assert faces_drawn(board) == 4 + 2, "the dice rolled plus the dice set aside"
    await keep(table.ana, table.channel, 0)
    await act(table.ana, table.channel, "roll")
    board = board_message(table.channel)
    assert set_aside(board) == "1 5 1 (+250)" and faces_drawn(board) == 3 + 3


async def test_hot_dice_are_drawn_once(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF, (1, 1, 1, 5, 5, 5), (5, 2, 3, 4, 6, 6))
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")
    await keep(table.ana, table.channel, *range(6))
    await act(table.ana, table.channel, "roll")  # six fresh dice
    board = board_message(table.channel)
    assert faces_drawn(board) == 6 + 6 and set_aside(board) == "1 1 1 5 5 5 🔥 (+1,500)"
    assert "🔥 ana has hot dice!" not in "\n".join(texts(board)), "the 🔥 says it"


async def test_a_farkle_sits_above_the_next_heading_until_that_player_rolls(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF, (1, 2, 3, 4, 6, 6), FARKLE[:5], (5, 2, 3, 4, 6, 6))
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")
    await keep(table.ana, table.channel, 0)
    await act(table.ana, table.channel, "roll")  # farkles: ben's turn
    board = board_message(table.channel)
    shown = texts(board)
    block = next(i for i, text in enumerate(shown) if text.startswith("> "))
    assert last_turn(board).startswith("💥 ana farkled and lost 100 · ")
    assert shown[block + 1].startswith("**ben's turn**"), "directly above ben's heading"
    assert not any("ana farkled" in text for text in shown[block + 1 :]), "not again in Latest"
    await act(table.ben, table.channel, "roll")
    board = board_message(table.channel)
    assert last_turn(board) == "" and "💥 ana farkled and lost 100" in field(board, "Latest")


async def test_a_timeout_is_the_last_turn_of_its_player(table: Table, dice: Dice, env: simcord.Env) -> None:
    dice.script(ROLL_OFF, (1, 2, 3, 4, 6, 6))
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")
    await env.advance_time(120)
    board = board_message(table.channel)
    assert last_turn(board) == (
        "⏰ ana ran out of time: the turn total is banked for them\n🏦 ana banked 100 (now 100)"
    )
    assert "**ben's turn**" in description(board)


async def test_roll_then_bank_all_banks_the_best_keep(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF, (1, 5, 2, 5, 3, 4))
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")
    board = board_message(table.channel)
    assert labels(board)["bank"] == "Bank all 200" and "bank" not in disabled(board)
    assert labels(board)["roll"] == "Pick dice to keep" and "roll" in disabled(board)
    await act(table.ana, table.channel, "bank")  # the second tap
    assert "🏦 ana banked 200 (now 200)" in latest(table.channel)
    assert "**ben's turn**" in description(board_message(table.channel))


async def test_fewer_dice_are_still_tapped_and_bank_all_is_off_where_no_bank_is_legal(
    table: Table, dice: Dice
) -> None:
    dice.script(ROLL_OFF, (1, 5, 2, 5, 3, 4), (1, 2, 3, 4, 6, 6))
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")
    await keep(table.ana, table.channel, 0)
    assert labels(board_message(table.channel))["bank"] == "Bank 100", "a selection banks what it says"
    await act(table.ana, table.channel, "bank")
    await table.ana.slash(table.channel, "farkle end")  # a new game under the box rules: 500 to enter
    dice.script(ROLL_OFF, (1, 2, 3, 4, 6, 6))
    await open_game(table.channel, table.ana, table.ben, rules="box")
    await act(table.ana, table.channel, "roll")
    board = board_message(table.channel)
    assert labels(board)["bank"] == "Bank 0" and "bank" in disabled(board), "100 can't get on the board"


def stamps(message: discord.Message) -> list[int]:
    return [int(stamp) for text in texts(message) for stamp in re.findall(r"<t:(\d+):R>", text)]


async def test_countdowns_are_the_deadlines_to_the_second(table: Table, dice: Dice, env: simcord.Env) -> None:
    await env.advance_time(0.6)  # a deadline with a fraction of a second
    await table.ana.slash(table.channel, "farkle new")
    deadline = session_of(table).deadline
    assert stamps(board_message(table.channel)) == [round(deadline)] and deadline % 1
    dice.script(ROLL_OFF)
    await act(table.ben, table.channel, "join")
    await act(table.ana, table.channel, "start")
    deadline = session_of(table).deadline
    assert stamps(board_message(table.channel)) == [round(deadline)]


async def test_the_host_removes_a_computer_and_is_not_asked_to_join(table: Table) -> None:
    await table.ana.slash(table.channel, "farkle new")
    await act(table.ana, table.channel, "cpu:easy")
    await act(table.ana, table.channel, "cpu:expert")
    lobby = board_message(table.channel)
    assert (
        labels(lobby)["uncpu:1"] == "Computer 1 (easy)" and labels(lobby)["uncpu:2"] == "Computer 2 (expert)"
    )
    assert await refused(table.ben, table.channel, "uncpu:1") == "Only the host can remove computer players."
    await act(table.ana, table.channel, "uncpu:1")
    players = field(board_message(table.channel), "Players (2/8)")
    assert "Computer 1" not in players and "Computer 2 (expert)" in players
    await act(table.ana, table.channel, "cpu:normal")  # takes the free number
    assert "Computer 1 (normal)" in field(board_message(table.channel), "Players (3/8)")
    assert (await refused(table.ana, table.channel, "join")).startswith("You're hosting this game")
    assert "uncpu:1" in buttons(board_message(table.channel))


async def test_rematch_seats_the_same_computers(table: Table, dice: Dice) -> None:
    await table.ana.slash(table.channel, "farkle new")
    await act(table.ben, table.channel, "join")
    await act(table.ana, table.channel, "cpu:easy")
    dice.script((6, 2, 1))
    await act(table.ana, table.channel, "start")
    await table.ben.slash(table.channel, "farkle leave")
    await table.ana.slash(table.channel, "farkle leave")  # the computer alone: it wins
    await act(table.ben, table.channel, "rematch")
    lobby = board_message(table.channel)
    assert field(lobby, "Players (2/8)") == "👑 ben\n• Computer 1 (easy)"
    await act(table.ana, table.channel, "join")
    assert "uncpu:1" in buttons(board_message(table.channel)), "ben hosts it and may unseat it"
