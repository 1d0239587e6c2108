"""Every use of SimCord internals by `make play`, in one place (tests/test_play_bridge.py pins them).

SimCord's public Preview serves a page and runs the bot's callbacks, but two things a live table needs
have no public door in SimCord 3.2.1:
- SimCord fires a bot's sleeps at their wall-clock time in a background task of its own, and a page
  action that starts while that task still runs fails if it outlasts the action's short wait:
  `background_work_done` lets whoever holds the gate wait for it first;
- a page action and the real-time driver (`env.advance_time`, `preview.refresh`) are both SimCord
  "operations", and two operations may not overlap: the page's action handler is wrapped so it waits
  for the driver's turn instead of failing;
- SimCord keeps no image of an uploaded application emoji: the page gets the die faces as offline
  assets at the address SimCord's page asks for (`emoji_url`);
- every interaction SimCord sends says its member's client is `en-US`: the payload builder is wrapped
  so members read the language chosen with `--lang`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

import simcord
import simcord.interactions
from simcord.backend.cdn import CDN_BASE
from simcord.preview import Preview


def emoji_url(emoji_id: int) -> str:
    """Where the page looks for a (still) application emoji's image."""
    return f"{CDN_BASE}/emojis/{emoji_id}.png"


async def background_work_done(env: simcord.Env) -> None:
    """Wait for the bot work SimCord started on its own when a sleep came due in wall-clock time."""
    running = env._real_advance_task
    if running is not None and not running.done():
        await asyncio.wait((running,))


def gate_page_actions(preview: Preview, gate: asyncio.Lock) -> None:
    """Run each action the page sends while holding `gate`, the lock the real-time driver holds too,
    once SimCord's own background work is done."""
    handle = preview._action

    async def gated(context_id: Any, body: Any) -> Any:
        async with gate:
            await background_work_done(preview.env)
            return await handle(context_id, body)

    preview._action = gated  # type: ignore[method-assign]


@contextlib.contextmanager
def speak_client_locale(locale: str) -> Iterator[None]:
    """Interactions carry `locale` (the member's client) and `guild_locale` (the server's) like Discord's,
    while the world is open (the builder is SimCord's, shared by every world of the process)."""
    build = simcord.interactions.base_payload

    def with_locale(backend: Any, **fields: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = build(backend, **fields)
        payload["locale"] = locale
        if fields.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(fields["guild_id"]).preferred_locale or locale
        return record, payload

    simcord.interactions.base_payload = with_locale
    try:
        yield
    finally:
        simcord.interactions.base_payload = build
