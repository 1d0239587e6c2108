"""Game reviews: the stored review of each game and each seat's accuracy; every SQL statement about them.

A review is written once per game id (a second write changes nothing), so a review read back after a
restart is the one first shown. Accuracy boards and `/farkle stats` count members' seats only (not
computers), leave out forgotten members and games before a leaderboard reset, like every other board.
"""

from __future__ import annotations

from functools import partial

from sqlalchemy import text
from sqlalchemy.engine import Connection, RowMapping

from bot.periods import Window
from bot.records import GameRecord, Period, Ranked, ReviewRow, StatsRow
from bot.storage import ended
from bot.storage.database import Database
from bot.storage.recent import FOREVER

RECENT_REVIEWS = 20  # `/farkle stats` averages a member's last this many reviewed games

_SAVE = text(
    "INSERT INTO game_reviews (game_id, measure, review) VALUES (:game, :measure, :review)"
    " ON CONFLICT (game_id) DO NOTHING"
)
_SAVE_SEAT = text(
    "INSERT INTO review_players (game_id, seat, guild_id, user_id, computer, accuracy, decisions, mistakes,"
    " ended_at) VALUES (:game, :seat, :guild, :user, :computer, :accuracy, :decisions, :mistakes, :ended)"
)
_LOAD = text("SELECT review FROM game_reviews WHERE game_id = :game")
_SEATS = text("SELECT user_id, accuracy FROM review_players WHERE game_id = :game ORDER BY seat")
# Members' reviewed seats in a server: what the accuracy board and `/farkle stats` average.
_COUNTED = (
    "FROM review_players r JOIN game_players p ON p.game_id = r.game_id AND p.seat = r.seat"
    " WHERE r.guild_id = :guild AND r.computer = 0 AND r.accuracy IS NOT NULL AND p.forgotten = 0"
    " AND r.ended_at > COALESCE((SELECT reset_at FROM leaderboard_resets WHERE guild_id = :guild), -1)"
)
_BOARD = (
    f"SELECT r.user_id, MAX(p.name) AS name, COUNT(*) AS games, AVG(r.accuracy) AS accuracy {_COUNTED}"
    " AND r.ended_at >= :since AND r.ended_at < :until GROUP BY r.user_id HAVING COUNT(*) >= :min_games"
)
# The 30-day board's window is the one the other 30-day boards were last rebuilt for (`recent.refresh`);
# the calendar's boards (week, month, season) bind their window's bounds.
_SINCE: dict[Period, str] = {
    "all": "-1e18",
    "30d": "COALESCE((SELECT since FROM recent_windows WHERE guild_id = :guild), 1e18)",
}


def save(connection: Connection, row: ReviewRow) -> bool:
    """Store a game's review; False (nothing written) when the game already has one."""
    values = {"game": row.game_id, "measure": row.measure, "review": row.review_json}
    if connection.execute(_SAVE, values).rowcount != 1:
        return False
    connection.execute(
        _SAVE_SEAT,
        [
            {
                "game": row.game_id,
                "seat": seat.seat,
                "guild": row.guild_id,
                "user": seat.user_id,
                "computer": int(seat.computer),
                "accuracy": seat.accuracy,
                "decisions": seat.decisions,
                "mistakes": seat.mistakes,
                "ended": row.ended_at,
            }
            for seat in row.seats
        ],
    )
    return True


def load(connection: Connection, game_id: str) -> str | None:
    review = connection.execute(_LOAD, {"game": game_id}).scalar()
    return str(review) if review is not None else None


def game_accuracy(connection: Connection, game_id: str) -> dict[int, float | None]:
    """Each seat's accuracy in one reviewed game by user id (empty: not reviewed yet), e.g. for awards."""
    return {int(user): accuracy for user, accuracy in connection.execute(_SEATS, {"game": game_id}).all()}


