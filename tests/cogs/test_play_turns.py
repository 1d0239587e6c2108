"""One turn at a time: what the current player can press, and what everyone else is told."""

from __future__ import annotations

import simcord

from cogs.board.boards import SAVED_NOT_SHOWN
from tests.cogs.conftest import Dice, Table
from tests.cogs.play import (
    FARKLE,
    ROLL_OFF,
    act,
    board_message,
    buttons,
    description,
    disabled,
    field,
    fields,
    keep,
    keep_all,
    labels,
    last_turn,
    latest,
    open_game,
    pings,
    press,
    read_dice,
    refused,
    rolled,
    selected,
    set_aside,
    texts,
)

OUTDATED = "This board is out of date: use the newest board in the channel (`/farkle board` shows it)."


async def test_the_board_shows_the_roll_the_selection_and_the_odds(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF, (1, 5, 2, 3, 3, 4))
    await open_game(table.channel, table.ana, table.ben)
    board = board_message(table.channel)
    assert "🎲 ana won the roll-off (6, 2) and starts" in latest(table.channel)
    assert labels(board) == {"roll": "Roll 6 dice · 3.1% Farkle", "bank": "Bank 0", "hint": "Hint"}
    assert "bank" in disabled(board)
    assert pings(table.channel) == [f"<@{table.ana.id}> 🎲 it's your turn!"]

    await act(table.ana, table.channel, "roll")
    await keep(table.ana, table.channel, 0, 1)
    board = board_message(table.channel)
    assert rolled(board) == [1, 5, 2, 3, 3, 4]
    assert selected(board) == [0, 1], "selected dice are green buttons"
    assert not any("✅" in text or "⬛" in text for text in texts(board)), "no second row of marks"
    assert labels(board)["roll"] == "Roll 4 dice (+150) · 16% Farkle", "the chance of the roll it makes"
    assert labels(board)["bank"] == "Bank 150"
    assert "Next roll" not in "\n".join(texts(board))
    assert "Standings" in fields(board)

    await press(table.ana, table.channel, "die:1")  # unselect the 5
    assert labels(board_message(table.channel))["roll"] == "Roll 5 dice (+100) · 7.7% Farkle"


async def test_picking_dice_is_silent_and_the_buttons_say_whether_they_score(
    table: Table, dice: Dice
) -> None:
    dice.script(ROLL_OFF, (1, 5, 2, 2, 2, 4))
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")
    taps = [await press(table.ana, table.channel, f"die:{i}") for i in (2, 3)]
    board = board_message(table.channel)
    assert {"roll", "bank"} <= disabled(board), "a selection that does not score can't be rolled or banked"
    assert labels(board)["roll"] == labels(board)["bank"] == "Doesn't score"
    taps.append(await press(table.ana, table.channel, "die:4"))
    assert [tap.ephemeral or bool(tap.followups) for tap in taps] == [False] * 3, "no private message"
    assert labels(board_message(table.channel))["roll"] == "Roll 3 dice (+200) · 28% Farkle"


async def test_a_press_by_someone_else_is_refused_privately(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF, (1, 5, 2, 3, 3, 4))
    await open_game(table.channel, table.ana, table.ben)
    assert await refused(table.ben, table.channel, "roll") == "It's ana's turn."
    assert await refused(table.cy, table.channel, "roll") == "It's ana's turn."
    board = board_message(table.channel)
    assert rolled(board) == [], "nothing was rolled"
    await act(table.ana, table.channel, "roll")
    assert await refused(table.ben, table.channel, "die:0") == "It's ana's turn."
    assert selected(board_message(table.channel)) == []


async def test_hot_dice_roll_six_fresh_dice(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF, (1, 2, 3, 4, 5, 6), (5, 2, 3, 4, 6, 6))
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")
    await keep_all(table.ana, table.channel)
    assert labels(board_message(table.channel))["roll"] == "Roll 6 dice (+1,000) · 3.1% Farkle"
    await act(table.ana, table.channel, "roll")

    board = board_message(table.channel)
    assert set_aside(board) == "1 2 3 4 5 6 🔥 (+1,000)", "the six that scored, once, with the fire"
    assert rolled(board) == [5, 2, 3, 4, 6, 6]
    shown = "\n".join(texts(board))
    assert shown.count("🔥") == 1 and "hot dice" not in shown, "hot dice said once"
    assert "turn total **1,000**" in description(board)
    await keep(table.ana, table.channel, 0)
    await act(table.ana, table.channel, "bank")
    assert "🏦 ana banked 1,050 (now 1,050)" in latest(table.channel)


