"""Master in the lobby and at the table; the Hint's chances to win, warming up until the tables exist."""

from __future__ import annotations

import asyncio
import re

import numpy as np
import simcord

from bot.app.client import FarkleBot
from bot.core.environment import Settings
from bot.engine import strategy_for
from bot.engine.rules import Ruleset
from bot.engine.win.game import streak_count
from bot.engine.win.tables import WinTables
from tests.cogs.conftest import Dice, Table
from tests.cogs.play import (
    act,
    board_message,
    description,
    farkle,
    field,
    press,
    restart,
    title,
)
from tests.solved import policies_for

CHANCES = re.compile(r"you win \*\*(\d+\.\d)%\*\*")


def flat_tables(rules: Ruleset) -> WinTables:
    """Tables of a coin-flip game: legal and quick to make; the choices' chances still differ by turn."""
    size, streaks = rules.target // 50, streak_count(rules)
    return WinTables(rules, 3000, np.full((streaks, streaks, size, size), 0.5))


async def test_the_lobby_offers_master_and_says_when_it_plays_as_expert(table: Table) -> None:
    channel, ana = table.channel, table.ana
    await ana.slash(channel, "farkle new", rules="classic")
    await act(ana, channel, "cpu:master")
    assert "Computer 1 (master)" in field(board_message(channel), "Players (2/8)")
    assert "plays as expert" not in description(board_message(channel))
    await act(table.ben, channel, "join")
    assert "🧠 Master plays as expert with more than two players." in description(board_message(channel))


async def test_hint_shows_the_chance_to_win_after_each_choice(table: Table, dice: Dice) -> None:
    farkle(table.env).services.win_tables.adopt(flat_tables(Ruleset.preset("classic")))
    channel, ana, ben = table.channel, table.ana, table.ben
    dice.script((6, 2), (1, 5, 2, 3, 4, 6))
    await ana.slash(channel, "farkle new", rules="classic")
    await act(ben, channel, "join")
    await act(ana, channel, "start")
    hint = await press(ana, channel, "hint")
    assert hint.response is not None
    last = hint.response.content.splitlines()[-1]
    assert last.startswith("🏆 Roll 6 dice: you win **"), last
    await act(ana, channel, "roll")
    text = (await press(ana, channel, "hint")).response.content
    line = next(line for line in text.splitlines() if line.startswith("🏆"))
    chances = [float(found) for found in CHANCES.findall(line)]
    assert len(chances) == 3 and chances == sorted(chances, reverse=True)
    assert all(0 < chance < 100 for chance in chances)
    assert line.startswith("🏆 Keep "), "several keeps: each choice names its dice"


async def test_family_rules_have_chances_too(table: Table, dice: Dice) -> None:
    """Exact target and penalty roll: modelled, so master plays its tables and the Hint has chances."""
    farkle(table.env).services.win_tables.adopt(flat_tables(Ruleset.preset("family")))
    channel, ana = table.channel, table.ana
    dice.script((6, 2), (1, 5, 2, 3, 4, 6))
    await ana.slash(channel, "farkle new", rules="family")
    await act(ana, channel, "cpu:master")
    assert "Computer 1 (master)" in field(board_message(channel), "Players (2/8)")
    assert "plays as expert" not in description(board_message(channel))
    await act(ana, channel, "start")
    text = (await press(ana, channel, "hint")).response.content
    assert "🏆 Roll 6 dice: you win **" in text


async def test_a_fresh_bot_has_the_presets_chances_from_its_first_second(table: Table, dice: Dice) -> None:
    """Solving is off in tests and the database is new: the chances come from the package's tables."""
    await table.env.bot.services.sessions._win_tables.idle()  # loading them takes a moment off the event loop
    channel, ana = table.channel, table.ana
    dice.script((6, 2), (1, 5, 2, 3, 4, 6))
    await ana.slash(channel, "farkle new", rules="last-loses")
    await act(table.ben, channel, "join")
    await act(ana, channel, "start")
    text = (await press(ana, channel, "hint")).response.content
    assert "🏆 Roll 6 dice: you win **" in text


async def test_without_tables_and_solving_off_the_hint_has_no_chances(
    table: Table, dice: Dice, admin: simcord.MemberActor
) -> None:
    channel, ana = table.channel, table.ana
    await admin.slash(channel, "farkle-config set", option="target", value="5000")  # no shipped tables
    dice.script((6, 2), (1, 5, 2, 3, 4, 6))
    await ana.slash(channel, "farkle new")
    await act(table.ben, channel, "join")
    await act(ana, channel, "start")
    await press(ana, channel, "hint")  # asks for the tables: the database may have them
    await table.env.bot.services.sessions._win_tables.idle()
    text = (await press(ana, channel, "hint")).response.content
    assert "🏆" not in text and "Best play" in text


class GatedSolver:
    """Solves (with flat tables) only once released: the minutes a real solve takes, under test control.
    The wait is declared to SimCord as outside input, as a worker process's answer is."""

    def __init__(self, env: simcord.Env) -> None:
        self.env = env
        self.release = asyncio.Event()
        self.asked: list[str] = []

    async def __call__(self, rules: Ruleset) -> bytes:
        self.asked.append(rules.name)
        await self.env.external_wait(self.release.wait(), reason="a win-table solve in a worker process")
        return flat_tables(rules).to_bytes()


async def test_the_hint_warms_up_until_a_servers_own_tables_are_solved(
    env: simcord.Env, settings: Settings, dice: Dice, table: Table, admin: simcord.MemberActor
) -> None:
    solver = GatedSolver(env)
    solving = settings.model_copy(update={"solve_win_tables": True})
    await restart(env, lambda: FarkleBot(solving, dice=dice, win_solver=solver))
    channel, ana = table.channel, table.ana
    await admin.slash(channel, "farkle-config set", option="target", value="5000")
    dice.script((6, 2), (1, 5, 2, 3, 4, 6))
    await ana.slash(channel, "farkle new")
    await act(table.ben, channel, "join")
    await act(ana, channel, "start")
    assert solver.asked == [], "the presets' tables ship with the bot: nothing to solve at start"
    text = (await press(ana, channel, "hint")).response.content
    assert "🏆 Chances to win: warming up" in text
    assert solver.asked == ["custom"], "the server's own rules are solved once asked for"

    solver.release.set()
    await env.bot.services.sessions._win_tables.idle()  # the bot never waits; the test does
    text = (await press(ana, channel, "hint")).response.content
    assert "🏆 Roll 6 dice: you win **" in text


async def test_a_human_plays_master_to_the_end(table: Table) -> None:
    env, channel, ana = table.env, table.channel, table.ana
    farkle(table.env).services.win_tables.adopt(flat_tables(Ruleset.preset("classic")))
    await ana.slash(channel, "farkle new", rules="classic")
    await act(ana, channel, "cpu:master")
    await act(ana, channel, "start")
    for _ in range(400):
        board = board_message(channel)
        if title(board).startswith("🏆"):
            break
        assert "ana's turn" in description(board), "master finishes its turns by itself"
        game = env.bot.services.sessions._games.in_channel(channel.id).game
        action = strategy_for("expert", game.rules, policies_for(game.rules), None).choose(game)
        for position in action.keep:
            await act(ana, channel, f"die:{position}")
        await act(ana, channel, action.kind)
    assert title(board_message(channel)).startswith("🏆")
    assert "Computer 1 (master)" in field(board_message(channel), "Final standings")
