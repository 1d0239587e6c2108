"""Presses sent from an older drawing of a board, as real Discord delivers them.

Discord refuses a press whose custom id is no longer on the message (SimCord's `click` checks the
message as stored now, so it refuses the same way), and a player's screen lags the bot's edits: quick
taps come from a drawing the bot has already replaced. Ids must therefore stay put within a roll.
"""

from __future__ import annotations

from typing import cast

import discord
import pytest
import simcord

from bot.render.components import DrawnView
from bot.render.layout import ActionRow, Button
from bot.sessions.commands import OUTDATED
from cogs.board import publish
from cogs.board.boards import SAVED_NOT_SHOWN, Boards
from tests.cogs.conftest import Dice, Table
from tests.cogs.forge import press_together
from tests.cogs.out_of_order import OutOfOrderAnswers
from tests.cogs.play import (
    ROLL_OFF,
    act,
    board_message,
    buttons,
    description,
    farkle,
    labels,
    open_game,
)
from tests.cogs.play import rolled as roll_on_table
from tests.cogs.play import selected as selected_on

ROLL = (1, 5, 2, 3, 5, 1)  # four scoring dice: 0, 1, 4, 5


def selected(table: Table) -> set[int]:
    """The dice the newest board shows selected."""
    return set(selected_on(board_message(table.channel)))


async def rolled(table: Table, dice: Dice, *rolls: tuple[int, ...]) -> None:
    dice.script(ROLL_OFF, ROLL, *rolls)
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")


async def test_three_dice_tapped_from_one_drawing_all_count(table: Table, dice: Dice) -> None:
    await rolled(table, dice)
    drawing = board_message(table.channel)
    ids = {key: b.custom_id for key, b in buttons(drawing).items()}
    for die in (0, 4, 5):
        result = await table.ana.click(drawing, custom_id=ids[f"die:{die}"])
        assert not result.ephemeral, result.response and result.response.content
    assert selected(table) == {0, 4, 5}
    now = {key: b.custom_id for key, b in buttons(board_message(table.channel)).items()}
    changed = {key for key in ids if ids[key] != now[key]}
    assert changed == {"die:0", "die:4", "die:5"}, "only the toggled dice changed their ids"


async def test_a_double_tap_from_one_drawing_leaves_the_die_selected(table: Table, dice: Dice) -> None:
    """The second tap carries an id the board no longer shows, so Discord refuses it; the die stays
    selected. (A second tap that reaches the bot before the edit is a no-op: tests/sessions.)"""
    await rolled(table, dice)
    drawing = board_message(table.channel)
    pick = buttons(drawing)["die:1"].custom_id
    await table.ana.click(drawing, custom_id=pick)
    with pytest.raises(simcord.SetupError, match="No matching component"):
        await table.ana.click(drawing, custom_id=pick)
    assert selected(table) == {1}


async def test_roll_from_a_drawing_older_than_the_last_toggles(table: Table, dice: Dice) -> None:
    await rolled(table, dice, (2, 2, 2, 6))
    drawing = board_message(table.channel)  # nothing selected on this drawing
    ids = buttons(drawing)
    for die in (0, 5):
        await table.ana.click(drawing, custom_id=ids[f"die:{die}"].custom_id)
    result = await table.ana.click(drawing, custom_id=ids["roll"].custom_id)
    assert not result.ephemeral, result.response and result.response.content
    board = board_message(table.channel)
    assert roll_on_table(board) == [2, 2, 2, 6], "both 1s were kept: four dice rolled"
    assert "turn total **200**" in description(board)


async def test_a_press_from_the_previous_roll_redraws_the_board(table: Table, dice: Dice) -> None:
    """The board is kept on its old drawing by failing the answer to Roll and its redraw: the player is
    told privately that the roll counts, and a die of the old roll is never applied: the answer to it
    is the board as it is now."""
    await rolled(table, dice, (2, 3, 4, 6, 2))  # the second roll Farkles
    drawing = board_message(table.channel)
    ids = buttons(drawing)
    await table.ana.click(drawing, custom_id=ids["die:0"].custom_id)
    table.env.inject_error("POST", "/interactions/*/callback")
    table.env.inject_error("PATCH", f"/channels/{table.channel.id}/messages/{drawing.id}")
    roll = await table.ana.click(drawing, custom_id=ids["roll"].custom_id)
    assert roll.ephemeral and roll.response is not None and roll.response.content == SAVED_NOT_SHOWN

    late = await table.ana.click(drawing, custom_id=ids["die:4"].custom_id)
    assert not late.ephemeral and late.response is not None and late.response.id == drawing.id
    assert "ben's turn" in description(board_message(table.channel))


