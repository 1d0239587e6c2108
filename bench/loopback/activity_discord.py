"""Discord's side of an Activity's sign-in on 127.0.0.1: OAuth2 codes and tokens, `GET /users/@me` and the
activity instances, for the Activity server's tests, `make play` and `bench/activity.py`.

As Discord: a code is exchanged once, with the app's client id and secret, for a bearer token that
`/users/@me` reads; an instance lists the members in it, read with the bot's token. A member signs in by
`authorize(user)` (what the SDK's `authorize()` gives the page) and joins an instance with `join`.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

API = "/api/v10"
Handler = Callable[[web.Request], Awaitable[web.Response]]


@dataclass
class Member:
    id: int
    name: str
    locale: str = "en-US"


@dataclass
class Instance:
    channel_id: int
    guild_id: int | None
    users: set[int] = field(default_factory=set)


def _error(status: int, code: int | str, message: str) -> web.Response:
    return web.json_response({"code": code, "message": message, "error": message}, status=status)


class ActivityDiscord:
    def __init__(self, application_id: int, client_secret: str, bot_token: str) -> None:
        self.application_id = application_id
        self.client_secret = client_secret
        self.bot_token = bot_token
        self.codes: dict[str, Member] = {}
        # `make play`: the page's DiscordSDKMock signs in as `?user=<name>` with the code `mock:<name>`,
        # again and again (a reload signs in again).
        self.mock_members: dict[str, Member] = {}
        self.tokens: dict[str, Member] = {}
        self.instances: dict[str, Instance] = {}
        self.calls: list[str] = []  # "METHOD path" of every request, in order

    def authorize(self, member: Member) -> str:
        """A fresh code, as the SDK's `authorize()` hands one to the page."""
        code = secrets.token_urlsafe(12)
        self.codes[code] = member
        return code

    def join(self, instance_id: str, channel_id: int, guild_id: int | None, *members: Member) -> Instance:
        instance = self.instances.setdefault(instance_id, Instance(channel_id, guild_id))
        instance.users.update(member.id for member in members)
        return instance

    def routes(self) -> list[tuple[str, str, Handler]]:
        """Method, path under `API` and handler of each endpoint (the loopback server mounts them too)."""
        return [
            ("POST", "/oauth2/token", self._token),
            ("GET", "/users/@me", self._me),
            ("GET", "/applications/{app}/activity-instances/{instance}", self._instance),
        ]

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._note])
        for method, path, handler in self.routes():
            app.router.add_route(method, API + path, handler)
        return app

    @web.middleware
    async def _note(self, request: web.Request, handler: Any) -> web.StreamResponse:
        self.calls.append(f"{request.method} {request.path}")
        response: web.StreamResponse = await handler(request)
        return response

    async def _token(self, request: web.Request) -> web.Response:
        form = await request.post()
        client = (form.get("client_id"), form.get("client_secret"))
        if client != (str(self.application_id), self.client_secret):
            return _error(401, "invalid_client", "Invalid client")
        code = str(form.get("code", ""))
        member = self.codes.pop(code, None) or self.mock_members.get(code.removeprefix("mock:"))
        if form.get("grant_type") != "authorization_code" or member is None:
            return _error(400, "invalid_grant", 'Invalid "code" in request.')
        token = secrets.token_urlsafe(24)
        self.tokens[token] = member
        return web.json_response(
            {"access_token": token, "token_type": "Bearer", "expires_in": 604800, "scope": "identify"}
        )

    async def _me(self, request: web.Request) -> web.Response:
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        member = self.tokens.get(token) if scheme == "Bearer" else None
        if member is None:
            return _error(401, 0, "401: Unauthorized")
        user = {"id": str(member.id), "username": member.name, "global_name": member.name}
        return web.json_response({**user, "locale": member.locale})

    async def _instance(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != f"Bot {self.bot_token}":
            return _error(401, 0, "401: Unauthorized")
        instance = self.instances.get(request.match_info["instance"])
        if request.match_info["app"] != str(self.application_id) or instance is None:
            return _error(404, 10064, "Unknown activity instance")  # any unknown resource: 404
        return web.json_response(
            {
                "application_id": str(self.application_id),
                "instance_id": request.match_info["instance"],
                "launch_id": "1",
                "location": {
                    "id": f"gc-{instance.guild_id}-{instance.channel_id}",
                    "kind": "gc" if instance.guild_id else "pc",
                    "channel_id": str(instance.channel_id),
                    "guild_id": str(instance.guild_id) if instance.guild_id else None,
                },
                "users": [str(user) for user in sorted(instance.users)],
            }
        )
