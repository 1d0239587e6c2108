"""Members' results as the `/farkle` statistics commands need them: the cogs never hold the database.

Reads go to the database's readers (a long leaderboard query never waits behind a game's commit);
privacy deletions and resets are one transaction each.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from sqlalchemy.engine import Connection

from bot.clock import Clock
from bot.engine import Game
from bot.engine.review import GameReview
from bot.records import GameSummary, Metric, Period, Ranked, StatsRow
from bot.render.stats import PAGE_SIZE
from bot.sessions.archive import replay
from bot.sessions.review import GameReviews, Played
from bot.storage import Database, recent, results, reviews


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
    review: GameReview | None = None  # its review, when asked for


@dataclass(frozen=True)
class MemberStats:
    row: StatsRow | None
    accuracy: tuple[float, int] | None  # average over the last reviewed games, and how many


class StatsService:
    def __init__(self, db: Database, clock: Clock, min_games: int, reviews: GameReviews) -> None:
        self._db = db
        self._clock = clock
        self._min_games = min_games  # for the win-rate and accuracy boards
        self._reviews = reviews

    async def leaderboard(
        self, guild_id: int, user_id: int, metric: Metric, period: Period, page: int
    ) -> Standings:
        if period == "30d":
            await recent.refresh(self._db, guild_id, self._clock.now())
        min_games = self._min_games

        def read(connection: Connection) -> Standings:
            rows, total = results.leaderboard(
                connection,
                guild_id,
                metric,
                period,
                offset=page * PAGE_SIZE,
                limit=PAGE_SIZE,
                min_games=min_games,
            )
            mine = results.rank_of(connection, guild_id, user_id, metric, period, min_games=min_games)
            return Standings(metric, period, page, rows, total, mine)

        return await self._db.read(read)

    async def member(self, guild_id: int, user_id: int) -> MemberStats:
        def read(connection: Connection) -> MemberStats:
            row = results.member_stats(connection, guild_id, user_id)
            return MemberStats(row, reviews.recent_accuracy(connection, guild_id, user_id))

        return await self._db.read(read)

    async def game_accuracy(self, game_id: str) -> dict[int, float | None]:
        """Each seat's review accuracy (0..1) by user id; empty until the game is reviewed."""
        return await self._db.read(partial(reviews.game_accuracy, game_id=game_id))

    async def overall(self, user_id: int) -> StatsRow | None:
        """A member's numbers over every server and conversation they played in."""
        return await self._db.read(partial(results.member_overall, user_id=user_id))

    async def history(self, guild_id: int, channel_id: int | None) -> list[GameSummary]:
        return await self._db.read(partial(results.recent_games, guild_id=guild_id, channel_id=channel_id))

    async def played(self, guild_id: int, user_id: int, limit: int = 25) -> list[GameSummary]:
        """The member's newest finished games in this server: what `replay` and `review` offer."""
        return await self._db.read(
            partial(results.recent_games, guild_id=guild_id, limit=limit, user_id=user_id)
        )

    async def replay(self, guild_id: int, game_id: str, *, reviewed: bool = False) -> Replayed | None:
        """A finished game of this server rebuilt move by move, with its review if `reviewed`."""
        game_id = game_id.strip().lower()
        archived = await self._db.read(partial(results.archived_game, guild_id=guild_id, game_id=game_id))
        if archived is None:
            return None
        seats = tuple((user_id, team) for user_id, _, team in archived.seats)
        game = replay(archived.rules_json, archived.dice_start_json, archived.actions_json, seats)
        names = {str(user_id): name for user_id, name, _ in archived.seats}
        if not reviewed:
            return Replayed(game, names)
        played = Played(
            game_id,
            guild_id,
            archived.ended_at,
            archived.rules_json,
            archived.dice_start_json,
            archived.actions_json,
            seats,
        )
        return Replayed(game, names, await self._reviews.review(played))

    async def forget(self, user_id: int) -> None:
        await self._db.write(partial(results.forget_member, user_id=user_id))

    async def reset(self, guild_id: int) -> None:
        await self._db.write(partial(results.reset_leaderboard, guild_id=guild_id, now=self._clock.now()))
