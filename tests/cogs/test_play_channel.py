"""The life of a game in a channel: lobby, timers, ending, leaving, rematch, and the other commands."""

from __future__ import annotations

import re

import discord
import pytest
import simcord

from tests.cogs.conftest import Dice, Table
from tests.cogs.forge import press_together
from tests.cogs.play import (
    FARKLE,
    ROLL_OFF,
    SIX_ONES,
    act,
    big_turn,
    board_message,
    buttons,
    description,
    field,
    fields,
    keep,
    latest,
    open_game,
    pings,
    press,
    refused,
    rolled,
    selected,
    texts,
    title,
)


def players(channel: simcord.ChannelHandle) -> list[str]:
    message = board_message(channel)
    name = next(name for name in fields(message) if name.startswith("Players"))
    return field(message, name).splitlines()


async def finish_quickly(table: Table, dice: Dice) -> None:
    """ana wins a 2-player classic game in one turn; ben's last turn Farkles."""
    dice.script(ROLL_OFF, *[SIX_ONES] * 5, FARKLE)
    await open_game(table.channel, table.ana, table.ben)
    await big_turn(table.ana, table.channel, 5)
    await act(table.ben, table.channel, "roll")
    assert title(board_message(table.channel)) == "🏆 ana wins!"


# ---------------------------------------------------------------------- lobby


async def test_lobby_join_leave_and_host_only_start(table: Table) -> None:
    channel = table.channel
    result = await table.ana.slash(channel, "farkle new")
    assert not result.ephemeral
    assert title(board_message(channel)) == "🎲 Farkle lobby · classic rules"
    assert players(channel) == ["👑 ana"]
    assert await refused(table.ana, channel, "start") == "You need at least 2 players to start."

    await act(table.ben, channel, "join")
    assert (await table.cy.slash(channel, "farkle join")).ephemeral  # acknowledged privately
    assert players(channel) == ["👑 ana", "• ben", "• cy"]
    assert await refused(table.ben, channel, "join") == "You're already in this game."
    assert await refused(table.ben, channel, "start") == "Only the host, ana, can start."
    assert await refused(table.ben, channel, "cancel") == "Only the host can cancel the lobby."

    await act(table.cy, channel, "leave")
    assert players(channel) == ["👑 ana", "• ben"]
    again = await table.ben.slash(channel, "farkle new")
    assert again.ephemeral and again.response.content == "There is already a Farkle lobby in this channel."

    await act(table.ana, channel, "start")
    assert title(board_message(channel)) == "🎲 Farkle game · classic rules"
    assert "cy" not in field(board_message(channel), "Standings")


async def test_the_host_leaving_hands_the_lobby_over(table: Table) -> None:
    await table.ana.slash(table.channel, "farkle new")
    await act(table.ben, table.channel, "join")
    await act(table.ana, table.channel, "leave")
    assert players(table.channel) == ["👑 ben"]
    await act(table.ben, table.channel, "leave")
    assert description(board_message(table.channel)) == "Everyone left the lobby."
    assert buttons(board_message(table.channel)) == {}


async def test_the_host_cancels_the_lobby(table: Table) -> None:
    await table.ana.slash(table.channel, "farkle new")
    await act(table.ana, table.channel, "cancel")
    board = board_message(table.channel)
    assert description(board) == "The host cancelled this lobby." and buttons(board) == {}
    result = await table.ben.slash(table.channel, "farkle join")
    assert result.response.content == "There is no open lobby here: start one with `/farkle new`."


async def test_the_lobby_is_full_at_the_maximum_players(table: Table) -> None:
    members = [table.ana, table.ben, table.cy]
    members += [table.guild.add_member(table.env.create_user(f"p{n}")) for n in range(4, 10)]
    await table.ana.slash(table.channel, "farkle new")
    for member in members[1:8]:
        await act(member, table.channel, "join")
    assert field(board_message(table.channel), "Players (8/8)").count("\n") == 7
    assert await refused(members[8], table.channel, "join") == "This game is full (8 players)."


