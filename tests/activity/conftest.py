"""The Activity's server on aiohttp's test client, in front of the bot under SimCord, with a stand-in for
Discord's OAuth2, users and activity-instance endpoints (`bench/loopback/activity_discord.py`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import discord
import pytest
from aiohttp.test_utils import TestClient, TestServer
from loopback.activity_discord import API, ActivityDiscord, Member

from bot.activity.discord_api import DiscordApi
from bot.activity.moves import Moves
from bot.activity.server import ActivityServer
from bot.app.wiring import subscribe_view
from tests.cogs.conftest import Table, dice, make_bot, table
from tests.cogs.play import farkle

__all__ = ["dice", "make_bot", "table"]  # SimCord's world as the cog tests build it

SECRET = "client-secret"
BOT_TOKEN = "bot-token"
INSTANCE = "i-1234-gc-1"


@dataclass
class Seat:
    """A member at the Activity: their Discord identity and the token their page signed in with."""

    member: Member
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


@dataclass
class Activity:
    discord: ActivityDiscord
    client: TestClient[Any, Any]
    server: ActivityServer
    table: Table

    async def sign_in(self, member: Member) -> Seat:
        """What the page does: `authorize()` gives a code, the server exchanges it for a token."""
        answer = await self.client.post("/api/token", json={"code": self.discord.authorize(member)})
        assert answer.status == 200, await answer.text()
        return Seat(member, (await answer.json())["access_token"])

    async def read(self, seat: Seat) -> dict[str, Any]:
        answer = await self.client.get(f"/api/instances/{INSTANCE}", headers=seat.headers)
        assert answer.status == 200, await answer.text()
        table: dict[str, Any] = (await answer.json())["table"]
        return table

    async def move(self, seat: Seat, action: str, arg: object = None, version: object = None) -> Any:
        """POST an action on the table as the member last read it (or at `version`)."""
        if version is None:
            version = (await self.read(seat))["version"]
        body = {"action": action, "arg": arg, "version": version}
        return await self.client.post(f"/api/instances/{INSTANCE}/actions", json=body, headers=seat.headers)


def member_of(actor: Any, locale: str = "en-US") -> Member:
    return Member(actor.id, actor.name, locale)


@pytest.fixture
async def activity(table: Table, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Activity]:
    bot = farkle(table.env)
    assert bot.application_id is not None
    stand_in = ActivityDiscord(bot.application_id, SECRET, BOT_TOKEN)
    discord_server = TestServer(stand_in.app())
    await discord_server.start_server()
    monkeypatch.setattr(discord.http.Route, "BASE", str(discord_server.make_url(API)))
    api = DiscordApi(bot.application_id, SECRET, BOT_TOKEN)
    server = ActivityServer(api, Moves(bot.services.sessions, bot.services.config))
    subscribe_view(bot.services, server.live.on_game_event)  # as the client does
    client = TestClient(TestServer(server.app()))
    await client.start_server()
    members = [member_of(m) for m in (table.ana, table.ben, table.cy)]
    stand_in.join(INSTANCE, table.channel.id, table.guild.id, *members)
    try:
        yield Activity(stand_in, client, server, table)
    finally:
        await client.close()
        await server.close()
        await discord_server.close()