async def test_a_farkle_loses_the_turn_and_passes_the_dice(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF, (1, 2, 3, 4, 6, 6), (2, 3, 4, 6, 6), (1, 1, 1, 2, 3, 4))
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")
    await keep(table.ana, table.channel, 0)
    await act(table.ana, table.channel, "roll")

    board = board_message(table.channel)
    assert read_dice(last_turn(board)) == "💥 ana farkled and lost 100 · 2 3 4 6 6", "the roll that farkled"
    shown = texts(board)
    block = next(i for i, text in enumerate(shown) if text.startswith("> "))
    assert "**ben's turn**" in shown[block + 1], "right above the next player's heading"
    assert "farkled" not in "\n".join(shown[block + 1 :]), "said once"
    assert "▫️ **ana** · 0 ▱▱▱▱▱▱▱▱ · 💥" in field(board, "Standings")
    assert pings(table.channel) == [f"<@{table.ben.id}> 🎲 it's your turn!"], "the old ping is replaced"
    ping = table.channel.history()[-1]
    assert [user.id for user in ping.mentions] == [table.ben.id]
    await act(table.ben, table.channel, "roll")
    assert last_turn(board_message(table.channel)) == "", "shown until ben rolls"
    assert "💥 ana farkled and lost 100" in latest(table.channel), "then it is history"


async def test_bank_is_disabled_below_the_entry_minimum(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF, (1, 2, 3, 4, 6, 6), (5, 5, 5, 2, 3))
    await open_game(table.channel, table.ana, table.ben, rules="box")  # 500 to get on the board
    board = board_message(table.channel)
    assert "**ana** · 0 ▱▱▱▱▱▱▱▱ · not on the board" in field(board, "Standings")

    await act(table.ana, table.channel, "roll")
    await keep(table.ana, table.channel, 0)
    board = board_message(table.channel)
    assert labels(board)["bank"] == "Bank 100"
    assert "bank" in disabled(board) and "roll" not in disabled(board)
    assert "🔒 You need 500 to get on the board." in description(board)  # says why Bank is off

    await act(table.ana, table.channel, "roll")
    await keep(table.ana, table.channel, 0, 1, 2)
    board = board_message(table.channel)
    assert labels(board)["bank"] == "Bank 600" and "bank" not in disabled(board)
    assert "🔒" not in description(board)
    await act(table.ana, table.channel, "bank")
    standings = field(board_message(table.channel), "Standings")
    assert "**ana** · 600" in standings and "ana** · 600 · not on the board" not in standings


async def test_the_turn_ends_when_the_entry_roll_limit_passes_below_the_entry(
    table: Table, dice: Dice
) -> None:
    # doubling: 500 to get on the board, within 3 rolls
    dice.script(ROLL_OFF, (1, 2, 3, 4, 6, 6), (5, 2, 3, 4, 6), (1, 2, 3, 4))
    await open_game(table.channel, table.ana, table.ben, rules="doubling")
    await act(table.ana, table.channel, "roll")
    await keep(table.ana, table.channel, 0)
    await act(table.ana, table.channel, "roll")
    await keep(table.ana, table.channel, 0)
    await act(table.ana, table.channel, "roll")  # the third roll: 100 more is not enough

    board = board_message(table.channel)
    assert "🚪 ana didn't get on the board in time and lost 150" in latest(table.channel)
    assert "ben's turn" in description(board)
    assert "**ana** · 0 ▱▱▱▱▱▱▱▱ · not on the board" in field(board, "Standings")


