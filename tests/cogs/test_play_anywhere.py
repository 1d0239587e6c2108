"""Whole games where the app is used by user install and is not a member: a group DM, a DM between two
members, a server without the bot; and solo in the bot's own DM. No route Discord refuses is called."""

from __future__ import annotations

from collections.abc import Iterator

import discord
import pytest
import simcord

from bot.services.i18n import for_server
from tests.cogs.conftest import Dice
from tests.cogs.play import (
    FARKLE,
    SIX_ONES,
    MakeBot,
    board_message,
    buttons,
    description,
    field,
    fields,
    is_board,
    query,
    restart,
)
from tests.cogs.user_install import DM, GROUP_DM, GUILD_TEXT, Conversation, UserInstall, user_install

__all__ = ["user_install"]  # the fixture, used by name

ROLL_OFF = (6, 2, 3)  # the first seat (the host) starts


@pytest.fixture(autouse=True)
def nothing_refused(user_install: UserInstall) -> Iterator[None]:
    yield
    assert user_install.refused == [], "the bot called routes Discord refuses where it is not a member"


def board(conversation: Conversation) -> discord.Message:
    for message in reversed(conversation.messages()):
        if is_board(message):
            return message
    raise AssertionError("no Farkle board in the conversation")


async def act(conversation: Conversation, user: simcord.UserHandle, action: str) -> None:
    message = board(conversation)
    result = await conversation.press(user, message, buttons(message)[action].custom_id)
    assert not result.ephemeral, result.response and result.response.content


async def keep_all(conversation: Conversation, user: simcord.UserHandle) -> None:
    for key in [key for key in buttons(board(conversation)) if key.startswith("die:")]:
        await act(conversation, user, key)


async def open_game(conversation: Conversation) -> None:
    host, *others = conversation.members
    result = await conversation.slash(host, "farkle new")
    assert not result.ephemeral and result.response is not None, result.response
    for member in others:
        await act(conversation, member, "join")
    await act(conversation, host, "start")


async def win_in_one_turn(conversation: Conversation) -> None:
    """The host rolls six ones five times (10,000), the others farkle in the final round."""
    host, *others = conversation.members
    for _ in range(5):
        await act(conversation, host, "roll")
        await keep_all(conversation, host)
    await act(conversation, host, "bank")
    for member in others:
        await act(conversation, member, "roll")


def pings(conversation: Conversation) -> list[str]:
    return [m.content for m in conversation.messages() if "it's your turn" in m.content]


@pytest.mark.parametrize(
    ("kind", "names", "guild_id"),
    [
        (GROUP_DM, ("ana", "ben", "cy"), None),
        (DM, ("ana", "ben"), None),
        (GUILD_TEXT, ("ana", "ben"), 424242424242424242),
    ],
    ids=["group-dm", "dm", "server-without-the-bot"],
)
async def test_a_whole_game_plays_in_interaction_responses(
    user_install: UserInstall, dice: Dice, kind: int, names: tuple[str, ...], guild_id: int | None
) -> None:
    conversation = user_install.conversation(kind, *names, guild_id=guild_id)
    dice.script(ROLL_OFF[: len(names)], *[SIX_ONES] * 5, *[FARKLE] * (len(names) - 1))
    await open_game(conversation)
    await win_in_one_turn(conversation)

    final = board(conversation)
    assert set(buttons(final)) == {"farkle-review", "rematch"}, "the results board"
    assert field(final, "Final standings").splitlines()[0] == "**1.** ana · 10,000"
    assert len([m for m in conversation.messages() if is_board(m)]) == 1, "one board, edited in place"
    # Each next player was mentioned by a follow-up of the press that passed the turn to them; the
    # conversation keeps one ping at most, and none once the game is over.
    assert sum(user_install.follow_ups.values()) >= len(names) - 1
    assert pings(conversation) == []
    scope = guild_id or conversation.channel.id
    counted = await query(user_install.env, "SELECT COUNT(*) FROM player_stats WHERE guild_id = :g", g=scope)
    assert counted == [(len(names),)], "the game counts on the server's or the conversation's board"
    shown = await conversation.slash(conversation.members[0], "farkle stats")
    assert shown.response is not None and shown.response.embeds
    numbers = {f.name: f.value for f in shown.response.embeds[0].fields}
    assert numbers["Rated games"] == "1" and numbers["Wins"].startswith("1 ")
    everywhere = shown.response.embeds[0].footer.text == "Every server and conversation you played in"
    assert everywhere == (guild_id is None), "in a DM or group DM: the member's numbers everywhere"


async def test_in_a_group_dm_the_board_speaks_its_host_s_language_and_answers_each_member_s(
    user_install: UserInstall,
) -> None:
    conversation = user_install.conversation(GROUP_DM, "ana", "ben")
    ana, ben = conversation.members
    conversation.locales.update({ana.id: "fr", ben.id: "de"})
    await conversation.slash(ana, "farkle new")
    await act(conversation, ben, "join")
    lobby = board(conversation)
    players = for_server("fr", None).text("Players ({count}/{most})", count=2, most=8)
    assert players in fields(lobby)

    result = await conversation.press(ben, lobby, buttons(lobby)["start"].custom_id)
    refusal = for_server("de", None).text("Only the host, {name}, can start.", name="ana")
    assert result.followups and result.followups[0].content == refusal


