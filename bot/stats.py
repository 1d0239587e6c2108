"""Members' results as the `/farkle` statistics commands need them: the cogs never hold the database.

Reads go to the read-only connection (a long leaderboard query never waits behind a game's commit);
privacy deletions and resets are one transaction each on the writer.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.clock import Clock
from bot.engine import Game
from bot.records import GameSummary, Metric, Period, Ranked, StatsRow
from bot.render.stats import PAGE_SIZE
from bot.sessions.archive import replay
from bot.storage import results, transaction


@dataclass(frozen=True)
class Standings:
    metric: Metric
    period: Period
    page: int
    rows: list[Ranked]
    total: int
    mine: Ranked | None  # the asking member's own line, wherever they rank


@dataclass(frozen=True)
class Replayed:
    game: Game
    names: dict[str, str]  # engine player id -> name as archived


class StatsService:
    def __init__(
        self, writer: aiosqlite.Connection, reader: aiosqlite.Connection, clock: Clock, min_games: int
    ) -> None:
        self._writer = writer
        self._reader = reader
        self._clock = clock
        self._min_games = min_games  # for the win-rate board

    async def leaderboard(
        self, guild_id: int, user_id: int, metric: Metric, period: Period, page: int
    ) -> Standings:
        now, min_games, writer = self._clock.now(), self._min_games, self._writer
        rows, total = await results.leaderboard(
            self._reader,
            guild_id,
            metric,
            period,
            now=now,
            offset=page * PAGE_SIZE,
            limit=PAGE_SIZE,
            min_games=min_games,
            writer=writer,
        )
        mine = await results.rank_of(
            self._reader, guild_id, user_id, metric, period, now=now, min_games=min_games, writer=writer
        )
        return Standings(metric, period, page, rows, total, mine)

    async def member(self, guild_id: int, user_id: int) -> StatsRow | None:
        return await results.member_stats(self._reader, guild_id, user_id)

    async def history(self, guild_id: int, channel_id: int | None) -> list[GameSummary]:
        return await results.recent_games(self._reader, guild_id, channel_id)

    async def replay(self, guild_id: int, game_id: str) -> Replayed | None:
        archived = await results.archived_game(self._reader, guild_id, game_id.strip().lower())
        if archived is None:
            return None
        seats = [(user_id, team) for user_id, _, team in archived.seats]
        game = replay(archived.rules_json, archived.dice_start_json, archived.actions_json, seats)
        return Replayed(game, {str(user_id): name for user_id, name, _ in archived.seats})

    async def forget(self, user_id: int) -> None:
        async with transaction(self._writer):
            await results.forget_member(self._writer, user_id)

    async def reset(self, guild_id: int) -> None:
        async with transaction(self._writer):
            await results.reset_leaderboard(self._writer, guild_id, self._clock.now())