async def test_a_press_on_an_old_copy_of_the_board_is_out_of_date(table: Table, dice: Dice) -> None:
    """`/farkle board` posts a new copy and retiring the old one fails: a press from an older roll on
    that copy is refused as out of date (it is not the game's board any more)."""
    await rolled(table, dice, (2, 2, 2, 6, 5))
    old = board_message(table.channel)
    die = buttons(old)["die:0"].custom_id
    table.env.inject_error("PATCH", f"/channels/{table.channel.id}/messages/{old.id}", times=3)
    await table.ana.slash(table.channel, "farkle board")
    await act(table.ana, table.channel, "die:0")
    await act(table.ana, table.channel, "roll")
    late = await table.ana.click(old, custom_id=die)
    assert late.ephemeral and late.response is not None and late.response.content == str(OUTDATED)


async def test_lobby_buttons_keep_their_ids_while_players_join(table: Table) -> None:
    await table.ana.slash(table.channel, "farkle new")
    drawing = board_message(table.channel)
    join = buttons(drawing)["join"].custom_id
    await table.ben.click(drawing, custom_id=join)
    result = await table.cy.click(drawing, custom_id=join)  # cy's screen still shows the empty lobby
    assert not result.ephemeral
    assert buttons(board_message(table.channel))["join"].custom_id == join


async def test_a_press_on_an_old_copy_of_the_board_moves_the_board_players_follow(
    table: Table, dice: Dice
) -> None:
    """`/farkle board` could not take the buttons off the old copy: a press there in the same roll
    counts, and the newest board shows it too."""
    await rolled(table, dice)
    old = board_message(table.channel)
    table.env.inject_error("PATCH", f"/channels/{table.channel.id}/messages/{old.id}")
    await table.ana.slash(table.channel, "farkle board")
    result = await table.ana.click(old, custom_id=buttons(old)["die:0"].custom_id)
    assert not result.ephemeral
    assert selected(table) == {0}, "the newest board shows the die picked on the old copy"


async def test_a_board_drawn_before_the_upgrade_becomes_a_v2_card(table: Table, dice: Dice) -> None:
    """Boards posted by an older version are embeds with buttons; a press on one is answered by
    editing it into the Components V2 card (content and embeds cleared, the flag set)."""
    dice.script(ROLL_OFF, ROLL)
    await open_game(table.channel, table.ana, table.ben)
    roll_id = buttons(board_message(table.channel))["roll"].custom_id
    bot = farkle(table.env)
    old_buttons = DrawnView(ActionRow(Button(label="Roll 6 dice", custom_id=roll_id)))
    old_board = discord.Embed(title="🎲 Farkle game · classic rules", description="**ana's turn**")
    sent = await bot.get_partial_messageable(table.channel.id).send(embed=old_board, view=old_buttons)
    snapshot = bot.services.sessions.snapshot(table.channel.id)
    assert snapshot is not None
    await cast(Boards, bot.get_cog("Boards")).publisher.attach(snapshot, sent.id, "channel")
    old = next(message for message in table.channel.history() if message.id == sent.id)
    assert old.embeds and not old.flags.components_v2

    result = await table.ana.click(old, custom_id=roll_id)
    assert not result.ephemeral
    now = next(message for message in table.channel.history() if message.id == sent.id)
    assert now.flags.components_v2 and not now.embeds and not now.content
    assert roll_on_table(now) == [1, 5, 2, 3, 5, 1]


async def _three_taps_answered_newest_first(
    table: Table, dice: Dice, monkeypatch: pytest.MonkeyPatch
) -> None:
    await rolled(table, dice)
    drawing = board_message(table.channel)
    ids = {key: b.custom_id for key, b in buttons(drawing).items()}
    answers = OutOfOrderAnswers(monkeypatch, burst=3)
    taps = [(table.ana, drawing, ids[f"die:{die}"]) for die in (0, 4, 5)]
    results = await press_together(table.env, taps)  # type: ignore[arg-type]
    assert not any(result.ephemeral for result in results)
    assert answers.applied == 3
    await table.env.advance_time(1)


async def test_three_taps_whose_answers_land_newest_first_leave_the_board_showing_three_picks(
    table: Table, dice: Dice, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _three_taps_answered_newest_first(table, dice, monkeypatch)
    assert farkle(table.env).services.sessions.snapshot(table.channel.id).selection == (0, 4, 5)  # type: ignore[union-attr]
    assert selected(table) == {0, 4, 5}, "the board shows the game's latest state"
    shown = labels(board_message(table.channel))
    assert shown["roll"].startswith("Roll 3 dice (+250)") and shown["bank"] == "Bank 250", (
        "labelled for three"
    )
    assert not cast(Boards, farkle(table.env).get_cog("Boards")).publisher._repairs, "a repair done is let go"


async def test_without_the_repair_the_double_leaves_an_older_drawing_on_the_board(
    table: Table, dice: Dice, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The double bites: the oldest answer, applied last, is what the board shows (the race seen on
    real Discord), so the test above fails with the repair switched off."""
    monkeypatch.setattr(publish, "REPAIR", False)
    await _three_taps_answered_newest_first(table, dice, monkeypatch)
    assert selected(table) == {0}
    assert labels(board_message(table.channel))["bank"] == "Bank 100"
