"""Another process holding the database's write lock: every interaction is still answered in time.

The lock is held by a second SQLite connection for the whole test, as a stuck writer in another process
would; the bot's busy timeout is a second, so each answer comes well inside Discord's 3-second window.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager

import pytest
import simcord

from tests.cogs.conftest import Dice, Table
from tests.cogs.play import ROLL_OFF, SIX_ONES, act, board_message, description, farkle, open_game, press

NOT_SAVED = "I couldn't save that, so nothing changed: please try again."
BUSY = "The database is busy right now, so nothing changed: please try again in a moment."


@contextmanager
def write_locked(env: simcord.Env) -> Iterator[None]:
    """A second connection holds the write lock, as a stuck writer in another process would."""
    other = sqlite3.connect(farkle(env).settings.database_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.close()


async def game_locked(table: Table, dice: Dice, env: simcord.Env) -> AbstractContextManager[None]:
    dice.script(ROLL_OFF, SIX_ONES)
    await open_game(table.channel, table.ana, table.ben)
    return write_locked(env)


async def test_a_press_gets_the_couldnt_save_answer_and_changes_nothing(
    table: Table, dice: Dice, env: simcord.Env
) -> None:
    with await game_locked(table, dice, env):
        result = await press(table.ana, table.channel, "roll")
        assert result.ephemeral and result.response is not None and result.response.content == NOT_SAVED
        assert "ana's turn" in description(board_message(table.channel))
    await act(table.ana, table.channel, "roll")  # the lock is gone: the same press now counts


async def test_a_locked_database_is_one_warning_line_not_an_error(
    table: Table, dice: Dice, env: simcord.Env, caplog: pytest.LogCaptureFixture
) -> None:
    with await game_locked(table, dice, env):
        caplog.clear()
        await press(table.ana, table.channel, "roll")
    logged = [
        r for r in caplog.records if r.name.startswith(("bot", "cogs")) and r.levelno >= logging.WARNING
    ]
    assert [(r.levelname, bool(r.exc_info)) for r in logged] == [("WARNING", False)]
    assert "locked" in logged[0].getMessage()


async def test_reads_answer_while_another_process_holds_the_write_lock(
    table: Table, dice: Dice, env: simcord.Env
) -> None:
    with await game_locked(table, dice, env):
        for command in ("farkle leaderboard", "farkle stats", "farkle history", "farkle rules"):
            result = await table.ana.slash(table.channel, command)
            assert result.response is not None, command
            assert "Something went wrong" not in (result.response.content or ""), command
        board = await table.ana.slash(table.channel, "farkle leaderboard", period="30d")
        assert board.response is not None and board.response.embeds, "30-day totals served as they are"


async def test_a_new_lobby_and_a_config_change_are_refused_in_time(
    table: Table, env: simcord.Env, admin: simcord.MemberActor
) -> None:
    with write_locked(env):
        lobby = await table.ana.slash(table.channel, "farkle new")
        assert lobby.ephemeral and lobby.response is not None and lobby.response.content == NOT_SAVED
        change = await admin.slash(table.channel, "farkle-config set", option="target", value="5000")
        assert change.ephemeral and change.response is not None
        assert change.response.content == BUSY
        # The tree's error handler answered it; SimCord still records the error, which was expected.
        assert [type(getattr(e, "original", e)).__name__ for e in env.errors] == ["DatabaseBusy"]
        shown = await admin.slash(table.channel, "farkle-config show")  # a read: answered as usual
        assert shown.response is not None and shown.response.embeds
