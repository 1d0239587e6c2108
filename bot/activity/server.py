"""The Activity's web server, inside the bot's process (an aiohttp application on `ACTIVITY_PORT`): the
page's built files and the API the page plays through (docs/ACTIVITY.md is the contract).

Who is asking is what Discord says: the page's bearer token names a member (`GET /users/@me`), and the
activity instance in the path must list them (`GET .../activity-instances/{id}`, with the bot's token);
the instance's channel names the game. Every refusal is one line in the member's language.
"""

from __future__ import annotations

import json
import logging
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from bot.activity.discord_api import DiscordApi, Instance, Member
from bot.activity.live import LiveTables, Watcher
from bot.activity.moves import Moves
from bot.core.environment import Settings
from bot.engine.messages import Message
from bot.render.language import Translator
from bot.services.i18n import language_of, translator
from bot.services.server_settings import ConfigService
from bot.sessions.manager import SessionManager

log = logging.getLogger(__name__)

PAGE = Path(str(resources.files("bot") / "assets" / "activity"))
INSTANCE_ID = r"[A-Za-z0-9_.:-]{1,100}"
HEARTBEAT = 30.0  # seconds between the socket's pings; a page that misses one is closed
SIGN_IN_SECONDS = 10.0  # a socket that sends no token within this long is closed
MOST_BODY = 16 * 1024
SIGN_IN_AGAIN = Message("Sign in again: Discord did not recognise this session.")
BAD_CODE = Message("Discord refused this sign-in code: open the Activity again.")
NOT_IN_INSTANCE = Message("You are not in this Activity.")
BAD_REQUEST = Message("The Activity sent a request the bot does not understand.")


class Refused(Exception):
    """An API request refused with `status` and one line."""

    def __init__(self, status: int, said: str) -> None:
        super().__init__(said)
        self.status = status
        self.said = said


def _reader(request: web.Request, member: Member | None = None) -> Translator:
    """The member's language (their Discord client's), else the browser's first one."""
    locale = member.locale if member is not None and member.locale else None
    if locale is None:
        locale = request.headers.get("Accept-Language", "").split(",")[0].split(";")[0].strip()
    return translator(language_of(locale))


class ActivityServer:
    def __init__(self, api: DiscordApi, moves: Moves) -> None:
        self.api = api
        self.moves = moves
        self.live = LiveTables()
        self._runner: web.AppRunner | None = None

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MOST_BODY, middlewares=[self._refusals])
        app.router.add_get("/api/config", self._config)
        app.router.add_post("/api/token", self._token)
        base = f"/api/instances/{{instance_id:{INSTANCE_ID}}}"
        app.router.add_get(base, self._table)
        app.router.add_post(base + "/actions", self._action)
        app.router.add_get(base + "/live", self._live)
        app.router.add_get("/", self._index)
        if (PAGE / "assets").is_dir():
            app.router.add_static("/assets", PAGE / "assets")  # hashed names: cached for good
        return app

    async def start(self, host: str, port: int) -> None:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        log.info("The Activity listens on %s:%d", host, port)

    async def close(self) -> None:
        await self.live.close()
        if self._runner is not None:
            await self._runner.cleanup()
        await self.api.close()

    @web.middleware
    async def _refusals(self, request: web.Request, handler: Any) -> web.StreamResponse:
        try:
            response: web.StreamResponse = await handler(request)
        except Refused as refused:
            return web.json_response({"error": refused.said}, status=refused.status)
        return response

    async def _index(self, request: web.Request) -> web.StreamResponse:
        index = PAGE / "index.html"
        if not index.is_file():
            return web.Response(status=503, text="The Activity's page is not built (see docs/ACTIVITY.md).")
        return web.FileResponse(index, headers={"Cache-Control": "no-cache"})

    async def _config(self, request: web.Request) -> web.Response:
        """What the page needs before signing in: the app's id, for the SDK."""
        return web.json_response({"client_id": str(self.api.application_id)})

    async def _token(self, request: web.Request) -> web.Response:
        code = (await _json(request)).get("code")
        token = await self.api.exchange(code) if isinstance(code, str) and code else None
        if token is None:
            raise Refused(401, _reader(request).say(BAD_CODE))
        return web.json_response({"access_token": token})

    async def _table(self, request: web.Request) -> web.Response:
        member, instance, tr = await self._signed_in(request, _bearer(request))
        return web.json_response({"table": self.moves.table_for(member, instance, tr)})

    async def _action(self, request: web.Request) -> web.Response:
        member, instance, tr = await self._signed_in(request, _bearer(request))
        body = await _json(request)
        action = body.get("action")
        if not isinstance(action, str):
            raise Refused(400, tr.say(BAD_REQUEST))
        reply = await self.moves.play(member, instance, tr, action, body.get("arg"), body.get("version"))
        return web.json_response(reply.body(), status=reply.status)

    async def _live(self, request: web.Request) -> web.WebSocketResponse:
        """The socket signs in with its first message (`{"token"}`: a browser's socket sends no header),
        then receives the table now and at every change of the channel's game."""
        socket = web.WebSocketResponse(heartbeat=HEARTBEAT)
        await socket.prepare(request)
        try:
            first = await socket.receive(timeout=SIGN_IN_SECONDS)
            token = json.loads(first.data).get("token") if first.type is WSMsgType.TEXT else None
            member, instance, tr = await self._signed_in(request, token if isinstance(token, str) else None)
        except (Refused, ValueError, AttributeError, TimeoutError) as refused:
            said = refused.said if isinstance(refused, Refused) else _reader(request).say(BAD_REQUEST)
            await socket.send_json({"error": said})
            await socket.close()
            return socket
        watcher = Watcher(socket, member, tr)
        self.live.watch(instance.channel_id, watcher)
        try:
            await socket.send_json({"table": self.moves.table_for(member, instance, tr)})
            async for _ in socket:  # the page says nothing more; its moves come by POST
                pass
        finally:
            self.live.leave(instance.channel_id, watcher)
        return socket

    async def _signed_in(
        self, request: web.Request, token: str | None
    ) -> tuple[Member, Instance, Translator]:
        member = await self.api.member(token) if token else None
        if member is None:
            raise Refused(401, _reader(request).say(SIGN_IN_AGAIN))
        tr = _reader(request, member)
        instance = await self.api.instance(request.match_info["instance_id"], member.id)
        if instance is None or member.id not in instance.users:
            raise Refused(403, tr.say(NOT_IN_INSTANCE))
        return member, instance, tr


def _bearer(request: web.Request) -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() or None if scheme == "Bearer" else None


async def _json(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        raise Refused(400, _reader(request).say(BAD_REQUEST)) from None
    if not isinstance(body, dict):
        raise Refused(400, _reader(request).say(BAD_REQUEST))
    return body


async def open_activity(
    settings: Settings, application_id: int, bot_token: str, manager: SessionManager, config: ConfigService
) -> ActivityServer:
    """The Activity's server, listening; `bot.app.wiring.subscribe_view` subscribes its live tables."""
    assert settings.activity_port is not None and settings.discord_client_secret is not None
    api = DiscordApi(application_id, settings.discord_client_secret.get_secret_value(), bot_token)
    server = ActivityServer(api, Moves(manager, config))
    await server.start(settings.activity_host, settings.activity_port)
    return server
