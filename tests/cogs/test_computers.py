"""A human plays computer opponents, of a named level or at a chosen skill (the host's own, or a number);
the Hint button advises the player to move."""

from collections.abc import Awaitable, Callable

import discord
import simcord

from bot.core.records import SKILL_MINIMUM
from bot.engine import LEVELS, strategy_for
from bot.render.levels import level_skills
from tests.cogs.conftest import Dice, Table
from tests.cogs.play import (
    MakeBot,
    act,
    board_message,
    buttons,
    description,
    execute,
    field,
    labels,
    press,
    query,
    read_dice,
    refused,
    restart,
    title,
)
from tests.solved import policies_for


def the_game(env: simcord.Env, channel: simcord.ChannelHandle):
    session = env.bot.services.sessions._games.in_channel(channel.id)
    return session.game


async def play_as_expert_to_the_results(
    env: simcord.Env,
    channel: simcord.ChannelHandle,
    member: simcord.MemberActor,
    each_turn: Callable[[int, discord.Message], Awaitable[None]],
) -> None:
    """`member` plays every turn of theirs as expert would, until the results; `each_turn` sees each board."""
    rules = the_game(env, channel).rules
    expert = strategy_for("expert", rules, policies_for(rules), None)
    for turn in range(400):
        board = board_message(channel)
        if title(board).startswith("🏆"):
            return
        await each_turn(turn, board)
        action = expert.choose(the_game(env, channel))
        for position in action.keep:
            await act(member, channel, f"die:{position}")
        await act(member, channel, action.kind)


async def test_one_human_and_two_computers_play_to_the_end(table: Table) -> None:
    env, channel, ana = table.env, table.channel, table.ana
    await ana.slash(channel, "farkle new")
    await act(ana, channel, "cpu:expert")
    await act(ana, channel, "cpu:easy")
    lobby = field(board_message(channel), "Players (3/8)")
    assert "Computer 1 (expert)" in lobby and "Computer 2 (easy)" in lobby
    await act(ana, channel, "start")

    async def humans_turn(turn: int, board: discord.Message) -> None:
        assert "ana's turn" in description(board), "computers must finish their turns by themselves"

    await play_as_expert_to_the_results(env, channel, ana, humans_turn)
    results = board_message(channel)
    assert title(results).startswith("🏆")
    standings = field(results, "Final standings")
    assert all(name in standings for name in ("ana", "Computer 1 (expert)", "Computer 2 (easy)"))
    assert "rematch" in buttons(results)
    pinged = [
        r.json["content"]
        for r in env.http_requests
        if r.method == "POST"
        and r.path.endswith("/messages")
        and "it's your turn" in (r.json or {}).get("content", "")
    ]
    assert pinged and all(ana.mention in ping for ping in pinged), "only the human is ever pinged"
    assert not [m for m in channel.history() if "it's your turn" in m.content], "pings go when turns move on"


async def test_only_the_host_adds_computers(table: Table) -> None:
    await table.ana.slash(table.channel, "farkle new")
    await act(table.ben, table.channel, "join")
    assert await refused(table.ben, table.channel, "cpu:normal") == "Only the host can add computer players."


async def test_hint_gives_the_best_keep_and_odds_to_the_current_player_only(table: Table, dice: Dice) -> None:
    env, channel, ana, ben = table.env, table.channel, table.ana, table.ben
    dice.script((6, 2), (1, 5, 2, 3, 4, 6))
    await ana.slash(channel, "farkle new", rules="classic")
    await act(ben, channel, "join")
    await act(ana, channel, "start")
    await act(ana, channel, "roll")
    hint = await press(ana, channel, "hint")
    assert hint.ephemeral
    text = hint.response.content
    # Classic scores the straight 1,000: the best keep is all six dice, then hot dice.
    assert "Keep 1 2 3 4 5 6 for **1,000**" in read_dice(text)
    assert "Best play: **Roll on**" in text  # hot dice: six fresh dice are worth risking 1,000
    assert "Chance the next roll farkles: **3.1%**" in text  # classic, six dice, no three pairs: 60/1944
    other = await press(ben, channel, "hint")
    assert other.ephemeral and other.response.content.startswith("Hints are for the player whose turn it is")
    version_before = env.bot.services.sessions.snapshot(channel.id).version
    await press(ana, channel, "hint")
    assert env.bot.services.sessions.snapshot(channel.id).version == version_before, "a hint changes nothing"


