"""Discord on 127.0.0.1 for one bot process: REST, the gateway, interactions and a message store.

Like Discord, it keeps every message's current components and refuses a press whose custom id is not on
them or is disabled (the member sees "This interaction failed"; the bot never hears of it), expects the
interaction callback within 3 s, sends the bot MESSAGE_CREATE/UPDATE/DELETE for its own messages (intents
permitting) and answers 429 nowhere. What a player waits for is timed here: from the INTERACTION_CREATE
frame being written to the socket to the bot's interaction callback arriving.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import aiohttp
from aiohttp import web

from . import payloads
from .gateway import (
    HEARTBEAT,
    HEARTBEAT_ACK,
    HEARTBEAT_INTERVAL_MS,
    HELLO,
    IDENTIFY,
    INVALID_SESSION,
    RESUME,
    GatewayConnection,
)
from .payloads import API, EPHEMERAL, GATEWAY_PATH, LOADING, SENT_FLAGS, JSONDict, Person, Table, World

INTERACTION_DEADLINE = 3.0  # seconds Discord waits for the interaction callback
APPLICATION_COMMAND, MESSAGE_COMPONENT = 2, 3
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 5, 6, 7
CHAT_INPUT_MESSAGE = 20  # the message type of a slash command's answer

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Outcome(StrEnum):
    ANSWERED = "answered"
    REFUSED = "refused"  # the custom id is not on the message as stored: never dispatched
    TIMED_OUT = "timed out"  # no callback within INTERACTION_DEADLINE


@dataclass(eq=False)
class Interaction:
    id: int
    token: str
    kind: int
    table: Table
    person: Person
    custom_id: str | None
    message_id: int | None  # the message a component sits on
    done: asyncio.Future[Outcome] = field(repr=False)
    sent_at: float | None = None
    answered_at: float | None = None
    callback_type: int | None = None
    ephemeral: bool = False
    response_message_id: int | None = None  # what @original names

    @property
    def latency(self) -> float | None:
        """Seconds from the frame leaving to the callback arriving: what the player waits for."""
        if self.sent_at is None or self.answered_at is None:
            return None
        return self.answered_at - self.sent_at

    def finish(self, outcome: Outcome) -> None:
        if not self.done.done():
            self.done.set_result(outcome)


def discord_error(status: int, code: int, message: str) -> web.Response:
    return json_response({"message": message, "code": code}, status=status)


def json_response(data: Any, status: int = 200) -> web.Response:
    """discord.py reads a body as JSON only when the content type is exactly `application/json`."""
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json")


async def read_body(request: web.Request) -> JSONDict:
    """A JSON body, or the `payload_json` part of a multipart one (messages with files)."""
    if request.content_type.startswith("multipart/"):
        form = await request.post()
        return dict(json.loads(str(form["payload_json"])))
    if not request.can_read_body:
        return {}
    return dict(json.loads(await request.read()))


class LoopbackDiscord:
    def __init__(self, world: World, token: str, snowflake: payloads.Snowflakes) -> None:
        self.world = world
        self.token = token
        self.snowflake = snowflake
        self.tables = {table.channel_id: table for table in world.tables}
        self.messages: dict[int, JSONDict] = {}
        self.interactions: dict[int, Interaction] = {}
        self.emojis: list[JSONDict] = []
        self.commands: dict[int | None, list[JSONDict]] = {}
        self.requests: Counter[str] = Counter()
        self.unknown_routes: Counter[str] = Counter()
        self.connection: GatewayConnection | None = None
        self.identified = asyncio.Event()
        self._by_token: dict[str, Interaction] = {}
        self._pending: set[Interaction] = set()
        self._in_flight = 0
        self._last_activity = time.monotonic()
        self._runner: web.AppRunner | None = None
        self.url = ""
        self.also: list[tuple[str, str, Handler]] = []  # more endpoints (the Activity's sign-in)
        # Of those, the ones the bot's routes have too (`GET /users/@me`): answered for a member's token.
        self._for_members: dict[str, Handler] = {}

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> str:
        """Listen on a free port of 127.0.0.1; returns the base URL the bots are pointed at."""
        app = web.Application(middlewares=[self._observe], client_max_size=16 * 1024 * 1024)
        app.router.add_get(GATEWAY_PATH, self._gateway)
        own = self._routes()
        for method, path, handler in own:
            app.router.add_route(method, API + path, handler)
        for method, path, handler in self.also:
            if any((method, path) == (m, p) for m, p, _ in own):
                self._for_members[f"{method} {path}"] = handler
            else:
                app.router.add_route(method, API + path, handler)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}"
        return self.url

    async def close(self) -> None:
        if self.connection is not None:
            await self.connection.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def settled(self, quiet: float = 0.3, within: float = 120.0) -> None:
        """Wait until every interaction is answered (or failed), every event is written, and the bot made
        no request for `quiet` s: the turn pings and other work after an answer are done."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            connection = self.connection
            last = max(self._last_activity, connection.last_write if connection else 0.0)
            idle = time.monotonic() - last
            writing = connection is not None and connection.busy
            if not self._pending and not self._in_flight and not writing and idle >= quiet:
                return
            await asyncio.sleep(max(0.02, quiet - idle))
        raise TimeoutError(f"the bot was still busy after {within} s")

    # ------------------------------------------------------------------ what members do

    def post(self, table: Table, body: JSONDict) -> JSONDict:
        """A message by the bot, as if it had posted it earlier (the trivial bot's boards)."""
        return self._create(table, body)

    def slash(self, table: Table, person: Person, command: str, subcommand: str) -> Interaction:
        known = next((c for c in self.commands.get(None, []) if c["name"] == command), None)
        data = {
            "id": known["id"] if known else str(self.snowflake()),
            "name": command,
            "type": 1,
            "options": [{"type": 1, "name": subcommand, "options": []}],
        }
        interaction = self._new_interaction(APPLICATION_COMMAND, table, person, None, None)
        self._dispatch_interaction(interaction, data)
        return interaction

    def press(self, table: Table, person: Person, message_id: int, custom_id: str) -> Interaction:
        """A button press on a message as stored now; refused like Discord if that id is not on it."""
        interaction = self._new_interaction(MESSAGE_COMPONENT, table, person, custom_id, message_id)
        stored = self.messages.get(message_id)
        drawn = payloads.components_of(stored) if stored else []
        component = next((c for c in drawn if c.get("custom_id") == custom_id), None)
        if component is None or component.get("disabled") or self.connection is None:
            interaction.finish(Outcome.REFUSED)
            return interaction
        data = {"custom_id": custom_id, "component_type": component["type"]}
        self._dispatch_interaction(interaction, data, pressed_on=dict(stored or {}))
        return interaction

    def _new_interaction(
        self, kind: int, table: Table, person: Person, custom_id: str | None, message_id: int | None
    ) -> Interaction:
        interaction = Interaction(
            self.snowflake(),
            payloads.interaction_token(),
            kind,
            table,
            person,
            custom_id,
            message_id,
            asyncio.get_running_loop().create_future(),
        )
        self.interactions[interaction.id] = interaction
        self._by_token[interaction.token] = interaction
        return interaction

    def _dispatch_interaction(
        self, interaction: Interaction, data: JSONDict, pressed_on: JSONDict | None = None
    ) -> None:
        assert self.connection is not None, "no bot is connected"
        payload = payloads.interaction(
            interaction.id,
            interaction.token,
            self.world,
            interaction.table,
            interaction.person,
            interaction.kind,
            data,
            pressed_on,
        )
        self._pending.add(interaction)
        interaction.done.add_done_callback(lambda _: self._pending.discard(interaction))
        loop = asyncio.get_running_loop()

        def written() -> None:
            interaction.sent_at = time.perf_counter()
            loop.call_later(INTERACTION_DEADLINE, interaction.finish, Outcome.TIMED_OUT)

        self.connection.dispatch("INTERACTION_CREATE", payload, written)

    # ------------------------------------------------------------------ gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(max_msg_size=0)
        await socket.prepare(request)
        connection = GatewayConnection(socket, compress=request.query.get("compress") == "zlib-stream")
        connection.send({"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        async for frame in socket:
            if frame.type is aiohttp.WSMsgType.TEXT:
                await self._on_gateway(connection, json.loads(frame.data))
        if self.connection is connection:
            self.connection = None
            self.identified.clear()
        await connection.close()
        return socket

    async def _on_gateway(self, connection: GatewayConnection, message: JSONDict) -> None:
        op, data = message.get("op"), message.get("d") or {}
        if op == HEARTBEAT:
            connection.send({"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            if data.get("token") != self.token:
                await connection.socket.close(code=4004, message=b"Authentication failed.")
                return
            connection.intents = int(data.get("intents", 0))
            self.connection = connection
            session_id = secrets.token_hex(16)
            ready = payloads.ready(self.world, session_id, self.url + GATEWAY_PATH, data.get("shard"))
            connection.dispatch("READY", ready)
            if connection.intents & payloads.INTENT_GUILDS:
                for guild_id in self.world.guild_names:
                    guild = payloads.guild_create(self.world, guild_id, connection.intents)
                    connection.dispatch("GUILD_CREATE", guild)
            self.identified.set()
        elif op == RESUME:
            connection.send({"op": INVALID_SESSION, "d": False})

    def _tell_bot(self, event: str, message: JSONDict) -> None:
        """The bot's own guild messages come back over the gateway, as they do from Discord."""
        connection = self.connection
        if connection is not None and connection.intents & payloads.INTENT_GUILD_MESSAGES:
            connection.dispatch(event, dict(message))  # as it is now: it is serialised a moment later

    # ------------------------------------------------------------------ REST

    def _routes(self) -> list[tuple[str, str, Handler]]:
        return [
            ("GET", "/users/@me", self._me),
            ("GET", "/gateway", self._gateway_url),
            ("GET", "/gateway/bot", self._gateway_url),
            ("GET", "/oauth2/applications/@me", self._application),
            ("GET", "/applications/@me", self._application),
            ("GET", "/applications/{app}/emojis", self._list_emojis),
            ("POST", "/applications/{app}/emojis", self._create_emoji),
            ("GET", "/applications/{app}/commands", self._get_commands),
            ("PUT", "/applications/{app}/commands", self._put_commands),
            ("GET", "/applications/{app}/guilds/{guild}/commands", self._get_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self._put_commands),
            ("POST", "/interactions/{interaction}/{token}/callback", self._callback),
            ("POST", "/webhooks/{app}/{token}", self._followup),
            ("GET", "/webhooks/{app}/{token}/messages/{message}", self._webhook_message),
            ("PATCH", "/webhooks/{app}/{token}/messages/{message}", self._webhook_message),
            ("DELETE", "/webhooks/{app}/{token}/messages/{message}", self._webhook_message),
            ("GET", "/channels/{channel}", self._channel),
            ("POST", "/channels/{channel}/messages", self._post_message),
            ("GET", "/channels/{channel}/messages/{message}", self._channel_message),
            ("PATCH", "/channels/{channel}/messages/{message}", self._channel_message),
            ("DELETE", "/channels/{channel}/messages/{message}", self._channel_message),
        ]

    @web.middleware
    async def _observe(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Counts every route (an unknown one is a 404 to implement), checks the bot token, and keeps
        the time of the last request for `settled`."""
        if request.path == GATEWAY_PATH:
            return await handler(request)
        self._in_flight += 1
        self._last_activity = time.monotonic()
        try:
            route = request.match_info.route.resource
            if request.match_info.http_exception is not None or route is None:
                self.unknown_routes[f"{request.method} {re.sub(r'/[0-9]+', '/{id}', request.path)}"] += 1
                return discord_error(404, 0, "404: Not Found")
            name = f"{request.method} {route.canonical.removeprefix(API)}"
            self.requests[name] += 1
            if name in self._for_members and request.headers.get("Authorization", "").startswith("Bearer "):
                return await self._for_members[name](request)
            # Interaction and webhook tokens, and a member's sign-in code (the Activity's: `also`).
            public = request.path.startswith(
                (API + "/interactions/", API + "/webhooks/", API + "/oauth2/token")
            )
            if not public and request.headers.get("Authorization") != f"Bot {self.token}":
                return discord_error(401, 0, "401: Unauthorized")
            return await handler(request)
        finally:
            self._in_flight -= 1
            self._last_activity = time.monotonic()

    async def _me(self, request: web.Request) -> web.Response:
        return json_response(payloads.user(self.world.bot, bot=True))

    async def _gateway_url(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        ws_url = self.url.replace("http://", "ws://") + GATEWAY_PATH
        return json_response({"url": ws_url, "shards": 1, "session_start_limit": limit})

    async def _application(self, request: web.Request) -> web.Response:
        return json_response(payloads.application(self.world))

    async def _list_emojis(self, request: web.Request) -> web.Response:
        return json_response({"items": self.emojis})

    async def _create_emoji(self, request: web.Request) -> web.Response:
        body = await read_body(request)
        emoji = {
            "id": str(self.snowflake()),
            "name": body["name"],
            "roles": [],
            "user": payloads.user(self.world.owner),
            "require_colons": True,
            "managed": False,
            "animated": False,
            "available": True,
        }
        self.emojis.append(emoji)
        return json_response(emoji, status=201)

    def _scope(self, request: web.Request) -> int | None:
        guild = request.match_info.get("guild")
        return int(guild) if guild else None

    async def _get_commands(self, request: web.Request) -> web.Response:
        return json_response(self.commands.get(self._scope(request), []))

    async def _put_commands(self, request: web.Request) -> web.Response:
        """A bulk overwrite: a command keeps its id while its name stays."""
        scope = self._scope(request)
        before = {command["name"]: command["id"] for command in self.commands.get(scope, [])}
        sent = json.loads(await request.read())
        self.commands[scope] = [
            {
                **command,
                "id": before.get(command["name"]) or str(self.snowflake()),
                "application_id": str(self.world.application_id),
                "version": str(self.snowflake()),
                **({"guild_id": str(scope)} if scope else {}),
            }
            for command in sent
        ]
        return json_response(self.commands[scope])

    async def _callback(self, request: web.Request) -> web.Response:
        arrived = time.perf_counter()
        interaction = self.interactions.get(int(request.match_info["interaction"]))
        if (
            interaction is None
            or interaction.token != request.match_info["token"]
            or (interaction.done.done() and interaction.callback_type is None)
        ):
            return discord_error(404, 10062, "Unknown interaction")
        if interaction.callback_type is not None:
            return discord_error(400, 40060, "Interaction has already been acknowledged.")
        body = await read_body(request)
        kind, data = int(body["type"]), body.get("data") or {}
        flags = int(data.get("flags") or 0)
        if kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            flags = (flags & SENT_FLAGS) | (LOADING if kind == DEFERRED_CHANNEL_MESSAGE else 0)
            message_kind = CHAT_INPUT_MESSAGE if interaction.kind == APPLICATION_COMMAND else 0
            created = self._create(interaction.table, data, flags=flags, kind=message_kind, webhook=True)
            interaction.response_message_id = int(created["id"])
            interaction.ephemeral = bool(flags & EPHEMERAL)
        elif kind in (DEFERRED_UPDATE, UPDATE_MESSAGE) and interaction.message_id in self.messages:
            interaction.response_message_id = interaction.message_id
            if kind == UPDATE_MESSAGE:
                self._edit(self.messages[interaction.message_id], data)
        interaction.callback_type, interaction.answered_at = kind, arrived
        interaction.finish(Outcome.ANSWERED)
        if "with_response" not in request.query:
            return web.Response(status=204)
        return json_response(self._callback_answer(interaction))

    def _callback_answer(self, interaction: Interaction) -> JSONDict:
        message = self.messages.get(interaction.response_message_id or 0)
        answer: JSONDict = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.kind,
                "response_message_id": str(message["id"]) if message else None,
                "response_message_loading": bool(message and message["flags"] & LOADING),
                "response_message_ephemeral": interaction.ephemeral,
            }
        }
        if message is not None:
            answer["resource"] = {"type": interaction.callback_type, "message": message}
        return answer

    def _by_webhook(self, request: web.Request) -> Interaction | None:
        return self._by_token.get(request.match_info["token"])

    async def _followup(self, request: web.Request) -> web.Response:
        interaction = self._by_webhook(request)
        if interaction is None:
            return discord_error(404, 10015, "Unknown Webhook")
        body = await read_body(request)
        flags = int(body.get("flags") or 0) & SENT_FLAGS
        created = self._create(interaction.table, body, flags=flags, webhook=True)
        if request.query.get("wait") in ("true", "1", "True"):
            return json_response(created)
        return web.Response(status=204)

    async def _webhook_message(self, request: web.Request) -> web.Response:
        interaction = self._by_webhook(request)
        if interaction is None:
            return discord_error(404, 10015, "Unknown Webhook")
        named = request.match_info["message"]
        message_id = interaction.response_message_id if named == "@original" else int(named)
        return await self._message_verb(request, interaction.table, message_id)

    async def _channel(self, request: web.Request) -> web.Response:
        table = self.tables.get(int(request.match_info["channel"]))
        if table is None:
            return discord_error(404, 10003, "Unknown Channel")
        return json_response(payloads.channel(table))

    async def _post_message(self, request: web.Request) -> web.Response:
        table = self.tables.get(int(request.match_info["channel"]))
        if table is None:
            return discord_error(404, 10003, "Unknown Channel")
        body = await read_body(request)
        return json_response(self._create(table, body, flags=int(body.get("flags") or 0) & SENT_FLAGS))

    async def _channel_message(self, request: web.Request) -> web.Response:
        table = self.tables.get(int(request.match_info["channel"]))
        if table is None:
            return discord_error(404, 10003, "Unknown Channel")
        return await self._message_verb(request, table, int(request.match_info["message"]))

    async def _message_verb(self, request: web.Request, table: Table, message_id: int | None) -> web.Response:
        stored = self.messages.get(message_id or 0)
        if stored is None or int(stored["channel_id"]) != table.channel_id:
            return discord_error(404, 10008, "Unknown Message")
        if request.method == "GET":
            return json_response(stored)
        if request.method == "DELETE":
            del self.messages[int(stored["id"])]
            if not stored["flags"] & EPHEMERAL:
                deleted = {
                    "id": stored["id"],
                    "channel_id": stored["channel_id"],
                    "guild_id": stored["guild_id"],
                }
                self._tell_bot("MESSAGE_DELETE", deleted)
            return web.Response(status=204)
        stored["flags"] &= ~LOADING
        self._edit(stored, await read_body(request))
        return json_response(stored)

    # ------------------------------------------------------------------ the message store

    def _create(
        self, table: Table, body: JSONDict, *, flags: int = 0, kind: int = 0, webhook: bool = False
    ) -> JSONDict:
        stored = payloads.message(
            self.snowflake(),
            table,
            self.world.bot,
            body,
            flags=flags,
            kind=kind,
            application_id=self.world.application_id if webhook else None,
        )
        self.messages[int(stored["id"])] = stored
        if not flags & EPHEMERAL:
            self._tell_bot("MESSAGE_CREATE", stored)
        return stored

    def _edit(self, stored: JSONDict, body: JSONDict) -> None:
        payloads.edit(stored, body)
        if not stored["flags"] & EPHEMERAL:
            self._tell_bot("MESSAGE_UPDATE", stored)
