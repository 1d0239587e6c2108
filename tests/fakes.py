"""The tests' one clock and their in-memory stores, each written once: a test that needs time or a store
without a database takes it from here (SimCord tests run on SimCord's own clock instead)."""

from __future__ import annotations

import asyncio
from collections.abc import Collection

from bot.core.records import GameRecord, ReviewRow, SessionConflict, SessionRow, StoredSession
from bot.storage.boards import BoardMark, BoardRow

START = 1_767_225_600.0  # 2026-01-01 00:00 UTC


class FakeClock:
    """Time stands still until the test moves it with `advance`; a sleeper wakes on each move and sleeps
    on until its deadline has come."""

    def __init__(self, start: float = START) -> None:
        self._now = start
        self._tick = asyncio.Event()

    def now(self) -> float:
        return self._now

    async def sleep_until(self, deadline: float) -> None:
        while self._now < deadline:
            await self._tick.wait()

    async def advance(self, seconds: float) -> None:
        """Move time on, then let every sleeper it woke run to its next wait."""
        self._now += seconds
        tick, self._tick = self._tick, asyncio.Event()
        tick.set()
        await settle()


async def settle() -> None:
    """Let woken tasks run to their next wait (each step is a handful of awaits)."""
    for _ in range(100):
        await asyncio.sleep(0)


class MemorySessions:
    """Sessions as the JSON a real store would keep, each write a compare-and-set on the row's revision;
    `failures` makes the next writes raise."""

    def __init__(self, guild_id: int = 1) -> None:
        self.guild_id = guild_id
        self.rows: dict[int, str] = {}
        self.revisions: dict[int, int] = {}
        self.archived: dict[str, GameRecord] = {}
        self.announced: set[str] = set()
        self.failures = 0

    async def save(self, row: SessionRow, finished: GameRecord | None = None) -> int:
        await asyncio.sleep(0)  # a real store gives the event loop a turn while it writes
        self._maybe_fail()
        if self.revisions.get(row.channel_id) != row.revision:
            raise SessionConflict("moved on")
        self.rows[row.channel_id] = row.state
        self.revisions[row.channel_id] = (row.revision or 0) + 1
        if finished is not None:
            self.archived.setdefault(finished.game_id, finished)
        return self.revisions[row.channel_id]

    async def delete(self, channel_id: int, revision: int | None) -> None:
        await asyncio.sleep(0)
        self._maybe_fail()
        if self.revisions.get(channel_id) != revision:
            raise SessionConflict("moved on")
        self.rows.pop(channel_id, None)
        self.revisions.pop(channel_id, None)

    async def load_all(self) -> list[StoredSession]:
        return [stored for channel in sorted(self.rows) if (stored := await self.load(channel))]

    async def load(self, channel_id: int) -> StoredSession | None:
        if channel_id not in self.rows:
            return None
        return StoredSession(
            channel_id, self.guild_id, self.rows[channel_id], self.revisions.get(channel_id, 0)
        )

    async def unannounced(self) -> list[GameRecord]:
        return [record for game_id, record in self.archived.items() if game_id not in self.announced]

    async def mark_announced(self, game_ids: list[str]) -> None:
        self.announced.update(game_ids)

    def _maybe_fail(self) -> None:
        if self.failures:
            self.failures -= 1
            raise OSError("disk I/O error")


class MemoryReviews:
    """The review store in memory: what was saved, and how often; `unreviewed` are games a crash left
    without a review."""

    def __init__(self, *unreviewed: GameRecord) -> None:
        self.rows: dict[str, ReviewRow] = {}
        self.saves = 0
        self.missed = list(unreviewed)

    async def load(self, game_id: str) -> str | None:
        row = self.rows.get(game_id)
        return row.review_json if row else None

    async def save(self, row: ReviewRow) -> None:
        self.saves += 1
        self.rows.setdefault(row.game_id, row)

    async def unreviewed(self, since: float) -> list[GameRecord]:
        return [game for game in self.missed if game.ended_at >= since and game.game_id not in self.rows]


class MemoryWinTables:
    """Solved win tables in memory, by table key."""

    def __init__(self) -> None:
        self.saved: dict[str, bytes] = {}

    async def load(self, table_key: str) -> bytes | None:
        return self.saved.get(table_key)

    async def save(self, table_key: str, tables: bytes) -> None:
        self.saved[table_key] = tables


class MemoryBoards:
    """The board ledger's store in memory, keeping each batch of marks it was written."""

    def __init__(self) -> None:
        self.rows: dict[tuple[str, int, str], BoardRow] = {}
        self.writes: list[list[BoardMark]] = []

    async def attach(self, row: BoardRow) -> None:
        self.rows[row.game_id, row.channel_id, row.role] = row

    async def write_marks(self, marks: list[BoardMark]) -> None:
        self.writes.append(marks)
        await asyncio.sleep(0)  # a real write gives the loop a turn

    async def load(self, game_ids: Collection[str]) -> list[BoardRow]:
        return [row for row in self.rows.values() if row.game_id in game_ids]

    async def forget(self, game_id: str, channel_id: int | None = None, role: str = "follow") -> None:
        self.rows = {key: row for key, row in self.rows.items() if key[0] != game_id}