async def test_each_level_shows_its_measured_skill_where_a_computer_is_added(table: Table) -> None:
    await table.ana.slash(table.channel, "farkle new")
    shown = labels(board_message(table.channel))
    measured = level_skills()
    assert set(measured) == set(LEVELS)
    for level in LEVELS:
        assert shown[f"cpu:{level}"] == f"Add computer: {level} · skill {round(measured[level])}"
    assert measured["easy"] < measured["normal"] < measured["expert"] <= measured["master"] == 100


async def test_the_lobby_offers_a_computer_at_the_hosts_level(table: Table) -> None:
    """A host without a skill gets normal's, and the lobby says why; a host with one gets theirs."""
    env, channel, ana = table.env, table.channel, table.ana
    await ana.slash(channel, "farkle new")
    lobby = board_message(channel)
    normal = round(level_skills()["normal"])
    assert labels(lobby)["cpu:your"] == f"Add computer: your level · skill {normal}"
    assert "🎯 *Your level* plays at normal's skill until the host has 20 decisions reviewed." in description(
        lobby
    )
    await act(ana, channel, "cpu:your")
    assert f"Computer 1 (skill {normal})" in field(board_message(channel), "Players (2/8)")
    await act(ana, channel, "cancel")

    await given_decisions(env, table, ana.id, loss=0.0025)  # skill 100 / (1 + 0.5) = 67
    await ana.slash(channel, "farkle new")
    lobby = board_message(channel)
    assert labels(lobby)["cpu:your"] == "Add computer: your level · skill 67"
    assert "🎯" not in description(lobby)
    await act(ana, channel, "cpu:your")
    assert "Computer 1 (skill 67)" in field(board_message(channel), "Players (2/8)")


async def test_a_host_picks_a_computers_skill(table: Table) -> None:
    channel, ana = table.channel, table.ana
    await ana.slash(channel, "farkle new")
    await ana.slash(channel, "farkle computer", skill=72)
    await ana.slash(channel, "farkle computer")  # no skill: the host's level (normal's, as they have none)
    players = field(board_message(channel), "Players (3/8)")
    assert (
        "Computer 1 (skill 72)" in players
        and f"Computer 2 (skill {round(level_skills()['normal'])})" in players
    )
    answer = await table.ben.slash(channel, "farkle computer", skill=50)
    assert answer.ephemeral and answer.response is not None
    assert answer.response.content == "Only the host can add computer players."


async def given_decisions(env: simcord.Env, table: Table, user_id: int, *, loss: float) -> None:
    """Twenty reviewed decisions of one game for the member, each giving away `loss`."""
    await execute(
        env,
        "INSERT INTO games (game_id, guild_id, channel_id, rules, dice_start, actions, started_at, ended_at,"
        " end_reason, counted, announced) VALUES ('old', :guild, 1, '{}', '{}', '[]', 0, 1, 'won', 0, 1)",
        guild=table.guild.id,
    )
    await execute(
        env,
        "INSERT INTO game_players (game_id, seat, user_id, name, computer, team, placement, won, final_bank,"
        " turns, points, best_turn, farkles, hot_dice) VALUES ('old', 0, :user, 'ana', NULL, NULL, 1, 1, 0,"
        " 1, 0, 0, 0, 0)",
        user=user_id,
    )
    for decision in range(SKILL_MINIMUM):
        await execute(
            env,
            "INSERT INTO review_decisions VALUES ('old', :decision, 0, :guild, :user, 'win', :loss, 1)",
            decision=decision,
            guild=table.guild.id,
            user=user_id,
            loss=loss,
        )


async def test_a_computer_at_a_chosen_skill_survives_a_restart_and_is_reviewed(
    table: Table, dice: Dice, make_bot: MakeBot
) -> None:
    env, channel, ana = table.env, table.channel, table.ana
    dice.script((6, 2))  # ana starts; fair seeded dice after
    await ana.slash(channel, "farkle new")
    await ana.slash(channel, "farkle computer", skill=72)
    await act(ana, channel, "start")

    async def restart_at_the_fourth(turn: int, board: discord.Message) -> None:
        if turn == 3:
            await restart(env, make_bot)  # the seat's level is stored with the game

    await play_as_expert_to_the_results(env, channel, ana, restart_at_the_fourth)
    assert "Computer 1 (skill 72)" in field(board_message(channel), "Final standings")
    seats = await query(env, "SELECT user_id, computer, decisions FROM review_players ORDER BY seat")
    assert [(user, computer) for user, computer, _ in seats] == [(ana.id, 0), (-1, 1)]
    assert seats[1][2] > 0, "the review values the computer's decisions like anyone's"
    (level,) = await query(env, "SELECT computer FROM game_players WHERE user_id = -1")
    assert level == ("skill:72",)
