"""The Activity's API: sign-in through Discord, who may read and move, and the same game as the chat board
(a move from the Activity shows on the board; a press on the board reaches the Activity's socket)."""

from __future__ import annotations

import socket
from typing import Any

import aiohttp
import pytest
from loopback.activity_discord import Member
from pydantic import SecretStr

from bot.app.client import FarkleBot
from bot.core.environment import Settings
from tests.activity.conftest import INSTANCE, Activity, member_of
from tests.cogs.conftest import Dice
from tests.cogs.play import ROLL_OFF, act, board_message, farkle, open_game, rolled, selected, texts

FIRST_ROLL = (1, 5, 2, 3, 4, 6)


async def test_a_code_is_exchanged_once_for_a_token_discord_issued(activity: Activity) -> None:
    ana = member_of(activity.table.ana)
    code = activity.discord.authorize(ana)
    answer = await activity.client.post("/api/token", json={"code": code})
    assert answer.status == 200
    token = (await answer.json())["access_token"]
    assert activity.discord.tokens[token] == ana, "the token is the one Discord issued for ana"
    again = await activity.client.post("/api/token", json={"code": code})
    assert again.status == 401, "a used code"
    assert (await again.json())["error"] == "Discord refused this sign-in code: open the Activity again."
    for body in ({"code": "forged"}, {"code": ""}, {}, [1, 2]):
        refused = await activity.client.post("/api/token", json=body)
        assert refused.status in (400, 401) and (await refused.json())["error"], body
    assert "POST /api/v10/oauth2/token" in activity.discord.calls


async def test_a_forged_or_missing_token_is_refused(activity: Activity) -> None:
    for headers in ({"Authorization": "Bearer forged"}, {}, {"Authorization": "Bot x"}):
        answer = await activity.client.get(f"/api/instances/{INSTANCE}", headers=headers)
        assert answer.status == 401
        assert (await answer.json())["error"] == "Sign in again: Discord did not recognise this session."
    moved = await activity.client.post(
        f"/api/instances/{INSTANCE}/actions",
        json={"action": "new"},
        headers={"Authorization": "Bearer forged"},
    )
    assert moved.status == 401
    assert farkle(activity.table.env).services.sessions.snapshot(activity.table.channel.id) is None


async def test_only_members_in_the_instance_are_let_in(activity: Activity) -> None:
    stranger = Member(4242, "dee", "de")
    seat = await activity.sign_in(stranger)
    answer = await activity.client.get(f"/api/instances/{INSTANCE}", headers=seat.headers)
    assert answer.status == 403
    assert (await answer.json())["error"] == "Du bist nicht in dieser Aktivität."
    unknown = await activity.client.get("/api/instances/i-unknown", headers=seat.headers)
    assert unknown.status == 403


async def test_a_channel_without_a_game_offers_one_and_the_chat_board_shows_it(activity: Activity) -> None:
    ana = await activity.sign_in(member_of(activity.table.ana))
    empty = await activity.read(ana)
    assert empty["stage"] == "none" and empty["moves"] == ["new"]
    opened = await activity.move(ana, "new")
    assert opened.status == 200, await opened.text()
    lobby = (await opened.json())["table"]
    assert lobby["stage"] == "lobby" and [p["name"] for p in lobby["players"]] == ["ana"]
    assert set(lobby["moves"]) == {"leave", "start"}
    await activity.table.env.settle()
    board = board_message(activity.table.channel)  # the lobby is posted in the channel
    assert "ana" in "\n".join(texts(board))
    ben = await activity.sign_in(member_of(activity.table.ben))
    assert (await activity.move(ben, "join")).status == 200
    again = await activity.move(ana, "new")
    assert again.status == 409


