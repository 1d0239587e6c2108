"""What the Activity asks Discord: a member's sign-in code exchanged for a token, who holds a token, and
who is in an activity instance (where it runs, and which members share it).

Every call goes to `discord.http.Route.BASE`, the base URL discord.py's own client uses, read when the
call is made, so a test double of Discord serves these too. Answers are kept a little while: a member's
page asks for the table and sends moves again and again, and each would otherwise cost two calls to
Discord (and count against its rate limits).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import aiohttp
import discord

# How long who holds a token, and who is in an instance, are trusted before Discord is asked again: a
# member who left an instance can watch for this long more (moves are refused once the seat is gone).
MEMBER_SECONDS = 600.0
INSTANCE_SECONDS = 15.0
REMEMBERED = 4096  # tokens and instances each: the oldest are forgotten first
TIMEOUT = aiohttp.ClientTimeout(total=10)

Value = TypeVar("Value")


@dataclass(frozen=True)
class Member:
    id: int
    name: str
    locale: str | None


@dataclass(frozen=True)
class Instance:
    channel_id: int
    guild_id: int | None
    users: frozenset[int]


class _Recent(Generic[Value]):
    """The last answers, each for `seconds`, at most `REMEMBERED` of them."""

    def __init__(self, seconds: float) -> None:
        self._seconds = seconds
        self._kept: OrderedDict[str, tuple[float, Value]] = OrderedDict()

    def get(self, key: str) -> Value | None:
        found = self._kept.get(key)
        if found is None or found[0] < time.monotonic():
            return None
        return found[1]

    def put(self, key: str, value: Value) -> None:
        self._kept[key] = (time.monotonic() + self._seconds, value)
        self._kept.move_to_end(key)
        while len(self._kept) > REMEMBERED:
            self._kept.popitem(last=False)


class DiscordApi:
    def __init__(self, application_id: int, client_secret: str, bot_token: str) -> None:
        self.application_id = application_id
        self._client_secret = client_secret
        self._bot_token = bot_token
        self._session: aiohttp.ClientSession | None = None
        self._members = _Recent[Member](MEMBER_SECONDS)
        self._instances = _Recent[Instance](INSTANCE_SECONDS)

    async def exchange(self, code: str) -> str | None:
        """The access token Discord gives for a sign-in code; None for a bad or used code."""
        form = {
            "client_id": str(self.application_id),
            "client_secret": self._client_secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        async with self._http().post(f"{discord.http.Route.BASE}/oauth2/token", data=form) as answer:
            if answer.status != 200:
                return None
            token = (await answer.json()).get("access_token")
        return str(token) if token else None

    async def member(self, token: str) -> Member | None:
        """Who holds an access token (None: nobody, or it expired)."""
        known = self._members.get(token)
        if known is not None:
            return known
        found = await self._get("/users/@me", f"Bearer {token}")
        if found is None:
            return None
        name = str(found.get("global_name") or found["username"])
        member = Member(int(found["id"]), name, found.get("locale"))
        self._members.put(token, member)
        return member

    async def instance(self, instance_id: str, member_id: int) -> Instance | None:
        """Where an activity instance of this app runs and who is in it (None: no such instance); asked
        again when `member_id` is not in it as last read (they may have just joined)."""
        known = self._instances.get(instance_id)
        if known is not None and member_id in known.users:
            return known
        path = f"/applications/{self.application_id}/activity-instances/{instance_id}"
        found = await self._get(path, f"Bot {self._bot_token}")
        if found is None:
            return None
        location = found.get("location") or {}
        guild = location.get("guild_id")
        instance = Instance(
            int(location["channel_id"]),
            int(guild) if guild else None,
            frozenset(int(user) for user in found.get("users", [])),
        )
        self._instances.put(instance_id, instance)
        return instance

    async def _get(self, path: str, authorization: str) -> dict[str, Any] | None:
        headers = {"Authorization": authorization}
        async with self._http().get(f"{discord.http.Route.BASE}{path}", headers=headers) as answer:
            if answer.status != 200:
                return None
            found: dict[str, Any] = await answer.json()
            return found

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