async def test_piggyback_is_offered_and_taken(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF, (1, 2, 3, 4, 6, 6), (5, 2, 3, 4, 6))
    await open_game(table.channel, table.ana, table.ben, rules="last-loses")
    await act(table.ana, table.channel, "roll")
    await keep(table.ana, table.channel, 0)
    await act(table.ana, table.channel, "bank")  # leaves 5 dice and 100 points

    board = board_message(table.channel)
    assert labels(board)["roll"] == "Roll 6 fresh dice · 2.3% Farkle"
    assert labels(board)["piggyback"] == "Piggyback on 5 dice"
    await act(table.ben, table.channel, "piggyback")
    board = board_message(table.channel)
    assert "🐷 ben piggybacks on 5 dice for 100" in latest(table.channel)
    assert "piggyback" not in buttons(board)
    assert "turn total **100**" in description(board)
    await keep(table.ben, table.channel, 0)
    await act(table.ben, table.channel, "bank")
    assert "🏦 ben banked 150 (now 150)" in latest(table.channel)


async def test_piggyback_is_not_offered_without_the_rule(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF, (1, 2, 3, 4, 6, 6))
    await open_game(table.channel, table.ana, table.ben)  # classic: no piggybacking
    await act(table.ana, table.channel, "roll")
    await keep(table.ana, table.channel, 0)
    await act(table.ana, table.channel, "bank")
    board = board_message(table.channel)
    assert "piggyback" not in buttons(board) and labels(board)["roll"] == "Roll 6 dice · 3.1% Farkle"


async def test_a_double_click_is_applied_once(table: Table, dice: Dice) -> None:
    """The second click of a double click carries the same custom id: it arrives before the board changed.

    SimCord serialises members, so the board is kept from changing by failing both its edit as the answer
    and its redraw by id; the player is told privately that the move counts.
    """
    dice.script(ROLL_OFF, (1, 2, 3, 4, 6, 6))
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")
    await keep(table.ana, table.channel, 0)
    board = board_message(table.channel)
    bank = buttons(board)["bank"].custom_id

    table.env.inject_error("POST", "/interactions/*/callback")
    table.env.inject_error("PATCH", f"/channels/{table.channel.id}/messages/{board.id}")
    first = await table.ana.click(board, custom_id=bank)
    assert first.ephemeral and first.response.content == SAVED_NOT_SHOWN
    assert buttons(board_message(table.channel))["bank"].custom_id == bank, "the board did not change"

    second = await table.ana.click(board, custom_id=bank)
    assert not second.ephemeral, "a press on the board that fell behind is answered by redrawing it"
    # banked once: 100, not 200
    assert "▫️ **ana** · 100" in field(board_message(table.channel), "Standings")
    assert "ben's turn" in description(board_message(table.channel))


async def test_a_press_on_an_outdated_board_is_refused_and_not_applied(
    table: Table, dice: Dice, env: simcord.Env
) -> None:
    dice.script(ROLL_OFF, (1, 2, 3, 4, 6, 6))
    await open_game(table.channel, table.ana, table.ben)
    old = board_message(table.channel)
    env.inject_error("PATCH", f"/channels/{table.channel.id}/messages/{old.id}")  # the old board stays
    result = await table.ana.slash(table.channel, "farkle board")
    assert not result.ephemeral
    assert board_message(table.channel).id != old.id
    await act(table.ana, table.channel, "roll")  # on the new board

    content = (await table.ana.click(old, custom_id=buttons(old)["roll"].custom_id)).response.content
    assert content == OUTDATED
    board = board_message(table.channel)
    assert rolled(board) == [1, 2, 3, 4, 6, 6], "the old press rolled nothing"
    assert dice.unused == 0


async def test_a_channel_refusing_the_turn_ping_does_not_spoil_the_move(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF, FARKLE)
    await open_game(table.channel, table.ana, table.ben)
    table.env.inject_error(
        "POST", "/channels/*/messages", status=403, code=50013, message="Missing Permissions"
    )
    result = await press(table.ana, table.channel, "roll")  # a Farkle: ben's turn, whose ping is refused
    assert not result.ephemeral, "the move itself succeeded and is shown"
    assert [f.content for f in result.followups] == [], "and nobody is told something went wrong"
    assert "ben's turn" in description(board_message(table.channel))
    assert not any("ben" in ping for ping in pings(table.channel))
