"""`/farkle watch`: a spectator's follow board in another channel, read-only, coalesced, restart-proof."""

from __future__ import annotations

from typing import cast

import discord
import pytest
import simcord

import cogs.board.follow
from cogs.board.boards import Boards
from cogs.board.follow import ALREADY, NOT_YOURS, SAME_CHANNEL
from cogs.watch import NOTHING_TO_WATCH
from tests.cogs.conftest import Dice, Table
from tests.cogs.forge import forged_component, press_together
from tests.cogs.play import (
    FARKLE,
    ROLL_OFF,
    SIX_ONES,
    MakeBot,
    act,
    big_turn,
    board_message,
    buttons,
    farkle,
    keep_all,
    open_game,
    read_dice,
    restart,
    texts,
    title,
)


def version(table: Table) -> int:
    snapshot = farkle(table.env).services.sessions.snapshot(table.channel.id)
    assert snapshot is not None
    return snapshot.version


def shown_on(table: Table, follow: discord.Message) -> int | None:
    """The game version the ledger says a follow board shows."""
    boards = cast(Boards, farkle(table.env).get_cog("Boards"))
    views = [view for view in boards.ledger.all_follows() if view.message_id == follow.id]
    assert len(views) == 1, "the follow board is in the ledger"
    return views[0].shown_version


def edits_of(env: simcord.Env, follow: discord.Message, since: int) -> int:
    path = f"/channels/{follow.channel.id}/messages/{follow.id}"
    return sum(1 for r in env.http_requests[since:] if r.method == "PATCH" and r.path == path)


