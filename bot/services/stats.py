"""Members' results as the `/farkle` statistics commands need them: the cogs never hold the database.

Reads go to the database's readers (a long leaderboard query never waits behind a game's commit);
privacy deletions and resets are one transaction each.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial

from sqlalchemy.engine import Connection

from bot.core.clock import Clock
from bot.core.periods import SeasonLength, Window, season_at, week_at
from bot.core.records import SKILL_MINIMUM, GameSummary, Metric, Period, Ranked, SeasonPlace, StatsRow
from bot.engine import Game
from bot.engine.luck import skill
from bot.engine.review import GameReview
from bot.render.stats import PAGE_SIZE
from bot.sessions.archive import replay
from bot.sessions.review import GameReviews, Played
from bot.storage import Database, recent, results, reviews, seasons, tournaments

# Boards where a lucky first game would lead: they rank only members with the configured minimum.
NEEDS_MINIMUM: frozenset[Metric] = frozenset({"win_rate", "accuracy"})


@dataclass(frozen=True)
class Standings:
    metric: Metric
    period: Period
    page: int
    rows: list[Ranked]
    total: int
    mine: Ranked | None  # the asking member's own line, wherever they rank
    minimum: int  # counted games a member needs to be ranked (rated ones; reviewed ones for accuracy)
    counted: int  # the asking member's counted games, ranked or not
    window: Window | None = None  # the calendar's week, month or season shown (a `Season` for seasons)


@dataclass(frozen=True)
class Replayed:
    game: Game
    names: dict[str, str]  # engine player id -> name as archived
    review: GameReview | None = None  # its review, when asked for
    chart: bytes | None = None  # the review's chance-to-win chart (PNG), when asked for and it has one


@dataclass(frozen=True)
class MemberStats:
    row: StatsRow | None
    accuracy: tuple[float, int] | None  # average over the last reviewed games, and how many
    skill: tuple[float, int] | None = None  # mean chance given away over the last decisions, how many
    seasons: list[SeasonPlace] = field(default_factory=list)  # the seasons they placed in, newest first


class StatsService:
    def __init__(self, db: Database, clock: Clock, min_games: int, reviews: GameReviews) -> None:
        self._db = db
        self._clock = clock
        self._min_games = min_games  # for the win-rate and accuracy boards
        self._reviews = reviews
        self._also_forget: list[Callable[[int, str], Awaitable[None]]] = []

    def window(self, period: Period, season: SeasonLength) -> Window | None:
        """The calendar's current week, month or season (None: all time and the last 30 days)."""
        now = self._clock.now()
        if period == "week":
            return week_at(now)
        if period in ("month", "season"):
            return season_at(now, "month" if period == "month" else season)
        return None

    async def leaderboard(
        self,
        guild_id: int,
        user_id: int,
        metric: Metric,
        period: Period,
        page: int,
        season: SeasonLength = "month",
    ) -> Standings:
        """One page of a board; `season` is how long the server's seasons last."""
        if period == "30d":
            await recent.refresh(self._db, guild_id, self._clock.now())
        min_games, window = self.minimum(metric), self.window(period, season)

        def read(connection: Connection) -> Standings:
            rows, total = results.leaderboard(
                connection,
                guild_id,
                metric,
                period,
                offset=page * PAGE_SIZE,
                limit=PAGE_SIZE,
                min_games=min_games,
                window=window,
            )
            mine = results.rank_of(
                connection, guild_id, user_id, metric, period, min_games=min_games, window=window
            )
            counted = results.counted_games(connection, guild_id, user_id, metric, period, window)
            return Standings(metric, period, page, rows, total, mine, min_games, counted, window)

        return await self._db.read(read)

    def minimum(self, metric: Metric) -> int:
        """The board's minimum of counted games: every board states it, and the cog's line says how."""
        if metric == "skill":
            return SKILL_MINIMUM  # in decisions (`reviews.py`)
        return self._min_games if metric in NEEDS_MINIMUM else 1

    async def member(self, guild_id: int, user_id: int) -> MemberStats:
        def read(connection: Connection) -> MemberStats:
            row = results.member_stats(connection, guild_id, user_id)
            accuracy = reviews.recent_accuracy(connection, guild_id, user_id)
            skill = reviews.recent_skill(connection, guild_id, user_id)
            return MemberStats(row, accuracy, skill, seasons.placed(connection, guild_id, user_id))

        return await self._db.read(read)

    async def member_skill(self, guild_id: int, user_id: int) -> int | None:
        """A member's skill here, rounded (what "Add computer: your level" plays at), None below the
        minimum of decisions."""
        measured = await self._db.read(partial(reviews.recent_skill, guild_id=guild_id, user_id=user_id))
        if measured is None or measured[1] < SKILL_MINIMUM:
            return None
        return round(skill(measured[0]))

    async def game_accuracy(self, game_id: str) -> dict[int, float | None]:
        """Each seat's review accuracy (0..1) by user id; empty until the game is reviewed."""
        return await self._db.read(partial(reviews.game_accuracy, game_id=game_id))

    async def overall(self, user_id: int) -> tuple[StatsRow | None, tuple[float, int] | None]:
        """A member's numbers over every server and conversation they played in, and their skill there."""

        def read(connection: Connection) -> tuple[StatsRow | None, tuple[float, int] | None]:
            return results.member_overall(connection, user_id), reviews.skill_everywhere(connection, user_id)

        return await self._db.read(read)

    async def history(self, guild_id: int, channel_id: int | None) -> list[GameSummary]:
        return await self._db.read(partial(results.recent_games, guild_id=guild_id, channel_id=channel_id))

    async def played(self, guild_id: int, user_id: int, limit: int = 25) -> list[GameSummary]:
        """The member's newest finished games in this server: what `replay` and `review` offer."""
        return await self._db.read(
            partial(results.recent_games, guild_id=guild_id, limit=limit, user_id=user_id)
        )

    async def replay(
        self, guild_id: int, game_id: str, *, reviewed: bool = False, charted: bool = False
    ) -> Replayed | None:
        """A finished game of this server rebuilt move by move, with its review if `reviewed`, and its
        chart too if `charted`."""
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
        review = await self._reviews.review(played)
        chart = await self._reviews.chart(played, partial(_chart, names=names)) if charted else None
        return Replayed(game, names, review, chart)

    def also_forget(self, forget: Callable[[int, str], Awaitable[None]]) -> None:
        """What else holds members' names in memory (running tournaments), told after a forget-me."""
        self._also_forget.append(forget)

    async def forget(self, user_id: int) -> None:
        await self._db.write(partial(_forget_member, user_id=user_id))
        for forget in self._also_forget:
            await forget(user_id, results.FORGOTTEN)

    async def reset(self, guild_id: int) -> None:
        await self._db.write(partial(results.reset_leaderboard, guild_id=guild_id, now=self._clock.now()))


def _chart(review: GameReview, names: dict[str, str]) -> bytes | None:
    """Draw a review's chart (in the review's worker thread)."""
    from bot.render.chart import chart  # Pillow: imported when the first chart is drawn, not at start-up

    return chart(review, names)


def _forget_member(connection: Connection, user_id: int) -> None:
    """Forget-me, in one transaction: statistics and games (`results`), and names in tournaments."""
    results.forget_member(connection, user_id)
    tournaments.forget(connection, user_id)
