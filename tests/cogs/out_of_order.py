"""A double for Discord's unordered answers: separate answers sent a millisecond apart can be applied in
either order (SimCord applies each at once, in the order sent).

`OutOfOrderAnswers(monkeypatch, burst=3)` holds every answer that edits the pressed message until
`burst` of them are waiting, then applies them newest first, each answer's request returning once it
is applied, as real Discord's do. Once released, answers go through at once again.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from simcord.http.client import FakeWebhookAdapter

UPDATE_MESSAGE = 7  # the interaction callback type that edits the message pressed


class OutOfOrderAnswers:
    def __init__(self, monkeypatch: pytest.MonkeyPatch, burst: int) -> None:
        self._burst = burst
        self._held: list[tuple[asyncio.Future[None], asyncio.Future[None]]] = []
        self.applied = 0
        self._releasing: asyncio.Task[None] | None = None
        original = FakeWebhookAdapter.request
        double = self

        async def request(adapter: FakeWebhookAdapter, route: Any, session: Any, **kwargs: Any) -> Any:
            payload = kwargs.get("payload") or {}
            is_answer = route.method == "POST" and route.url.endswith("/callback")
            if not (is_answer and payload.get("type") == UPDATE_MESSAGE and double._burst):
                return await original(adapter, route, session, **kwargs)
            loop = asyncio.get_running_loop()
            gate, landed = loop.create_future(), loop.create_future()
            double._held.append((gate, landed))
            if len(double._held) == double._burst:
                double._burst = 0
                double._releasing = loop.create_task(double._release())
            await gate
            try:
                return await original(adapter, route, session, **kwargs)
            finally:
                double.applied += 1
                landed.set_result(None)

        monkeypatch.setattr(FakeWebhookAdapter, "request", request)

    async def _release(self) -> None:
        held, self._held = self._held, []
        for gate, landed in reversed(held):
            gate.set_result(None)
            await landed
