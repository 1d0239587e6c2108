"""Every use of SimCord internals by `make play`, in one place (tests/test_play_bridge.py pins them).

SimCord's public Preview serves a page and runs the bot's callbacks, but two things a live table needs
have no public door in SimCord 3.2.1:
- SimCord fires a bot's sleeps at their wall-clock time too, and counts a sleep due before its settle
  deadline as work to wait for: a press waited for the computers' whole turns, 1 s pause after 1 s pause
  (Bank took 5-30 s). `timers_follow_the_driver` drops that wall-clock fallback, so the bot's timers fire
  only when `make play`'s driver moves the clock (it follows the wall clock), and a press returns as soon
  as the bot answered it; `background_work_done` waits for a fallback already running;
- a page action and the real-time driver (`env.advance_time`, `preview.refresh`) are both SimCord
  "operations", and two operations may not overlap: the page's action handler is wrapped so it waits
  for the driver's turn instead of failing;
- the page sends each press with the revision it last read, and SimCord refuses a press made before any
  later publication ("stale revision"), even one that left the pressed message as it was (a ping posted
  below the board, a computer's turn in another message): a quick tap was lost that way. Discord refuses
  only a press whose message changed under it, so the wrapper rebases a press whose message is the same
  at the page's revision as now (`rebase_unchanged_press`);
- SimCord names its bot user "TestBot" and starts its clock on 2026-01-01 (`introduce_bot`);
- SimCord keeps no image of an uploaded application emoji: the page gets the die faces as offline
  assets at the address SimCord's page asks for (`emoji_url`);
- every interaction SimCord sends says its member's client is `en-US`: the payload builder is wrapped
  so members read the language chosen with `--lang`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

import simcord
import simcord.interactions
from simcord.backend.cdn import CDN_BASE
from simcord.preview import Preview


def introduce_bot(env: simcord.Env, name: str, avatar: str, starting: datetime) -> None:
    """Before the world starts: the bot's user is `name` with the `avatar` image (SimCord names every
    bot "TestBot"), and the world's clock starts at `starting` (SimCord's starts on 2026-01-01, so a
    daily and its streaks could not be tried on today's date)."""
    env.backend.bot_user.name = name
    env.backend.bot_user.avatar = avatar
    env.backend.clock._epoch = starting


def avatar_url(env: simcord.Env, avatar: str) -> str:
    """Where the page looks for the bot's avatar image."""
    return f"{CDN_BASE}/avatars/{env.backend.bot_user.id}/{avatar}.png"


def emoji_url(emoji_id: int) -> str:
    """Where the page looks for a (still) application emoji's image."""
    return f"{CDN_BASE}/emojis/{emoji_id}.png"


def timers_follow_the_driver(env: simcord.Env) -> None:
    """Before the world starts: the bot's timers fire only through `env.advance_time`, never on their
    own at their wall-clock time (SimCord then counts them as parked, not as work to wait for)."""
    schedule = env._schedule_timer

    def virtual_only(record: Any, callback: Any, args: Any, context: Any) -> None:
        schedule(record, callback, args, context)
        if record.real_handle is not None:
            record.real_handle.cancel()
            record.real_handle = None

    env._schedule_timer = virtual_only  # type: ignore[method-assign]


async def background_work_done(env: simcord.Env) -> None:
    """Wait for the bot work SimCord started on its own when a sleep came due in wall-clock time."""
    running = env._real_advance_task
    if running is not None and not running.done():
        await asyncio.wait((running,))


def gate_page_actions(preview: Preview, gate: asyncio.Lock, after: Callable[[], None]) -> None:
    """Run each action the page sends while holding `gate`, the lock the real-time driver holds too,
    once SimCord's own background work is done; `after` runs once the action is published."""
    handle = preview._action
    drawn = remember_drawings(preview)

    async def gated(context_id: Any, body: Any) -> Any:
        async with gate:
            await background_work_done(preview.env)
            answer = await handle(context_id, rebase_unchanged_press(preview, drawn, context_id, body))
            after()
            return answer

    preview._action = gated  # type: ignore[method-assign]


Drawings = dict[str, dict[int, dict[int, str]]]  # page id → revision → message id → its components


def drawings(preview: Preview, channel_id: int) -> dict[int, str]:
    return {
        message.id: repr(message.components)
        for message in preview.env.backend.messages.get(channel_id, {}).values()
    }


def remember_drawings(preview: Preview, kept: int = 64) -> Drawings:
    """What each of the page's last `kept` publications drew, message by message."""
    drawn: Drawings = {}
    publish = preview._publish

    def recorded(page: Any, **reason: Any) -> None:
        publish(page, **reason)
        revisions = drawn.setdefault(page.id, {})
        revisions[page.revision] = drawings(preview, page.channel_id)
        for old in [revision for revision in revisions if revision <= page.revision - kept]:
            del revisions[old]

    preview._publish = recorded  # type: ignore[method-assign]
    return drawn


def rebase_unchanged_press(preview: Preview, drawn: Drawings, context_id: Any, body: Any) -> Any:
    """The press as of the page's current revision when its message is drawn now as the page saw it; any
    other action (a command, the page's own view) always: it presses no drawing, and the page is
    republished every second."""
    if not isinstance(body, dict):
        return body
    page = preview._pages.get(context_id) if isinstance(context_id, str) else None
    seen, target, kind = body.get("published_revision"), body.get("target_id"), body.get("kind")
    if page is None or not isinstance(seen, int) or seen == page.revision:
        return body
    if kind not in {"click", "select"}:  # a command, a view of the page: no drawing was pressed
        return {**body, "published_revision": page.revision}
    if not str(target).isdigit():
        return body
    then = drawn.get(page.id, {}).get(seen, {}).get(int(target))
    if then is None or then != drawings(preview, page.channel_id).get(int(target)):
        return body
    return {**body, "published_revision": page.revision}


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