def recent_accuracy(connection: Connection, guild_id: int, user_id: int) -> tuple[float, int] | None:
    """A member's average accuracy over their last `RECENT_REVIEWS` reviewed games here, and how many."""
    average, games = connection.execute(
        text(
            f"SELECT AVG(accuracy), COUNT(*) FROM (SELECT r.accuracy {_COUNTED} AND r.user_id = :user"
            " ORDER BY r.ended_at DESC LIMIT :last) AS recent"
        ),
        {"guild": guild_id, "user": user_id, "last": RECENT_REVIEWS},
    ).one()
    return (float(average), int(games)) if games else None


def reviewed_games(
    connection: Connection, guild_id: int, user_id: int, period: Period, window: Window | None = None
) -> int:
    """How many reviewed games the accuracy board counts for the member, ranked or not yet."""
    board, params = _board(guild_id, period, window, 0)
    games = connection.execute(
        text(f"SELECT games FROM ({board}) AS board WHERE user_id = :user"), {**params, "user": user_id}
    ).scalar()
    return int(games or 0)


def _board(
    guild_id: int, period: Period, window: Window | None, min_games: int
) -> tuple[str, dict[str, float | int]]:
    """The accuracy board's query for a period, and its parameters."""
    params: dict[str, float | int] = {"guild": guild_id, "min_games": min_games, "until": FOREVER}
    if period in _SINCE:
        return _BOARD.replace(":since", _SINCE[period]), params
    if window is None:
        raise ValueError(f"the {period} board needs its calendar window")
    return _BOARD, {**params, "since": window.since, "until": window.until}


def _ranked_row(values: RowMapping) -> StatsRow:
    """A board line: the member, their reviewed games and average accuracy (the other totals unused)."""
    user, name, games = int(values["user_id"]), str(values["name"]), int(values["games"])
    return StatsRow(user, name, games, 0, 0, 0, 0, 0, 0, 0, 0.0, accuracy=float(values["accuracy"]))


def leaderboard(
    connection: Connection,
    guild_id: int,
    period: Period,
    *,
    offset: int = 0,
    limit: int = 10,
    min_games: int = 1,
    window: Window | None = None,
) -> tuple[list[Ranked], int]:
    """One page of the accuracy board (ties share a rank, listed by name) and how many are ranked."""
    board, params = _board(guild_id, period, window, min_games)
    rows = connection.execute(
        text(
            f"SELECT RANK() OVER (ORDER BY accuracy DESC) AS rank, user_id, name, games, accuracy"
            f" FROM ({board}) AS board ORDER BY rank, name, user_id LIMIT :limit OFFSET :offset"
        ),
        {**params, "limit": limit, "offset": offset},
    ).mappings()
    page = [Ranked(int(row["rank"]), _ranked_row(row)) for row in rows]
    total = connection.execute(text(f"SELECT COUNT(*) FROM ({board}) AS board"), params).scalar_one()
    return page, int(total)


def rank_of(
    connection: Connection,
    guild_id: int,
    user_id: int,
    period: Period,
    *,
    min_games: int = 1,
    window: Window | None = None,
) -> Ranked | None:
    """The member's line on the accuracy board: one more than the members strictly ahead."""
    board, params = _board(guild_id, period, window, min_games)
    mine = (
        connection.execute(
            text(f"SELECT * FROM ({board}) AS board WHERE user_id = :user"),
            {**params, "user": user_id},
        )
        .mappings()
        .first()
    )
    if mine is None:
        return None
    ahead = connection.execute(
        text(f"SELECT COUNT(*) FROM ({board}) AS board WHERE accuracy > :value"),
        {**params, "value": mine["accuracy"]},
    ).scalar_one()
    return Ranked(1 + int(ahead), _ranked_row(mine))


class SqlReviewStore:
    """The session layer's `ReviewStore`: reviews by game id."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def load(self, game_id: str) -> str | None:
        return await self._db.read(partial(load, game_id=game_id))

    async def save(self, row: ReviewRow) -> None:
        await self._db.write(partial(save, row=row))

    async def unreviewed(self, since: float) -> list[GameRecord]:
        return await self._db.read(partial(ended.unreviewed, since=since))