async def test_an_idle_lobby_expires_and_says_so(table: Table, env: simcord.Env) -> None:
    await table.ana.slash(table.channel, "farkle new")
    await act(table.ben, table.channel, "join")  # activity restarts the 10 minutes
    await env.advance_time(599)
    assert title(board_message(table.channel)).startswith("🎲 Farkle lobby")
    await env.advance_time(1)
    board = board_message(table.channel)
    assert description(board) == "This lobby expired: nobody started it in time."
    assert buttons(board) == {}
    result = await table.ana.slash(table.channel, "farkle start")
    assert result.response.content == "There is no open lobby here: start one with `/farkle new`."


async def test_unknown_rules_are_refused_and_presets_autocomplete(table: Table) -> None:
    result = await table.ana.slash(table.channel, "farkle new", rules="poker")
    assert result.ephemeral
    assert result.response.content.startswith("Unknown rules “poker”: choose one of classic, box")
    choices = await table.ana.autocomplete(table.channel, "farkle new", "rules", "lo")
    assert [choice["value"] for choice in choices] == ["last-loses"]


# ---------------------------------------------------------------------- time


async def test_a_turn_reminds_at_half_time_and_times_out(table: Table, dice: Dice, env: simcord.Env) -> None:
    dice.script(ROLL_OFF)
    await open_game(table.channel, table.ana, table.ben)
    await env.advance_time(59)
    assert "⏳" not in table.channel.history()[-1].content
    await env.advance_time(1)
    reminder = table.channel.history()[-1]
    assert reminder.content == f"<@{table.ana.id}> ⏳ 60 seconds left on your turn!"
    assert [user.id for user in reminder.mentions] == [table.ana.id]
    assert "ana's turn" in description(board_message(table.channel))

    await env.advance_time(60)
    board = board_message(table.channel)
    assert "ben's turn" in description(board)
    assert "⏰ ana ran out of time: the turn ends like a Farkle (1 in a row)" in latest(table.channel)
    assert pings(table.channel) == [f"<@{table.ben.id}> 🎲 it's your turn!"]
    assert not [m for m in table.channel.history() if "⏳" in m.content], "the reminder went with the turn"


async def test_tapping_never_extends_the_turn_and_a_timeout_banks_what_can_be_banked(
    table: Table, dice: Dice, env: simcord.Env, admin: simcord.MemberActor
) -> None:
    result = await admin.slash(table.channel, "farkle-config set", option="turn_timeout", value="15")
    assert result.ephemeral
    dice.script(ROLL_OFF, (1, 2, 3, 4, 6, 6))
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")
    countdown = re.search(r"⏱️ <t:\d+:R>", description(board_message(table.channel)))
    assert countdown is not None
    for die in (0, 3):  # a tap every 3 s, then idle
        await env.advance_time(3)
        await act(table.ana, table.channel, f"die:{die}")
        assert countdown[0] in description(board_message(table.channel)), "the countdown never moves"
    await env.advance_time(2)  # 8 s in: 7 s are left
    assert table.channel.history()[-1].content == f"<@{table.ana.id}> ⏳ 7 seconds left on your turn!"
    await env.advance_time(7)
    assert "ben's turn" in description(board_message(table.channel))
    moves = latest(table.channel)
    assert "⏰ ana ran out of time: the turn total is banked for them" in moves
    assert "🏦 ana banked 100 (now 100)" in moves, "the selection (1 and 4) doesn't score: the 1 is banked"
    assert not [m for m in table.channel.history() if "⏳" in m.content], "the reminder went with the turn"
    assert pings(table.channel) == [f"<@{table.ben.id}> 🎲 it's your turn!"]


async def test_three_idle_turns_remove_a_player_and_end_a_two_player_game(
    table: Table, dice: Dice, env: simcord.Env
) -> None:
    dice.script(ROLL_OFF)
    await open_game(table.channel, table.ana, table.ben)
    for _ in range(4):  # ana, ben, ana, ben
        await env.advance_time(120)
    assert "⏰ ben ran out of time: the turn ends like a Farkle (2 in a row)" in latest(table.channel)
    await env.advance_time(120)  # ana's third
    board = board_message(table.channel)
    assert title(board) == "🏆 ben wins!"
    assert "🚫 ana was removed after three idle turns" in latest(table.channel)
    assert list(buttons(board)) == ["farkle-review", "rematch"]