async def test_two_members_play_a_turn_from_the_activity_and_the_chat_board_shows_it(
    activity: Activity, dice: Dice
) -> None:
    dice.script(ROLL_OFF, FIRST_ROLL)
    t = activity.table
    await t.ana.slash(t.channel, "farkle new")
    ana, ben = await activity.sign_in(member_of(t.ana)), await activity.sign_in(member_of(t.ben))
    assert (await activity.move(ben, "join")).status == 200
    assert (await activity.move(ana, "start")).status == 200
    await t.env.settle()
    table = await activity.read(ana)
    assert table["stage"] == "playing" and table["current"] == str(t.ana.id)
    assert [p["name"] for p in table["players"]] == ["ana", "ben"]
    assert "roll" in table["moves"] and (await activity.read(ben))["moves"] == []

    rolled_table = await _ok(await activity.move(ana, "roll"))
    assert rolled_table["turn"]["roll"] == list(FIRST_ROLL)
    await t.env.settle()
    assert rolled(board_message(t.channel)) == list(FIRST_ROLL), "the chat board shows the Activity's roll"

    picked = await _ok(await activity.move(ana, "pick", 0))
    assert picked["turn"]["picked"] == [0] and picked["turn"]["die_names"][0] == "die 1, picked"
    await t.env.settle()
    assert selected(board_message(t.channel)) == [0]
    banked = await _ok(await activity.move(ana, "bank"))
    assert banked["current"] == str(t.ben.id)
    assert [p["bank"] for p in banked["players"]] == [100, 0]


async def test_refusals_change_nothing(activity: Activity, dice: Dice) -> None:
    dice.script(ROLL_OFF, FIRST_ROLL)
    t = activity.table
    await open_game(t.channel, t.ana, t.ben)
    ana, ben = await activity.sign_in(member_of(t.ana)), await activity.sign_in(member_of(t.ben))
    cy = await activity.sign_in(member_of(t.cy, "de"))
    before = await activity.read(ana)

    not_yours = await activity.move(ben, "roll")
    assert not_yours.status == 403 and (await not_yours.json())["error"] == "It's ana's turn."
    watching = await activity.move(cy, "roll")
    assert watching.status == 403 and (await watching.json())["error"] == "Du schaust diesem Spiel zu."
    stale = await activity.move(ana, "roll", version=before["version"] - 1)
    assert stale.status == 409
    assert (await stale.json())["table"]["version"] == before["version"], "the table as it is now"
    unknown = await activity.move(ana, "explode")
    assert unknown.status == 400
    assert (await activity.read(ana))["version"] == before["version"]
    assert rolled(board_message(t.channel)) == [], "nothing was rolled"


async def test_a_chat_board_press_reaches_the_activitys_socket(activity: Activity, dice: Dice) -> None:
    dice.script(ROLL_OFF, FIRST_ROLL)
    t = activity.table
    await open_game(t.channel, t.ana, t.ben)
    ben = await activity.sign_in(member_of(t.ben))
    async with activity.client.ws_connect(f"/api/instances/{INSTANCE}/live") as socket:
        await socket.send_json({"token": ben.token})
        first = (await socket.receive_json(timeout=5))["table"]
        assert first["stage"] == "playing" and "turn" in first
        await act(t.ana, t.channel, "roll")  # on the chat board
        pushed: dict[str, Any] = (await socket.receive_json(timeout=5))["table"]
        assert pushed["version"] > first["version"]
        assert pushed["turn"]["roll"] == list(FIRST_ROLL)
        assert pushed["moves"] == [], "ben watches ana's turn"


async def test_a_socket_with_a_forged_token_is_told_and_closed(activity: Activity) -> None:
    async with activity.client.ws_connect(f"/api/instances/{INSTANCE}/live") as socket:
        await socket.send_json({"token": "forged"})
        said = await socket.receive_json(timeout=5)
        assert said == {"error": "Sign in again: Discord did not recognise this session."}
        closing = await socket.receive(timeout=5)
        assert closing.type.name in ("CLOSE", "CLOSED", "CLOSING")


async def _ok(answer: Any) -> dict[str, Any]:
    assert answer.status == 200, await answer.text()
    table: dict[str, Any] = (await answer.json())["table"]
    return table


async def test_the_bot_serves_the_activity_on_activity_port_until_it_closes(
    activity: Activity, settings: Settings, opened_bots: list[FarkleBot]
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = activity.table.env
    with_activity = settings.model_copy(
        update={"activity_port": port, "activity_host": "127.0.0.1", "discord_client_secret": SecretStr("s")}
    )
    opened_bots.append(FarkleBot(with_activity))
    await env.restart_bot(opened_bots[-1])
    url = f"http://127.0.0.1:{port}/api/instances/{INSTANCE}"
    async with aiohttp.ClientSession() as http, http.get(url) as answer:
        assert answer.status == 401, "the bot's own Activity server answers"
    await opened_bots[-1].close()  # the bot's close stops its Activity server
    async with aiohttp.ClientSession() as http:
        with pytest.raises(aiohttp.ClientConnectionError):
            await http.get(f"http://127.0.0.1:{port}/")
