"""Nothing secret reaches the log output, whatever discord.py logs at DEBUG."""

import json
import logging
from collections.abc import Iterator
from types import TracebackType
from typing import Any

import pytest
from discord.gateway import DiscordWebSocket
from discord.webhook.async_ import AsyncWebhookAdapter, Route

from bot.app.logs import setup_logging

TOKEN = "MTA" + "x" * 21 + ".GAbcde." + "y" * 30
INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OmZha2UtdG9rZW4"
APP_ID = 123456789012345678


@pytest.fixture
def debug_logging(capsys: pytest.CaptureFixture[str]) -> Iterator[None]:
    """The bot's own logging set-up at LOG_LEVEL=DEBUG (writing to the captured stderr), put back after."""
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    setup_logging("DEBUG", secret=TOKEN)
    yield
    root.handlers[:], root.level = saved[0], saved[1]


def test_the_token_never_reaches_the_log_output(
    debug_logging: None, capsys: pytest.CaptureFixture[str]
) -> None:
    logging.getLogger("discord.http").info("login with %s failed", TOKEN)
    logging.getLogger("bot").warning(f"header Authorization: Bot {TOKEN}")
    output = capsys.readouterr().err
    assert TOKEN not in output
    assert output.count("[token]") == 2


class _Response:
    def __init__(self) -> None:
        self.status, self.headers = 204, dict[str, str]()

    async def text(self, encoding: str = "utf-8") -> str:
        return ""

    async def __aenter__(self) -> "_Response":
        return self

    async def __aexit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        return None


class _Session:
    """Just enough of aiohttp's session for discord.py's webhook adapter to make one request."""

    def request(self, *args: Any, **kwargs: Any) -> _Response:
        return _Response()


async def test_webhook_urls_in_discord_logs_lose_their_token(
    debug_logging: None, capsys: pytest.CaptureFixture[str]
) -> None:
    for path in (
        "/webhooks/{webhook_id}/{webhook_token}",
        "/interactions/{webhook_id}/{webhook_token}/callback",
    ):
        route = Route("POST", path, webhook_id=APP_ID, webhook_token=INTERACTION_TOKEN)
        await AsyncWebhookAdapter().request(route, _Session(), payload={"type": 6})  # type: ignore[arg-type]
    output = capsys.readouterr().err
    assert INTERACTION_TOKEN not in output
    assert f"/webhooks/{APP_ID}/[token]" in output
    assert f"/interactions/{APP_ID}/[token]/callback" in output


async def test_gateway_payloads_in_discord_logs_lose_their_token(
    debug_logging: None, capsys: pytest.CaptureFixture[str]
) -> None:
    socket = DiscordWebSocket.__new__(DiscordWebSocket)  # only what receiving one event reads
    socket.shard_id, socket.sequence, socket._keep_alive = None, None, None
    socket._dispatch, socket._discord_parsers, socket._dispatch_listeners = (lambda *_: None), {}, []
    event = {"op": 0, "t": "INTERACTION_CREATE", "s": 7, "d": {"id": "1", "token": INTERACTION_TOKEN}}
    await socket.received_message(json.dumps(event))
    output = capsys.readouterr().err
    assert "WebSocket Event" in output
    assert INTERACTION_TOKEN not in output
    assert "'token': '[token]'" in output