# ---------------------------------------------------------------------- ending and leaving


async def test_end_by_a_non_host_is_refused_and_by_a_moderator_accepted(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF)
    await open_game(table.channel, table.ana, table.ben)
    result = await table.ben.slash(table.channel, "farkle end")
    assert result.ephemeral
    assert result.response.content == "Only the host or a member with Manage Messages can end this game."
    assert "ana's turn" in description(board_message(table.channel))

    mods = table.guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    mod = table.guild.add_member(table.env.create_user("mod"), roles=[mods])
    result = await mod.slash(table.channel, "farkle end")
    assert result.ephemeral and result.response.content == "Done: the game is closed."
    board = board_message(table.channel)
    assert description(board) == "This game was ended before anyone won; it does not count."
    assert buttons(board) == {}


async def test_the_host_ends_the_game(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF)
    await open_game(table.channel, table.ana, table.ben)
    result = await table.ana.slash(table.channel, "farkle end")
    assert result.response.content == "Done: the game is closed."
    assert buttons(board_message(table.channel)) == {}
    assert (await table.ana.slash(table.channel, "farkle new")).ephemeral is False


async def test_leaving_mid_game_is_announced_and_play_goes_on(table: Table, dice: Dice) -> None:
    dice.script((6, 2, 3))
    await open_game(table.channel, table.ana, table.ben, table.cy)
    result = await table.ben.slash(table.channel, "farkle leave")
    assert result.ephemeral and result.response.content == "You left the game."
    board = board_message(table.channel)
    assert "👋 ben left the game" in latest(table.channel)
    assert "~~ben~~ (out)" in field(board, "Standings")
    again = await table.ben.slash(table.channel, "farkle leave")
    assert again.response.content == "You're not in this game."

    await table.ana.slash(table.channel, "farkle leave")  # the current player: the turn passes
    board = board_message(table.channel)
    assert title(board) == "🏆 cy wins!"


async def test_a_press_after_the_game_is_over_is_refused(table: Table, dice: Dice, env: simcord.Env) -> None:
    dice.script(ROLL_OFF, (1, 2, 3, 4, 6, 6))
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")
    live = board_message(table.channel)
    env.inject_error("PATCH", f"/channels/{table.channel.id}/messages/{live.id}")  # keep the old buttons
    await table.ana.slash(table.channel, "farkle board")
    await table.ben.slash(table.channel, "farkle end")  # refused: not the host
    await table.ana.slash(table.channel, "farkle end")
    result = await table.ana.click(live, custom_id=buttons(live)["die:0"].custom_id)
    assert result.ephemeral and result.response.content == "This game has ended."


# ---------------------------------------------------------------------- rematch


async def test_rematch_needs_every_player_and_rolls_off_again(table: Table, dice: Dice) -> None:
    await finish_quickly(table, dice)
    results = board_message(table.channel)
    dice.script((2, 6))  # the rematch's roll-off: ben starts this time

    await act(table.ana, table.channel, "rematch")
    lobby = board_message(table.channel)
    assert lobby.id != results.id, "the rematch lobby is a new message"
    assert title(lobby) == "🎲 Farkle lobby · classic rules"
    assert players(table.channel) == ["👑 ana"]
    assert await refused(table.ana, table.channel, "start") == "You need at least 2 players to start."
    await table.env.advance_time(1)  # the call goes out once the answers are out
    calls = [m for m in table.channel.history() if "A rematch is open" in m.content]
    assert [m.content for m in calls] == [
        f"<@{table.ben.id}> 🎲 A rematch is open: press Join on the lobby to play again!"
    ], "the last game's other player is called once, the one who asked is not"

    result = await table.ben.click(results, custom_id=buttons(results)["rematch"].custom_id)
    assert not (result.response and result.response.content.startswith("Something"))
    assert players(table.channel) == ["👑 ana", "• ben"]
    lobbies = [m for m in table.channel.history() if "lobby" in title(m)]
    assert len(lobbies) == 1, "ben's press joins the rematch lobby instead of posting another one"
    await table.env.advance_time(1)
    assert len([m for m in table.channel.history() if "A rematch is open" in m.content]) == 1, "called once"

    await act(table.ana, table.channel, "start")
    board = board_message(table.channel)
    assert "🎲 ben won the roll-off (2, 6) and starts" in latest(table.channel)
    assert "ben's turn" in description(board)
    late = await table.ben.click(results, custom_id=buttons(results)["rematch"].custom_id)
    assert late.response.content == ("This rematch is no longer available: start a game with `/farkle new`.")


