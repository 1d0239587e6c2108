"""A test double of Discord's rules where the app is used by user install and is not a member.

SimCord models servers that installed the bot and the bot's own DM. Discord's documentation adds, for a
conversation the app is not a member of (a DM between members, a group DM, a server without the bot):
- interactions arrive with `context` 2 (private channel) or 0 with a guild the bot never received, and
  `authorizing_integration_owners` naming the member's user install;
- every channel route (messages, channels, threads, reactions) and guild route is refused, 403 50001;
- an interaction's token works for 15 minutes (then 401 50027), and sends at most 5 follow-ups (40094).

`UserInstall` wraps SimCord's HTTP router (both the bot's client and its webhook adapter go through it)
with those refusals, and records each one: a test fails if the bot called a route Discord refuses.
A conversation's messages are kept in a SimCord channel the bot is never told about, so what players see
is SimCord's stored messages, edited only by interaction routes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
import simcord
from simcord.backend import serializers
from simcord.backend.errors import BackendError
from simcord.enums import ComponentType, InteractionType
from simcord.http import router
from simcord.interactions import base_payload, nest_options, walk_to_subcommand
from simcord.results import InteractionResult

TOKEN_LIFETIME = 15 * 60.0
FOLLOW_UP_LIMIT = 5
USE_EXTERNAL_APPS = 1 << 50
GROUP_DM, DM, GUILD_TEXT = 3, 1, 0


@dataclass
class Conversation:
    """Somewhere the app is not a member: its members, and where Discord keeps its messages."""

    install: UserInstall
    kind: int
    channel: simcord.ChannelHandle
    members: tuple[simcord.UserHandle, ...]
    guild_id: int | None = None  # a server without the bot
    external_apps: bool = True  # the server lets members use external apps
    locales: dict[int, str] = field(default_factory=dict)  # each member's client language (unset: en-US)

    def messages(self) -> list[discord.Message]:
        return self.channel.history()

    async def slash(self, user: simcord.UserHandle, name: str) -> InteractionResult:
        """A member's `/name` (no options) through their user install."""
        root_name, *path = name.split()
        root = user._env.backend.find_command(root_name, None)
        assert root is not None, f"/{root_name} is not synced"
        _, nesting = walk_to_subcommand(root, path)
        data = {"id": root["id"], "name": root["name"], "type": 1, "options": nest_options(root, nesting, [])}
        return await self._emit(user, InteractionType.APPLICATION_COMMAND, data)

    async def press(
        self, user: simcord.UserHandle, message: discord.Message, custom_id: str
    ) -> InteractionResult:
        """A button press on a message the member sees in this conversation."""
        data = {"custom_id": custom_id, "component_type": ComponentType.BUTTON}
        return await self._emit(user, InteractionType.MESSAGE_COMPONENT, data, message)

    async def _emit(
        self,
        user: simcord.UserHandle,
        kind: int,
        data: dict[str, Any],
        message: discord.Message | None = None,
    ) -> InteractionResult:
        env = self.install.env
        backend = env.backend
        record, payload = base_payload(
            backend, type=kind, channel_id=self.channel.id, guild_id=None, user_id=user.id, data=data
        )
        record.expires_at = backend.iso_after(self.install.token_lifetime)
        recipients = [dict(serializers.user_payload(backend.get_user(m.id))) for m in self.members]
        payload["channel"] = {"id": str(self.channel.id), "type": self.kind, "recipients": recipients}
        payload["authorizing_integration_owners"] = {"1": str(user.id)}
        payload["locale"] = self.locales.get(user.id, "en-US")
        payload["context"] = 2 if self.guild_id is None else 0
        if self.guild_id is not None:
            permissions = discord.Permissions.text().value & ~USE_EXTERNAL_APPS
            permissions |= USE_EXTERNAL_APPS if self.external_apps else 0
            payload["channel"].update(guild_id=str(self.guild_id), name="general", position=0)
            payload["guild_id"] = str(self.guild_id)
            payload["member"] = {
                "user": payload.pop("user"),
                "roles": [],
                "joined_at": "2026-01-01T00:00:00+00:00",
                "deaf": False,
                "mute": False,
                "flags": 0,
                "permissions": str(permissions),
            }
        if message is not None:
            stored = backend.get_message(self.channel.id, message.id)
            payload["message"] = dict(serializers.message_payload(backend, stored))
            record.source_message_id = stored.id
        self.install.conversations[record.token] = self
        env._notify_dispatch_observers(record)
        backend.emit("INTERACTION_CREATE", payload)
        await env.settle()
        return InteractionResult(env, record)


@dataclass
class UserInstall:
    """Discord's refusals where the app is not a member, over SimCord's router."""

    env: simcord.Env
    token_lifetime: float = TOKEN_LIFETIME
    refused: list[str] = field(default_factory=list)
    conversations: dict[str, Conversation] = field(default_factory=dict)  # by interaction token
    follow_ups: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._dispatch = router.dispatch
        self._private: set[int] = set()
        self._outside: set[int] = set()

    def conversation(
        self, kind: int, *names: str, guild_id: int | None = None, external_apps: bool = True
    ) -> Conversation:
        backend = self.env.backend
        members = tuple(self.env.create_user(name) for name in names)
        stored = backend.create_channel(None, None, type=simcord.enums.ChannelType.DM)
        stored.recipient_ids = [m.id for m in members]
        self._private.add(stored.id)
        if guild_id is not None:
            self._outside.add(guild_id)
        channel = simcord.ChannelHandle(self.env, None, stored)
        return Conversation(self, kind, channel, members, guild_id, external_apps)

    def dispatch(self, backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        segments = path.strip("/").split("/")
        head = segments[0]
        if head == "channels" and int(segments[1]) in self._private:
            self._refuse(method, path, BackendError(403, 50001, "Missing Access"))
        if head == "guilds" and int(segments[1]) in self._outside:
            self._refuse(method, path, BackendError(403, 50001, "Missing Access"))
        if head == "webhooks" and len(segments) >= 3 and segments[2] in self.conversations:
            token = segments[2]
            record = next(r for r in backend.interactions.values() if r.token == token)
            if backend.now_iso() >= record.expires_at:
                self._refuse(method, path, BackendError(401, 50027, "Invalid Webhook Token"))
            if method == "POST" and len(segments) == 3:
                self.follow_ups[token] = self.follow_ups.get(token, 0) + 1
                if self.follow_ups[token] > FOLLOW_UP_LIMIT:
                    self._refuse(
                        method, path, BackendError(400, 40094, "Maximum number of follow up messages")
                    )
        return self._dispatch(backend, method, path, **kwargs)

    def _refuse(self, method: str, path: str, error: BackendError) -> None:
        self.refused.append(f"{method} {path} -> {error.code}")
        raise error


@pytest.fixture
def user_install(env: simcord.Env, monkeypatch: pytest.MonkeyPatch) -> UserInstall:
    install = UserInstall(env)
    monkeypatch.setattr(router, "dispatch", install.dispatch)
    return install
