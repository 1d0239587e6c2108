"""The objects Discord sends, as JSON dicts: users, members, channels, guilds, messages, interactions.

Shapes follow Discord's API v10 closely enough that discord.py parses them the way it parses Discord's;
every value the bench does not vary is a constant here.
"""

from __future__ import annotations

import itertools
import secrets
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

JSONDict = dict[str, Any]

API = "/api/v10"  # where REST routes live, under the server's base URL
GATEWAY_PATH = "/gateway"
# The shape of a real bot token (three base64url parts), so the Farkle bot's settings check accepts it.
BENCH_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GABCDE.abcdefghijklmnopqrstuvwxyz0123456789ab"

DISCORD_EPOCH_MS = 1_420_070_400_000
# View Channel, Send Messages, Embed Links, Read Message History, Use Application Commands.
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 16) | (1 << 31)
# A bot invited as the README says: the same, plus Create Public Threads and Send Messages in Threads.
BOT_PERMISSIONS = MEMBER_PERMISSIONS | (1 << 35) | (1 << 38)
EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15  # set by the sender, never removed: discord.py reads such a message's layout
SENT_FLAGS = EPHEMERAL | COMPONENTS_V2  # the flags a bot's message keeps from what it sent
CHANNELS_PER_GUILD = 50
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_GUILD_PRESENCES = 1 << 8


class Snowflakes:
    """Increasing ids with the timestamp in the high bits, as Discord's are."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        now = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(now, self._last + 1)
        return self._last


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(frozen=True)
class Person:
    id: int
    name: str


@dataclass(frozen=True)
class Table:
    """One text channel where one game is played by two members."""

    index: int
    guild_id: int
    channel_id: int
    host: Person
    guest: Person


@dataclass
class World:
    """The bot's application and user, and the guilds with one channel and two members per game."""

    application_id: int
    bot: Person
    owner: Person
    tables: list[Table]
    guild_names: dict[int, str] = field(default_factory=dict)

    @classmethod
    def build(cls, games: int, snowflake: Snowflakes) -> World:
        application_id = snowflake()
        world = cls(application_id, Person(application_id, "Bench Bot"), Person(snowflake(), "owner"), [])
        guild_id = 0
        for index in range(games):
            if index % CHANNELS_PER_GUILD == 0:
                guild_id = snowflake()
                world.guild_names[guild_id] = f"bench-{index // CHANNELS_PER_GUILD}"
            host, guest = Person(snowflake(), f"ana-{index}"), Person(snowflake(), f"ben-{index}")
            world.tables.append(Table(index, guild_id, snowflake(), host, guest))
        return world

    def tables_in(self, guild_id: int) -> list[Table]:
        return [table for table in self.tables if table.guild_id == guild_id]


def user(person: Person, *, bot: bool = False) -> JSONDict:
    return {
        "id": str(person.id),
        "username": person.name,
        "discriminator": "0",
        "global_name": None,
        "avatar": None,
        "bot": bot,
        "public_flags": 0,
        "flags": 0,
    }


def member(person: Person, *, bot: bool = False) -> JSONDict:
    return {
        "user": user(person, bot=bot),
        "roles": [],
        "nick": None,
        "avatar": None,
        "joined_at": "2026-01-01T00:00:00+00:00",
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }


def channel(table: Table) -> JSONDict:
    return {
        "id": str(table.channel_id),
        "type": 0,
        "guild_id": str(table.guild_id),
        "name": f"farkle-{table.index}",
        "position": table.index % CHANNELS_PER_GUILD,
        "permission_overwrites": [],
        "parent_id": None,
        "topic": None,
        "nsfw": False,
        "rate_limit_per_user": 0,
        "last_message_id": None,
    }


def guild_create(world: World, guild_id: int, intents: int) -> JSONDict:
    """A guild as GUILD_CREATE carries it: members inline only with presences (as Discord does for a
    small guild); otherwise just the bot, and players arrive in each interaction's `member`."""
    tables = world.tables_in(guild_id)
    members = [member(world.bot, bot=True)]
    if intents & INTENT_GUILD_PRESENCES:
        members += [member(person) for table in tables for person in (table.host, table.guest)]
    return {
        "id": str(guild_id),
        "name": world.guild_names[guild_id],
        "owner_id": str(world.owner.id),
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "vanity_url_code": None,
        "application_id": None,
        "max_members": 500_000,
        "features": [],
        "emojis": [],
        "stickers": [],
        "roles": [
            {
                "id": str(guild_id),
                "name": "@everyone",
                "permissions": str(MEMBER_PERMISSIONS),
                "position": 0,
                "color": 0,
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "flags": 0,
            }
        ],
        "member_count": 1 + 2 * len(tables),
        "large": False,
        "unavailable": False,
        "joined_at": "2026-01-01T00:00:00+00:00",
        "members": members,
        "channels": [channel(table) for table in tables],
        "threads": [],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "premium_progress_bar_enabled": False,
    }


