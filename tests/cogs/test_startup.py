"""The real bot logs in to a simulated Discord, registers its commands and answers errors politely."""

import logging
from collections.abc import Callable

import discord
import pytest
import simcord
from discord import app_commands

from bot.app.client import FarkleBot


def command_syncs(env: simcord.Env) -> int:
    return sum(1 for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands"))


async def test_bot_logs_in_and_registers_the_farkle_commands(env: simcord.Env) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ana = guild.add_member(env.create_user("ana"))
    assert env.bot.is_ready()
    available = ana.available_commands(channel)
    assert "farkle help" in available
    result = await ana.slash(channel, "farkle help")
    assert result.ephemeral and result.response is not None
    assert result.response.embeds[0].title == "How to play Farkle"


async def test_restart_with_an_unchanged_tree_does_not_sync_again(
    env: simcord.Env, make_bot: Callable[[], FarkleBot]
) -> None:
    assert command_syncs(env) == 1
    await env.restart_bot(make_bot())
    assert command_syncs(env) == 1
    channel = env.create_guild().create_text_channel("games")
    ana = env.guild.add_member(env.create_user("ana"))
    assert (await ana.slash(channel, "farkle help")).response is not None


@pytest.fixture
def make_bot_with_failing_commands(make_bot: Callable[[], FarkleBot]) -> Callable[[], FarkleBot]:
    def make() -> FarkleBot:
        bot = make_bot()

        @bot.tree.command(name="boom", description="fails")
        async def boom(interaction: discord.Interaction) -> None:
            raise RuntimeError("kaboom")

        @bot.tree.command(name="admin-only", description="needs Manage Server")
        @app_commands.checks.has_permissions(manage_guild=True)
        async def admin_only(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("ok")

        return bot

    return make


async def test_unexpected_error_gets_a_reference_that_is_logged(
    make_bot_with_failing_commands: Callable[[], FarkleBot], caplog: pytest.LogCaptureFixture
) -> None:
    async with simcord.run(make_bot_with_failing_commands()) as env:
        channel = env.create_guild().create_text_channel("games")
        ana = env.guild.add_member(env.create_user("ana"))
        with caplog.at_level(logging.ERROR):
            result = await ana.slash(channel, "boom")
        assert result.ephemeral and result.response is not None
        content = result.response.content
        assert content.startswith("Something went wrong (ref ")
        ref = content.split("(ref ")[1].split(")")[0]
        assert len(ref) == 4
        record = next(r for r in caplog.records if ref in r.getMessage())
        assert record.exc_info is not None and "kaboom" in str(record.exc_info[1])
        assert [type(e) for e in env.errors] == [app_commands.CommandInvokeError]


async def test_known_error_gets_a_clear_ephemeral_answer(
    make_bot_with_failing_commands: Callable[[], FarkleBot],
) -> None:
    async with simcord.run(make_bot_with_failing_commands()) as env:
        channel = env.create_guild().create_text_channel("games")
        ana = env.guild.add_member(env.create_user("ana"))
        result = await ana.slash(channel, "admin-only")
        assert result.ephemeral and result.response is not None
        assert result.response.content == "You need the Manage Server permission to do that."
        assert [type(e) for e in env.errors] == [app_commands.MissingPermissions]
