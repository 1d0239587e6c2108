"""Command sync: an app with Activities keeps its Entry Point, and a development server's copies of the
commands are taken back once DEV_GUILD_ID is unset."""

from __future__ import annotations

from collections.abc import Callable

import discord
import pytest
import simcord

from bot.app.client import FarkleBot
from bot.core.environment import Settings
from bot.storage import command_sync
from tests.cogs.activities import ENTRY_POINT, Activities
from tests.cogs.play import farkle

Make = Callable[..., FarkleBot]


@pytest.fixture
def activities(env: simcord.Env, monkeypatch: pytest.MonkeyPatch) -> Activities:
    return Activities(env, monkeypatch)


@pytest.fixture
def bot_with(settings: Settings, opened_bots: list[FarkleBot]) -> Make:
    """A bot whose tree has one more command than the one synced at start-up (a sync is due), with
    `changes` to its settings."""

    def make(**changes: object) -> FarkleBot:
        bot = FarkleBot(settings.model_copy(update=changes))
        opened_bots.append(bot)

        @bot.tree.command(name="extra", description="a command the last sync did not have")
        async def extra(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("extra")

        return bot

    return make


def global_commands(env: simcord.Env) -> dict[tuple[str, int], dict[str, object]]:
    return dict(env.backend.commands.get(None, {}))


async def test_the_double_refuses_an_overwrite_without_the_entry_point_as_discord_does(
    env: simcord.Env, activities: Activities
) -> None:
    activities.turn_on()
    with pytest.raises(discord.HTTPException) as refused:
        await env.bot.tree.sync()  # discord.py's own sync: the overwrite that stopped the bot's start
    assert refused.value.code == 50240
    assert activities.entry_point() is not None


async def test_an_app_with_activities_starts_and_its_sync_keeps_the_entry_point(
    env: simcord.Env, activities: Activities, bot_with: Make
) -> None:
    entry_point = activities.turn_on()
    await env.restart_bot(bot_with())
    commands = global_commands(env)
    assert ("extra", 1) in commands and ("farkle", 1) in commands, "the changed tree was synced"
    kept = commands[("launch", ENTRY_POINT)]
    assert kept["id"] == entry_point["id"] and kept["handler"] == 2, "the same Entry Point, as Discord had it"
    assert env.bot.is_ready()


async def test_an_app_without_activities_syncs_no_entry_point(
    env: simcord.Env, activities: Activities, bot_with: Make
) -> None:
    await env.restart_bot(bot_with())
    commands = global_commands(env)
    assert ("extra", 1) in commands
    assert activities.entry_point() is None
    assert all(command.get("type") != ENTRY_POINT for command in commands.values())


async def test_unsetting_dev_guild_id_clears_the_servers_copies(env: simcord.Env, bot_with: Make) -> None:
    guild = env.create_guild()
    member = guild.add_member(env.create_user("ana"))
    channel = guild.create_text_channel("games")
    await env.restart_bot(bot_with(dev_guild_id=guild.id))
    assert ("extra", 1) in env.backend.commands.get(guild.id, {}), "DEV_GUILD_ID's server got the tree"
    assert str(guild.id) in await command_sync.scopes(farkle(env).services.database)

    await env.restart_bot(bot_with())  # DEV_GUILD_ID unset
    assert env.backend.commands.get(guild.id) == {}, "the server's copies are gone"
    assert await command_sync.scopes(farkle(env).services.database) == ["global"]
    assert ("extra", 1) in global_commands(env)
    assert list(member.available_commands(channel)).count("farkle help") == 1, "each command once"

    await env.restart_bot(bot_with())
    clears = [r for r in env.http_requests if r.method == "PUT" and r.path.endswith(f"/{guild.id}/commands")]
    assert len(clears) == 2, "one sync while it was set, one clearing; nothing once it is forgotten"


async def test_a_server_that_let_the_app_go_is_forgotten(env: simcord.Env, bot_with: Make) -> None:
    guild = env.create_guild()
    await env.restart_bot(bot_with(dev_guild_id=guild.id))
    env.inject_error("PUT", f"/applications/*/guilds/{guild.id}/commands", status=403, code=50001)
    await env.restart_bot(bot_with())
    assert await command_sync.scopes(farkle(env).services.database) == ["global"]


async def test_a_failed_clearing_is_tried_again_at_the_next_start(env: simcord.Env, bot_with: Make) -> None:
    guild = env.create_guild()
    await env.restart_bot(bot_with(dev_guild_id=guild.id))
    env.inject_error("PUT", f"/applications/*/guilds/{guild.id}/commands", status=500)
    await env.restart_bot(bot_with())
    assert str(guild.id) in await command_sync.scopes(farkle(env).services.database)
    await env.restart_bot(bot_with())
    assert await command_sync.scopes(farkle(env).services.database) == ["global"]
    assert env.backend.commands.get(guild.id) == {}
