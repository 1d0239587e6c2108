"""Boards that fell behind their game heal: after a failed answer at once, after a crash at start-up.

Every accepted move is committed before the board is edited, so a process that dies in between (or a
Discord answer that fails) leaves a board one move behind, whose buttons would all be out of date.
"""

from __future__ import annotations

import json

import pytest
import simcord

from bot.services.i18n import translator
from cogs.board.boards import SAVED_NOT_SHOWN
from cogs.board.catch_up import UNREADABLE, CatchUp
from tests.cogs.conftest import Dice, Table
from tests.cogs.play import (
    ROLL_OFF,
    SIX_ONES,
    MakeBot,
    act,
    board_message,
    buttons,
    description,
    die_face,
    execute,
    keep,
    open_game,
    pings,
    press,
    query,
    restart,
    rolled,
)

UNKNOWN_MESSAGE = {"status": 404, "code": 10008, "message": "Unknown Message"}


async def banked_unseen(table: Table, dice: Dice) -> None:
    """ana banks, and every way the bot has to show it fails: the answer, the redraw and ben's ping."""
    dice.script(ROLL_OFF, SIX_ONES)
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")
    await keep(table.ana, table.channel, 0, 1, 2)
    board = board_message(table.channel)
    table.env.inject_error("POST", "/interactions/*/callback", times=2)
    table.env.inject_error("PATCH", f"/channels/{table.channel.id}/messages/{board.id}")
    table.env.inject_error("POST", f"/channels/{table.channel.id}/messages")
    await press(table.ana, table.channel, "bank")
    assert "ana's turn" in description(board_message(table.channel)), "the board fell behind"
    assert pings(table.channel) == [f"<@{table.ana.id}> 🎲 it's your turn!"]


async def test_a_board_left_behind_by_a_crash_is_redrawn_at_start_up(
    table: Table, dice: Dice, env: simcord.Env, make_bot: MakeBot
) -> None:
    await banked_unseen(table, dice)
    await restart(env, make_bot)
    await env.advance_time(1)

    board = board_message(table.channel)
    assert "ben's turn" in description(board)
    assert pings(table.channel)[-1] == f"<@{table.ben.id}> 🎲 it's your turn!", "the missed ping is sent"
    await act(table.ben, table.channel, "roll")  # the healed board's buttons work


async def test_a_board_that_is_up_to_date_is_not_redrawn_at_start_up(
    table: Table, dice: Dice, env: simcord.Env, make_bot: MakeBot
) -> None:
    dice.script(ROLL_OFF, SIX_ONES)
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")
    before = len(env.http_requests)
    await restart(env, make_bot)
    await env.advance_time(1)
    edits = [r for r in env.http_requests[before:] if r.method == "PATCH" and "/messages/" in r.path]
    assert edits == []
    assert len(pings(table.channel)) == 1


async def test_a_failed_answer_redraws_the_board_by_its_id(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF, SIX_ONES)
    await open_game(table.channel, table.ana, table.ben)
    table.env.inject_error("POST", "/interactions/*/callback", status=500)
    await press(table.ana, table.channel, "roll")
    assert die_face(buttons(board_message(table.channel))["die:0"]) == 1, "the board shows the roll"
    await keep(table.ana, table.channel, 0)  # the next press works on the only board


async def test_a_board_deleted_under_a_press_is_posted_again(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF, SIX_ONES)
    await open_game(table.channel, table.ana, table.ben)
    old = board_message(table.channel)
    table.env.inject_error("POST", "/interactions/*/callback", **UNKNOWN_MESSAGE)
    table.env.inject_error("PATCH", f"/channels/{table.channel.id}/messages/{old.id}", **UNKNOWN_MESSAGE)
    await press(table.ana, table.channel, "roll")
    board = board_message(table.channel)
    assert board.id != old.id and die_face(buttons(board)["die:0"]) == 1
    await keep(table.ana, table.channel, 0)


async def test_when_even_the_redraw_fails_the_player_is_told_privately(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF, SIX_ONES)
    await open_game(table.channel, table.ana, table.ben)
    board = board_message(table.channel)
    table.env.inject_error("POST", "/interactions/*/callback")
    table.env.inject_error("PATCH", f"/channels/{table.channel.id}/messages/{board.id}")
    result = await press(table.ana, table.channel, "roll")
    assert result.ephemeral and result.response is not None
    assert result.response.content == SAVED_NOT_SHOWN


async def damage_the_saved_game(table: Table, env: simcord.Env) -> None:
    """The channel's saved game loses a field it can't be read without."""
    ((saved,),) = await query(env, "SELECT state FROM sessions WHERE channel_id = :c", c=table.channel.id)
    state = json.loads(saved)
    del state["seats"]
    await execute(
        env, "UPDATE sessions SET state = :s WHERE channel_id = :c", s=json.dumps(state), c=table.channel.id
    )


async def test_a_damaged_saved_game_is_left_aside_and_the_others_come_back(
    table: Table, dice: Dice, env: simcord.Env, make_bot: MakeBot
) -> None:
    other = table.guild.create_text_channel("other")
    dice.script(ROLL_OFF)
    dice.script(ROLL_OFF, SIX_ONES)
    await open_game(table.channel, table.ana, table.ben)
    await open_game(other, table.ana, table.ben)
    await damage_the_saved_game(table, env)

    await restart(env, make_bot)
    await env.advance_time(1)

    assert table.channel.history()[-1].content == UNREADABLE
    await act(table.ana, other, "roll")  # the good game plays on
    result = await table.ana.slash(table.channel, "farkle new")  # and the damaged channel takes a new one
    assert not result.ephemeral


async def test_no_first_press_is_refused_after_ten_hard_kills(
    table: Table, dice: Dice, env: simcord.Env, make_bot: MakeBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each time a roll is committed but never drawn (the process dies before its edit), and the
    catch-up has not reached the board yet (at scale it takes minutes): the first press on that board
    is answered by redrawing it, never with "out of date"."""

    # The catch-up is never started (its ledger is read, its redraws never run).
    async def never(catch_up: CatchUp, channels: list[int], unreadable: tuple[int, ...]) -> None:
        return None

    monkeypatch.setattr(CatchUp, "_run", never)
    dice.script(ROLL_OFF, *[SIX_ONES] * 10)
    await open_game(table.channel, table.ana, table.ben)
    refused = 0
    for kill in range(10):
        player = (table.ana, table.ben)[kill % 2]
        board = board_message(table.channel)
        table.env.inject_error("POST", "/interactions/*/callback", times=2)
        table.env.inject_error("PATCH", f"/channels/{table.channel.id}/messages/{board.id}", status=403)
        await press(player, table.channel, "roll")
        assert rolled(board_message(table.channel)) == [], "the roll was never drawn"
        await restart(env, make_bot)
        first = await press(player, table.channel, "roll")
        refused += first.ephemeral
        assert rolled(board_message(table.channel)) == [1, 1, 1, 1, 1, 1]
        await keep(player, table.channel, 0, 1, 2)
        await act(player, table.channel, "bank")
    assert refused == 0


async def test_the_damaged_games_notice_reads_the_servers_language_setting(
    table: Table, dice: Dice, env: simcord.Env, make_bot: MakeBot, admin: simcord.MemberActor
) -> None:
    await admin.slash(table.channel, "farkle-config set", option="language", value="fr")
    dice.script(ROLL_OFF)
    await open_game(table.channel, table.ana, table.ben)
    await damage_the_saved_game(table, env)

    await restart(env, make_bot)
    await env.advance_time(1)

    assert table.channel.history()[-1].content == translator("fr").term(UNREADABLE) != UNREADABLE
