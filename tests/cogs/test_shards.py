"""Several shard processes on one PostgreSQL database, as `compose.yaml` runs them.

Two real processes, each a SimCord world whose bot runs one shard of two (SimCord runs one world per
event loop, and shard processes share nothing but the database anyway). The same two members play in
a guild of each shard; the worlds meet at barriers so that both final moves land at the same instant.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from typing import Any

import pytest
import simcord
from sqlalchemy import text

from bot.app.client import FarkleBot
from bot.core.database_url import DatabaseUrl
from bot.core.environment import GameSettings, Settings
from bot.core.records import StoredSession
from bot.engine import Game
from bot.services.ratings import rate_game
from bot.sessions.session import Session
from bot.sessions.unit_of_work import MOVED_ON
from bot.storage import Database
from bot.storage.sessions import SqlSessionStore
from tests.cogs.conftest import Dice, Table
from tests.cogs.play import (
    FARKLE,
    ROLL_OFF,
    SIX_ONES,
    act,
    big_turn,
    board_message,
    buttons,
    farkle,
    open_game,
    press,
    title,
)

SHARDS = 2
WAIT = 60  # seconds a world waits at a barrier for the other before the test fails


def shard_settings(url: str, shard: int) -> Settings:
    return Settings(
        _env_file=None,
        discord_token=None,
        database_url=url,
        shard_count=SHARDS,
        shard_ids=(shard,),
        solve_win_tables=False,
        game=GameSettings(_env_file=None, computer_pause=0),
    )


def shard_process(url: str, shard: int, barrier: Barrier, results: Queue[dict[str, Any]]) -> None:
    results.put(asyncio.run(_play_shard(url, shard, barrier)))


async def _play_shard(url: str, shard: int, barrier: Barrier) -> dict[str, Any]:
    dice = Dice()
    dice.script(ROLL_OFF, *[SIX_ONES] * 5, FARKLE)  # ana banks 10,000; ben's last turn Farkles
    dice.script(ROLL_OFF)  # a game left running over the restart
    settings = shard_settings(url, shard)
    bot = FarkleBot(settings, dice=dice)
    # Only the process running shard 0 syncs the (global) command tree; Discord shows it to every shard.
    async with simcord.run(bot, strict_sync=shard == 0) as env:
        # The same two members in both worlds (same ids), each in a guild of this world's shard.
        ana, ben = env.create_user("ana"), env.create_user("ben")
        await env.advance_time(3600 * (shard + 1))  # so the worlds' guild and channel ids differ
        guild = env.create_guild(shard_id=shard)
        members = guild.add_member(ana), guild.add_member(ben)
        games, running = guild.create_text_channel("games"), guild.create_text_channel("running")
        await open_game(games, *members)
        await big_turn(members[0], games, 5)
        await asyncio.to_thread(barrier.wait, WAIT)
        await act(members[1], games, "roll")  # the final move, at the same instant in both processes
        over = title(board_message(games))
        await open_game(running, *members)
        await asyncio.to_thread(barrier.wait, WAIT)  # both running games are stored
        await env.restart_bot(FarkleBot(settings, dice=dice))
        await bot.close()
        restored = sorted(snapshot.channel_id for snapshot in farkle(env).services.sessions.snapshots())
        await act(members[0], running, "roll")  # the restored game plays on
        await farkle(env).close()
    return {
        "shard": shard,
        "guild": guild.id,
        "channels": sorted((games.id, running.id)),
        "restored": restored,
        "over": over,
    }


@pytest.fixture
def shared(postgres_url: DatabaseUrl) -> DatabaseUrl:
    """One PostgreSQL database both shard processes use."""
    return postgres_url


async def test_two_shard_processes_share_one_database(shared: DatabaseUrl) -> None:
    assert shared.server_url is not None
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(SHARDS), context.Queue()
    workers = [
        context.Process(target=shard_process, args=(shared.server_url, shard, barrier, results))
        for shard in range(SHARDS)
    ]
    for worker in workers:
        worker.start()
    reports = [await asyncio.to_thread(results.get, True, 4 * WAIT) for _ in workers]
    for worker in workers:
        await asyncio.to_thread(worker.join, WAIT)
        assert worker.exitcode == 0

    for report in reports:
        assert report["over"] == "🏆 ana wins!"
        assert report["restored"] == report["channels"], "each process restores its own guild's games only"
        assert (report["guild"] >> 22) % SHARDS == report["shard"]
    db = Database(shared)
    try:
        games = await db.read(lambda c: c.execute(text("SELECT guild_id FROM games ORDER BY guild_id")).all())
        stats = await db.read(
            lambda c: c.execute(
                text("SELECT guild_id, name, games, wins FROM player_stats ORDER BY guild_id, name")
            ).all()
        )
        synced = await db.read(lambda c: c.execute(text("SELECT scope FROM command_sync")).all())
    finally:
        await db.close()
    assert [tuple(row) for row in synced] == [("global",)], "only the process with shard 0 syncs"
    guilds = sorted(report["guild"] for report in reports)
    assert [row[0] for row in games] == guilds, "each game recorded exactly once"
    assert [tuple(row) for row in stats] == [
        row for guild in guilds for row in ((guild, "ana", 1, 1), (guild, "ben", 1, 0))
    ]


# ---------------------------------------------------------------------- a lost compare-and-set


@pytest.fixture
def settings(postgres_url: DatabaseUrl, settings: Settings) -> Settings:
    return settings.model_copy(update={"database_url": postgres_url.server_url})


async def test_a_move_another_process_made_first_is_answered_and_shown(
    table: Table, dice: Dice, env: simcord.Env
) -> None:
    """During a re-shard two processes can both hold one game: the second write loses, reloads the game
    and tells the player, and the board shows the game as it really is."""
    dice.script(ROLL_OFF, SIX_ONES, SIX_ONES)
    await open_game(table.channel, table.ana, table.ben)
    other = Database(farkle(env).settings.database)
    try:
        store = SqlSessionStore(other, rate_game)
        (stored,) = await store.load_all()
        await _roll_elsewhere(store, stored)  # another process rolls ana's dice first
    finally:
        await other.close()

    result = await press(table.ana, table.channel, "roll")

    assert result.ephemeral and result.response is not None and result.response.content == str(MOVED_ON)
    assert "die:0" in buttons(board_message(table.channel)), "the board shows the dice rolled elsewhere"
    await act(table.ana, table.channel, "die:0")  # the game plays on from the stored state
    assert farkle(env).services.sessions.snapshot(table.channel.id).selection == (0,)


async def _roll_elsewhere(store: SqlSessionStore, stored: StoredSession) -> None:
    session = Session.load(stored.state, stored.revision)
    assert session.game is not None
    events = Game.roll(session.game, session.game.current_player)
    session.version += 1
    session.remember(events)
    session.revision = await store.save(session.row(session.dump()))