async def test_a_follow_board_tracks_a_game_to_its_results_across_a_restart_and_refuses_presses(
    table: Table, dice: Dice, env: simcord.Env, make_bot: MakeBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The edits' pace has its own test below; at 2 s an edit, this game's 35 waited 70 s of real time.
    monkeypatch.setattr(cogs.board.follow, "EDIT_EVERY", 0.05)
    lounge = table.guild.create_text_channel("lounge")
    dice.script(ROLL_OFF, *[SIX_ONES] * 5, FARKLE)
    await open_game(table.channel, table.ana, table.ben)
    watched = await table.cy.slash(lounge, "farkle watch", member=table.ana)
    assert not watched.ephemeral
    follow = board_message(lounge)
    assert list(buttons(follow)) == ["farkle-follow"], "read-only: Stop watching is its one button"

    await act(table.ana, table.channel, "roll")
    await env.advance_time(3)
    (roll,) = [line for line in texts(board_message(lounge)) if line.startswith("🎲 Roll: ")]
    assert read_dice(roll) == "🎲 Roll: 1 1 1 1 1 1", "a spectator reads the roll as faces, once"

    stop = buttons(board_message(lounge))["farkle-follow"].custom_id
    refused = await table.ben.click(board_message(lounge), custom_id=stop)
    assert refused.ephemeral and refused.response is not None and refused.response.content == NOT_YOURS
    pick = buttons(board_message(table.channel))["die:0"].custom_id
    assert pick is not None
    before = version(table)
    forged = await forged_component(table.ben, board_message(lounge), pick)  # a game button it never had
    assert forged.ephemeral and version(table) == before, "a press there changes nothing"

    await restart(env, make_bot)
    since = len(env.http_requests)
    await keep_all(table.ana, table.channel)
    await env.advance_time(3)
    assert edits_of(env, follow, since) >= 1 and shown_on(table, follow) == version(table), "still followed"
    await big_turn(table.ana, table.channel, 4)  # 10,000 banked: ben's last turn
    await act(table.ben, table.channel, "roll")  # a Farkle ends the game
    await env.advance_time(3)

    results = board_message(lounge)
    assert results.id == follow.id and title(results) == "🏆 ana wins!"
    assert buttons(results) == {}, "it ends with the results, without buttons"


async def test_twenty_moves_in_two_seconds_make_at_most_two_edits_of_a_follow_board(
    table: Table, dice: Dice, env: simcord.Env
) -> None:
    lounge = table.guild.create_text_channel("lounge")
    dice.script(ROLL_OFF, SIX_ONES)
    await open_game(table.channel, table.ana, table.ben)
    game = farkle(env).services.sessions.snapshot(table.channel.id)
    assert game is not None
    options = await table.cy.autocomplete(lounge, "farkle watch", "game", "")
    assert [option["value"] for option in options] == [game.game_id]
    assert options[0]["name"] == "#games · ana, ben"
    await table.cy.slash(lounge, "farkle watch", game=game.game_id)
    follow = board_message(lounge)
    await env.advance_time(3)
    await act(table.ana, table.channel, "roll")
    board = board_message(table.channel)
    pick = buttons(board)["die:0"].custom_id
    assert pick is not None and pick.endswith(":pick:0")
    drop = pick.replace(":pick:0", ":drop:0")
    since = len(env.http_requests)
    taps = [(table.ana, board, (pick, drop)[n % 2]) for n in range(20)]  # 20 moves at one moment
    answers = await press_together(env, taps)  # type: ignore[arg-type]
    assert not any(answer.ephemeral for answer in answers)
    await env.advance_time(2)
    assert 1 <= edits_of(env, follow, since) <= 2
    assert shown_on(table, follow) == version(table), "the last edit shows the game as it is now"


async def test_watching_is_refused_in_the_games_channel_twice_in_one_channel_and_for_no_game(
    table: Table, dice: Dice
) -> None:
    lounge = table.guild.create_text_channel("lounge")
    dice.script(ROLL_OFF)
    nothing = await table.cy.slash(lounge, "farkle watch", member=table.ana)
    assert nothing.ephemeral and nothing.response is not None and nothing.response.content == NOTHING_TO_WATCH
    await open_game(table.channel, table.ana, table.ben)
    here = await table.cy.slash(table.channel, "farkle watch", member=table.ana)
    assert here.ephemeral and here.response is not None and here.response.content == SAME_CHANNEL
    await table.cy.slash(lounge, "farkle watch", member=table.ben)
    again = await table.ana.slash(lounge, "farkle watch", member=table.ben)
    assert again.ephemeral and again.response is not None and again.response.content == ALREADY


async def test_a_game_has_at_most_three_follow_boards(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF)
    await open_game(table.channel, table.ana, table.ben)
    answers = []
    for name in ("one", "two", "three", "four"):
        answers.append(
            await table.cy.slash(table.guild.create_text_channel(name), "farkle watch", member=table.ana)
        )
    assert [answer.ephemeral for answer in answers] == [False, False, False, True]
    last = answers[-1].response
    assert last is not None and "3 follow boards" in last.content


async def test_stopping_a_follow_board_with_an_edit_pending_leaves_nothing_behind(
    table: Table, dice: Dice, env: simcord.Env
) -> None:
    lounge = table.guild.create_text_channel("lounge")
    dice.script(ROLL_OFF, SIX_ONES)
    await open_game(table.channel, table.ana, table.ben)
    await table.cy.slash(lounge, "farkle watch", member=table.ana)
    follow = board_message(lounge)
    await act(table.ana, table.channel, "roll")  # edited at once
    await act(table.ana, table.channel, "die:0")  # this edit waits out `EDIT_EVERY`
    stop = buttons(follow)["farkle-follow"].custom_id
    since = len(env.http_requests)
    stopped = await table.cy.click(follow, custom_id=stop)
    assert not stopped.ephemeral and not lounge.history(), "its owner stopped it"
    await env.advance_time(3)
    follows = cast(Boards, farkle(env).get_cog("Boards")).follows
    assert edits_of(env, follow, since) == 0, "a stopped follow board is not edited"
    assert not follows._editors and not follows._last_edit, "nor remembered"