async def test_rematch_pressed_by_both_players_at_once_posts_one_lobby(table: Table, dice: Dice) -> None:
    await finish_quickly(table, dice)
    results = board_message(table.channel)
    rematch = buttons(results)["rematch"].custom_id
    answers = await press_together(table.env, [(table.ana, results, rematch), (table.ben, results, rematch)])
    lobbies = [m for m in table.channel.history() if "lobby" in title(m)]
    assert len(lobbies) == 1, "one game, one lobby message"
    assert sorted(players(table.channel)) == ["• ben", "👑 ana"]
    assert [a.ephemeral for a in answers] == [False, True]  # ana posted it, ben is told privately
    assert answers[1].response is not None and answers[1].response.content == "Done: the board is updated."


async def test_a_press_on_a_new_lobby_before_a_second_fetch_would_return_posts_no_second_lobby(
    table: Table, env: simcord.Env
) -> None:
    """The lobby's message id comes with the answer that posts it: no second request (here it would
    fail, as if it had not returned yet) stands between the lobby and a quick Join."""
    env.inject_error("GET", "/webhooks/*/messages/@original", times=None)
    await table.ana.slash(table.channel, "farkle new")
    await act(table.ben, table.channel, "join")
    lobbies = [m for m in table.channel.history() if "lobby" in title(m)]
    assert len(lobbies) == 1 and players(table.channel) == ["👑 ana", "• ben"]


async def test_a_press_just_after_the_board_was_deleted_counts_and_gets_a_new_board(
    table: Table, dice: Dice, env: simcord.Env
) -> None:
    dice.script(ROLL_OFF, (1, 2, 3, 4, 6, 6))
    await open_game(table.channel, table.ana, table.ben)
    board = board_message(table.channel)
    gone = {"status": 404, "code": 10008, "message": "Unknown Message"}
    env.inject_error("POST", "/interactions/*/callback", **gone)  # Discord's answer to editing it
    env.inject_error("PATCH", f"/channels/{table.channel.id}/messages/{board.id}", **gone)
    result = await press(table.ana, table.channel, "roll")
    assert result.ephemeral and result.response is not None
    assert (
        result.response.content
        == "Your move counts. The board had been deleted, so I posted a new one below."
    )
    new = board_message(table.channel)
    assert new.id != board.id and rolled(new) == [1, 2, 3, 4, 6, 6]
    await act(table.ana, table.channel, "die:0")  # the new board plays on


# ---------------------------------------------------------------------- other commands


async def test_board_is_posted_again_at_the_bottom(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF, (1, 2, 3, 4, 6, 6))
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")
    old = board_message(table.channel)
    await table.ben.send(table.channel, "chatter")

    result = await table.ben.slash(table.channel, "farkle board")
    assert not result.ephemeral
    new = board_message(table.channel)
    assert new.id != old.id and table.channel.history()[-1].id == new.id
    assert rolled(new) == rolled(old) == [1, 2, 3, 4, 6, 6]
    old_now = next(m for m in table.channel.history() if m.id == old.id)
    assert texts(old_now) == ["The board moved down ⬇️"] and buttons(old_now) == {}
    await keep(table.ana, table.channel, 0)  # the new board plays on
    assert selected(board_message(table.channel)) == [0]