def ready(world: World, session_id: str, resume_url: str, shard: list[int] | None) -> JSONDict:
    """READY for one gateway connection; a sharded client's IDENTIFY names its shard, and READY echoes it."""
    return {
        **({"shard": shard} if shard is not None else {}),
        "v": 10,
        "user": {**user(world.bot, bot=True), "verified": True, "mfa_enabled": False},
        "guilds": [{"id": str(guild_id), "unavailable": True} for guild_id in world.guild_names],
        "session_id": session_id,
        "resume_gateway_url": resume_url,
        "application": {"id": str(world.application_id), "flags": 0},
        "private_channels": [],
        "relationships": [],
    }


def application(world: World) -> JSONDict:
    return {
        "id": str(world.application_id),
        "name": world.bot.name,
        "icon": None,
        "description": "",
        "rpc_origins": [],
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": user(world.owner),
        "team": None,
        "verify_key": "0" * 64,
        "flags": 0,
        "interactions_endpoint_url": None,
        "bot": user(world.bot, bot=True),
    }


def message(
    message_id: int,
    table: Table,
    author: Person,
    body: JSONDict,
    *,
    flags: int = 0,
    kind: int = 0,
    application_id: int | None = None,
) -> JSONDict:
    """A message as Discord stores it; `body` is what the bot sent (content, embeds, components)."""
    payload: JSONDict = {
        "id": str(message_id),
        "channel_id": str(table.channel_id),
        "guild_id": str(table.guild_id),
        "author": user(author, bot=True),
        "content": body.get("content") or "",
        "timestamp": now_iso(),
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": body.get("embeds") or [],
        "components": body.get("components") or [],
        "pinned": False,
        "type": kind,
        "flags": flags,
    }
    if application_id is not None:
        payload["application_id"] = payload["webhook_id"] = str(application_id)
    return payload


EDITABLE = ("content", "embeds", "components")


def edit(stored: JSONDict, body: JSONDict) -> None:
    """Apply an edit: fields the bot sent replace the stored ones, the rest stay."""
    for key in EDITABLE:
        if key in body:
            stored[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
    stored["flags"] |= int(body.get("flags") or 0) & COMPONENTS_V2
    stored["edited_timestamp"] = now_iso()


_tokens = itertools.count()


def interaction_token() -> str:
    """Long and unguessable like Discord's; the counter keeps it unique without a lookup."""
    return f"aW50ZXJhY3Rpb246{next(_tokens)}:{secrets.token_urlsafe(48)}"


def interaction(
    interaction_id: int,
    token: str,
    world: World,
    table: Table,
    person: Person,
    kind: int,
    data: JSONDict,
    pressed_on: JSONDict | None = None,
) -> JSONDict:
    payload: JSONDict = {
        "id": str(interaction_id),
        "application_id": str(world.application_id),
        "type": kind,
        "token": token,
        "version": 1,
        "data": data,
        "guild_id": str(table.guild_id),
        "guild": {"id": str(table.guild_id), "locale": "en-US", "features": []},
        "channel_id": str(table.channel_id),
        "channel": channel(table),
        "member": {**member(person), "permissions": str(MEMBER_PERMISSIONS)},
        "app_permissions": str(BOT_PERMISSIONS),
        "locale": "en-US",
        "guild_locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(table.guild_id)},
        "context": 0,
        "attachment_size_limit": 26_214_400,
    }
    if pressed_on is not None:
        payload["message"] = pressed_on
    return payload


def components_of(stored: JSONDict) -> list[JSONDict]:
    """Every button and select on a message, rows and Components V2 containers and sections flattened."""
    found = []
    for component in stored.get("components", []):
        if "custom_id" in component:
            found.append(component)
        found.extend(components_of(component))
        accessory = component.get("accessory")
        if accessory is not None and "custom_id" in accessory:
            found.append(accessory)
    return found


def text_of(stored: JSONDict) -> str:
    """What a member reads on a message: its embeds' descriptions and its text displays, in order."""
    parts = [str(embed.get("description", "")) for embed in stored.get("embeds", [])]

    def walk(components: list[JSONDict]) -> None:
        for component in components:
            parts.append(str(component.get("content", "")))
            walk(component.get("components", []))

    walk(stored.get("components", []))
    return "\n".join(parts)
