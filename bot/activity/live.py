"""The Activity's live tables: each open page's socket is a subscriber of the game-events stream, like the
chat board, and is sent the table each time its channel's game changes, whatever changed it (a press on
the chat board, a move from another page, a timer, a computer)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from dataclasses import dataclass

from aiohttp import web

from bot.activity.discord_api import Member
from bot.render.activity import table
from bot.render.language import Translator
from bot.sessions.stream_events import GameChanged, GameEvent

log = logging.getLogger(__name__)

# A page that takes longer than this to take one table is dropped (it reconnects and reads the table):
# the stream waits for its subscribers, and one slow phone must not hold up every board.
SEND_SECONDS = 1.0


@dataclass(eq=False)
class Watcher:
    socket: web.WebSocketResponse
    member: Member
    tr: Translator


class LiveTables:
    def __init__(self) -> None:
        self._watching: defaultdict[int, set[Watcher]] = defaultdict(set)  # by channel id

    def watch(self, channel_id: int, watcher: Watcher) -> None:
        self._watching[channel_id].add(watcher)

    def leave(self, channel_id: int, watcher: Watcher) -> None:
        watchers = self._watching.get(channel_id)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self._watching[channel_id]

    async def on_game_event(self, event: GameEvent) -> None:
        """The stream's subscriber: every page open on the changed game's channel gets its table."""
        if not isinstance(event, GameChanged) or event.outcome.snapshot is None:
            return
        snapshot = event.outcome.snapshot
        watchers = list(self._watching.get(snapshot.channel_id, ()))
        sends = [self._send(w, table(snapshot, w.member.id, w.tr), snapshot.channel_id) for w in watchers]
        await asyncio.gather(*sends)

    async def _send(self, watcher: Watcher, drawn: dict[str, object], channel_id: int) -> None:
        try:
            await asyncio.wait_for(watcher.socket.send_json({"table": drawn}), SEND_SECONDS)
        except (ConnectionError, RuntimeError, TimeoutError) as error:
            log.info("Dropped a page watching channel %s: %s", channel_id, error)
            self.leave(channel_id, watcher)
            with contextlib.suppress(Exception):
                await watcher.socket.close()

    async def close(self) -> None:
        for watchers in list(self._watching.values()):
            for watcher in list(watchers):
                with contextlib.suppress(Exception):
                    await watcher.socket.close()
        self._watching.clear()
