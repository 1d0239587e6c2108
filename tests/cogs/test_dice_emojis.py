"""Die-face application emojis: uploaded once, reused by name, keycaps when Discord won't have them."""

from __future__ import annotations

import base64
import logging
import re

import discord
import pytest
import simcord

from bot.app.client import FarkleBot
from bot.app.emojis import ART_LOOK_EVERY
from tests.cogs.conftest import Dice, Table
from tests.cogs.play import (
    ROLL_OFF,
    MakeBot,
    act,
    board_message,
    buttons,
    die_face,
    farkle,
    keep,
    open_game,
    restart,
    texts,
)

EMOJIS = "/applications/*/emojis"
NAMES = [f"die_{face}" for face in range(1, 7)]
# What Discord checks that SimCord does not: a name of 2-32 word characters, a PNG under 256 KiB.
NAME_RULE = re.compile(r"^\w{2,32}$")
IMAGE_LIMIT = 256 * 1024


def uploads(env: simcord.Env) -> list[simcord.http.router.HttpLogEntry]:
    return [
        r
        for r in env.http_requests
        if r.method == "POST" and re.fullmatch(r"/applications/\d+/emojis", r.path)
    ]


def emojis(env: simcord.Env) -> dict[str, int]:
    return {emoji.name: emoji.id for emoji in env.backend.application_emojis.values()}


async def test_first_start_uploads_the_six_faces_as_discord_accepts_them(env: simcord.Env) -> None:
    assert sorted(emojis(env)) == NAMES
    sent = uploads(env)
    assert sorted(r.json["name"] for r in sent) == NAMES
    for request in sent:
        assert NAME_RULE.match(request.json["name"])
        header, _, data = request.json["image"].partition(",")
        assert header == "data:image/png;base64"
        png = base64.b64decode(data)
        assert png.startswith(b"\x89PNG") and len(png) < IMAGE_LIMIT


async def test_a_restart_reuses_the_faces_and_uploads_only_a_missing_one(
    env: simcord.Env, make_bot: MakeBot
) -> None:
    before = emojis(env)
    await restart(env, make_bot)
    assert emojis(env) == before and len(uploads(env)) == 6

    env.backend.delete_application_emoji(before["die_4"])
    await restart(env, make_bot)
    after = emojis(env)
    assert len(uploads(env)) == 7 and sorted(after) == NAMES
    assert {name: id for name, id in after.items() if name != "die_4"} == {
        name: id for name, id in before.items() if name != "die_4"
    }
    assert farkle(env).dice_art.face(4) == f"<:die_4:{after['die_4']}>"


async def test_a_game_shows_faces_on_the_board_buttons_and_hint(table: Table, dice: Dice) -> None:
    ids = emojis(table.env)
    dice.script(ROLL_OFF, (1, 5, 2, 3, 3, 4))
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")
    board = board_message(table.channel)
    assert [die_face(buttons(board)[f"die:{i}"]) for i in range(6)] == [1, 5, 2, 3, 3, 4]
    assert all(buttons(board)[f"die:{i}"].label is None for i in range(6)), "the face alone, no digit"
    await keep(table.ana, table.channel, 0)
    selected = buttons(board_message(table.channel))["die:0"]
    assert die_face(selected) == 1 and selected.style is discord.ButtonStyle.success
    await act(table.ana, table.channel, "roll")
    aside = f"Set aside: <:die_1:{ids['die_1']}> (+100)"
    assert aside in "\n".join(texts(board_message(table.channel))), "set aside as the die's emoji"
    hint = await table.ana.click(
        board_message(table.channel), custom_id=buttons(board_message(table.channel))["hint"].custom_id
    )
    assert hint.response is not None and "<:die_" in hint.response.content


@pytest.mark.parametrize(
    ("method", "status"), [("GET", 500), ("POST", 400)], ids=["fetch fails", "upload refused (limit)"]
)
async def test_without_emojis_dice_are_keycaps_with_one_warning(
    env: simcord.Env,
    make_bot: MakeBot,
    dice: Dice,
    caplog: pytest.LogCaptureFixture,
    method: str,
    status: int,
) -> None:
    env.backend.application_emojis.clear()
    env.inject_error(method, EMOJIS, status=status, times=None)
    with caplog.at_level(logging.WARNING, logger="bot.app.emojis"):
        await restart(env, make_bot)
    assert [r.getMessage() for r in caplog.records if r.name == "bot.app.emojis"] == [
        "Die-face emojis unavailable (Internal Server Error (injected by test)); drawing dice as keycaps"
    ]
    channel = env.create_guild().create_text_channel("games")
    ana, ben = (env.guild.add_member(env.create_user(name)) for name in ("ana", "ben"))
    dice.script(ROLL_OFF, (1, 5, 2, 3, 3, 4))
    await open_game(channel, ana, ben)
    await act(ana, channel, "roll")
    board = board_message(channel)
    await keep(ana, channel, 0)
    await act(ana, channel, "roll")
    assert "Set aside: 1️⃣ (+100)" in "\n".join(texts(board_message(channel)))
    assert buttons(board)["die:1"].label == "5" and buttons(board)["die:1"].emoji is None


class ShardBot(FarkleBot):
    """A process that does not own the application's set-up (a shard other than 0)."""

    @property
    def owns_application_setup(self) -> bool:
        return False


async def test_only_the_owning_process_uploads(
    env: simcord.Env, make_bot: MakeBot, caplog: pytest.LogCaptureFixture
) -> None:
    owner = farkle(env)
    env.backend.application_emojis.clear()
    with caplog.at_level(logging.WARNING, logger="bot.app.emojis"):
        await env.restart_bot(ShardBot(owner.settings))
    await owner.close()
    try:
        assert emojis(env) == {} and len(uploads(env)) == 6
        assert farkle(env).dice_art.face(2) == "2️⃣"
        assert any("not uploaded yet" in r.getMessage() for r in caplog.records)
        # The owning process uploads them (after this one started): this one draws them within a minute.
        uploaded = {face: env.backend.create_application_emoji(f"die_{face}").id for face in range(1, 7)}
        await env.advance_time(ART_LOOK_EVERY)
        assert farkle(env).dice_art.face(2) == f"<:die_2:{uploaded[2]}>"
        assert len(uploads(env)) == 6, "and still uploads nothing itself"
    finally:
        await farkle(env).close()
