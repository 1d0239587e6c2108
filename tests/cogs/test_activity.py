"""With the Activity set up, boards offer "Play at the table", answered by launching the Activity (callback
type 12) in a server and where the app is used by user install."""

from __future__ import annotations

import socket

import pytest
import simcord
from pydantic import SecretStr

from bot.core.environment import Settings
from bot.render.parts import TABLE_BUTTON
from tests.cogs.activities import Activities
from tests.cogs.conftest import Table
from tests.cogs.play import board_message, buttons
from tests.cogs.user_install import DM, UserInstall, user_install

__all__ = ["user_install"]  # the fixture, used by name


@pytest.fixture
def settings(settings: Settings) -> Settings:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    changes = {"activity_port": port, "activity_host": "127.0.0.1", "discord_client_secret": SecretStr("s")}
    return settings.model_copy(update=changes)


@pytest.fixture
def activities(env: simcord.Env, monkeypatch: pytest.MonkeyPatch) -> Activities:
    return Activities(env, monkeypatch)


async def test_the_board_launches_the_activity_in_a_server(table: Table, activities: Activities) -> None:
    await table.ana.slash(table.channel, "farkle new")
    lobby = board_message(table.channel)
    assert buttons(lobby)[TABLE_BUTTON].label == "Play at the table"
    launched = await table.ben.click(lobby, custom_id=TABLE_BUTTON)
    assert launched.acknowledged and launched.response is None, "launching posts nothing"
    assert activities.launched == [launched._interaction.id]

    await table.ben.click(board_message(table.channel), custom_id=buttons(lobby)["join"].custom_id)
    await table.ana.click(board_message(table.channel), custom_id=buttons(lobby)["start"].custom_id)
    board = board_message(table.channel)
    assert TABLE_BUTTON in buttons(board) and "roll" in buttons(board), "the game's board offers it too"
    again = await table.cy.click(board, custom_id=TABLE_BUTTON)
    assert again.acknowledged and len(activities.launched) == 2


async def test_the_board_launches_the_activity_in_a_user_install_dm(
    user_install: UserInstall, activities: Activities
) -> None:
    conversation = user_install.conversation(DM, "ana", "ben")
    ana, _ = conversation.members
    opened = await conversation.slash(ana, "farkle new")
    assert opened.response is not None
    lobby = next(m for m in reversed(conversation.messages()) if TABLE_BUTTON in buttons(m))
    launched = await conversation.press(ana, lobby, TABLE_BUTTON)
    assert launched.acknowledged and activities.launched == [launched._interaction.id]
    assert user_install.refused == []
