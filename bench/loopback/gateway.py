"""One bot's gateway connection: zlib-stream frames, sequence numbers, and an outbox written in batches.

Everything the server sends goes through the outbox, in order, through one zlib stream (as Discord
compresses when discord.py asks for `compress=zlib-stream`). Frames queued together are serialised first
and then written back to back, so a burst of interactions leaves at one instant; `on_written` stamps
each frame just before its bytes go to the socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import zlib
from collections import deque
from collections.abc import Callable

from aiohttp import web

from .payloads import JSONDict

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 0, 1, 2, 6, 9, 10, 11
HEARTBEAT_INTERVAL_MS = 41_250

OnWritten = Callable[[], None]


class GatewayConnection:
    def __init__(self, socket: web.WebSocketResponse, *, compress: bool) -> None:
        self.socket = socket
        self.intents = 0
        self.sequence = 0
        self.last_write = time.monotonic()
        self._zlib = zlib.compressobj() if compress else None
        self._outbox: deque[tuple[JSONDict, OnWritten | None]] = deque()
        self._ready = asyncio.Event()
        self._writer = asyncio.create_task(self._write_forever(), name="loopback-gateway-writer")

    def dispatch(self, event: str, data: JSONDict, on_written: OnWritten | None = None) -> None:
        self.send({"op": DISPATCH, "t": event, "d": data}, on_written)

    @property
    def busy(self) -> bool:
        return bool(self._outbox)

    def send(self, payload: JSONDict, on_written: OnWritten | None = None) -> None:
        self._outbox.append((payload, on_written))
        self._ready.set()

    async def close(self) -> None:
        self._writer.cancel()
        await asyncio.gather(self._writer, return_exceptions=True)
        await self.socket.close()

    async def _write_forever(self) -> None:
        """Until the bot goes away: a killed bot closes the socket under a write, which ends this."""
        with contextlib.suppress(ConnectionResetError):
            await self._write_batches()

    async def _write_batches(self) -> None:
        while not self.socket.closed:
            await self._ready.wait()
            self._ready.clear()
            batch = [(self._frame(payload), on_written) for payload, on_written in self._outbox]
            self._outbox.clear()
            for frame, on_written in batch:
                if on_written is not None:
                    on_written()
                if isinstance(frame, bytes):
                    await self.socket.send_bytes(frame)
                else:
                    await self.socket.send_str(frame)
            self.last_write = time.monotonic()

    def _frame(self, payload: JSONDict) -> bytes | str:
        if payload["op"] == DISPATCH:
            self.sequence += 1
            payload = {**payload, "s": self.sequence}
        else:
            payload = {**payload, "s": None, "t": None}
        text = json.dumps(payload, separators=(",", ":"))
        if self._zlib is None:
            return text
        return self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