async def test_a_server_with_external_apps_off_says_so(user_install: UserInstall) -> None:
    conversation = user_install.conversation(GUILD_TEXT, "ana", "ben", guild_id=5151, external_apps=False)
    result = await conversation.slash(conversation.members[0], "farkle new")
    assert result.ephemeral and result.response is not None
    assert "can't be posted here" in result.response.content
    assert [m for m in conversation.messages() if is_board(m)] == []


async def test_everyone_idle_past_the_token_lifetime_then_a_press_redraws(
    user_install: UserInstall, dice: Dice, env: simcord.Env
) -> None:
    conversation = user_install.conversation(GROUP_DM, "ana", "ben", "cy")
    dice.script(ROLL_OFF, (5, 2, 3, 4, 6, 6))
    await open_game(conversation)
    ana, ben, _ = conversation.members
    await act(conversation, ana, "roll")
    await env.advance_time(20 * 60)  # turns time out, the last ones after every token expired
    stale = board(conversation)
    assert "ben was removed" not in field(stale, "Latest"), "drawn before the last timers, by the last token"
    assert max(user_install.follow_ups.values()) == 5, "timers pinged through ana's token up to the limit"

    await conversation.press(ben, stale, buttons(stale)["roll"].custom_id)
    redrawn = board(conversation)
    assert redrawn.id == stale.id, "the press's answer redraws the board in place"
    assert set(buttons(redrawn)) == {"farkle-review", "rematch"}, "the results board"
    what_happened = field(redrawn, "Last moves")
    assert "🚫 ben was removed after three idle turns" in what_happened and "🏆 Game over" in what_happened


async def test_a_restart_mid_game_in_a_group_dm_calls_no_channel_route(
    user_install: UserInstall, dice: Dice, env: simcord.Env, make_bot: MakeBot
) -> None:
    conversation = user_install.conversation(GROUP_DM, "ana", "ben", "cy")
    dice.script(ROLL_OFF, *[SIX_ONES] * 5, FARKLE, FARKLE)
    await open_game(conversation)
    ana = conversation.members[0]
    await act(conversation, ana, "roll")
    await restart(env, make_bot)
    await env.settle()
    await keep_all(conversation, ana)
    for _ in range(4):
        await act(conversation, ana, "roll")
        await keep_all(conversation, ana)
    await act(conversation, ana, "bank")
    for member in conversation.members[1:]:
        await act(conversation, member, "roll")
    assert set(buttons(board(conversation))) == {"farkle-review", "rematch"}, "the results board"


async def test_solo_in_the_bot_s_dm_against_a_computer(env: simcord.Env, dice: Dice) -> None:
    ana = env.create_user("ana")
    dice.script((6, 2), *[SIX_ONES] * 5, FARKLE)
    result = await ana.slash("farkle new")
    assert not result.ephemeral, result.response and result.response.content
    channel = ana.dm_channel

    async def press(action: str) -> None:
        message = board_message(channel)
        pressed = await ana.click(message, custom_id=buttons(message)[action].custom_id)
        assert not pressed.ephemeral, pressed.response and pressed.response.content

    await press("cpu:easy")
    await press("start")
    for _ in range(5):
        await press("roll")
        for key in [key for key in buttons(board_message(channel)) if key.startswith("die:")]:
            await press(key)
    await press("bank")
    results = board_message(channel)
    assert set(buttons(results)) == {"farkle-review", "rematch"}, "the results board"
    assert field(results, "Final standings").splitlines()[0] == "**1.** ana · 10,000"


async def test_slash_commands_answer_with_the_board_where_only_interactions_reach(
    user_install: UserInstall,
) -> None:
    conversation = user_install.conversation(GROUP_DM, "ana", "ben")
    ana, ben = conversation.members
    await conversation.slash(ana, "farkle new")
    joined = await conversation.slash(ben, "farkle join")
    assert joined.response is not None and not joined.ephemeral
    lobby = board(conversation)
    assert lobby.id == joined.response.id, "the answer is the board: nothing else could redraw it"
    assert "ben" in field(lobby, "Players (2/8)")

    again = await conversation.slash(ana, "farkle board")
    assert again.response is not None and board(conversation).id == again.response.id
    await act(conversation, ana, "start")
    assert "turn" in description(board(conversation))


async def test_the_review_and_its_chart_come_through_the_interaction_where_the_app_is_no_member(
    user_install: UserInstall, dice: Dice
) -> None:
    conversation = user_install.conversation(DM, "ana", "ben")
    dice.script(ROLL_OFF[:2], *[SIX_ONES] * 5, FARKLE)
    await open_game(conversation)
    await win_in_one_turn(conversation)
    final = board(conversation)
    review = await conversation.press(
        conversation.members[1], final, buttons(final)["farkle-review"].custom_id
    )
    assert review.ephemeral and review.response is not None
    shown = review.response.message
    assert [attachment.filename for attachment in shown.attachments] == ["review-chart.png"]
    assert "📍 Turning point" in description(shown)