async def test_board_without_a_game(table: Table) -> None:
    result = await table.ana.slash(table.channel, "farkle board")
    assert result.ephemeral
    assert result.response.content == "There is no Farkle game in this channel: start one with `/farkle new`."


@pytest.mark.parametrize("preset", ["box", "last-loses"])
async def test_rules_of_this_channels_game(table: Table, preset: str) -> None:
    await table.ana.slash(table.channel, "farkle new", rules=preset)
    result = await table.ben.slash(table.channel, "farkle rules")
    assert result.ephemeral
    embed = result.response.embeds[0]
    assert embed.title == f"Rules of this game: {preset}"
    assert [f.name for f in embed.fields] == ["Scoring", "Turn", "End of game"]
    end = embed.fields[2].value
    assert ("Last player to reach 10,000 loses" in end) == (preset == "last-loses")


async def test_rules_and_help_without_a_game(table: Table) -> None:
    rules = await table.ana.slash(table.channel, "farkle rules")
    assert rules.ephemeral and rules.response.embeds[0].title == "This server's rules: classic"
    assert "Straight 1-6: 1,000" in rules.response.embeds[0].fields[0].value
    help = await table.ana.slash(table.channel, "farkle help")
    embed = help.response.embeds[0]
    assert help.ephemeral and embed.title == "How to play Farkle"
    assert "Farkle" in (embed.description or "") and "/farkle new" in embed.fields[0].value


# ---------------------------------------------------------------------- several channels


async def test_two_channels_play_at_once(table: Table, dice: Dice) -> None:
    other = table.guild.create_text_channel("more-games")
    dice.script(ROLL_OFF, (1, 2, 3, 4, 6, 6))
    dice.script((2, 6), (5, 2, 3, 4, 6, 6))
    await open_game(table.channel, table.ana, table.ben)
    await open_game(other, table.cy, table.ana)  # ana plays in both: cy hosts, ana starts there

    await act(table.ana, table.channel, "roll")
    await act(table.ana, other, "roll")
    await press(table.ana, table.channel, "die:0")
    await keep(table.ana, other, 0)
    await act(table.ana, other, "bank")

    here, there = board_message(table.channel), board_message(other)
    assert rolled(here) == [1, 2, 3, 4, 6, 6] and selected(here) == [0]
    assert "ana's turn" in description(here)
    assert "cy's turn" in description(there)
    assert "🏦 ana banked 50 (now 50)" in latest(other)
    assert "banked" not in latest(table.channel)
    assert pings(table.channel) == [f"<@{table.ana.id}> 🎲 it's your turn!"]
    assert pings(other) == [f"<@{table.cy.id}> 🎲 it's your turn!"]


async def test_a_removed_players_press_says_so_and_the_results_mark_them_out(
    table: Table, dice: Dice, env: simcord.Env
) -> None:
    dice.script((6, 2, 1), *[SIX_ONES] * 5, FARKLE)
    await open_game(table.channel, table.ana, table.ben, table.cy)
    for _ in range(7):  # ana, ben, cy idle twice; ana a third time
        await env.advance_time(120)
    assert "🚫 ana was removed after three idle turns" in latest(table.channel)
    assert (
        await refused(table.ana, table.channel, "roll")
        == "You were removed from this game after three idle turns."
    )
    await big_turn(table.ben, table.channel, 5)
    await act(table.cy, table.channel, "roll")  # cy's last turn farkles
    standings = field(board_message(table.channel), "Final standings").splitlines()
    assert standings[-1] == "**3.** ana (out) · 0", standings


async def test_help_lists_every_command(table: Table, env: simcord.Env) -> None:
    result = await table.ana.slash(table.channel, "farkle help")
    assert result.response is not None
    shown = "\n".join(field.value or "" for field in result.response.embeds[0].fields)
    commands = [
        f"/{command.qualified_name}"
        for command in env.bot.tree.walk_commands()
        if not isinstance(command, discord.app_commands.Group)
    ]
    assert len(commands) >= 20 and [name for name in commands if f"`{name}`" not in shown] == []
