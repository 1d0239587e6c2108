"""Game reviews: the stored review of each game, each seat's accuracy and members' decisions; every SQL
statement about them.

A review is written once per game id (a second write changes nothing), so a review read back after a
restart is the one first shown. Accuracy and skill boards and `/farkle stats` count members' seats only
(not computers), leave out forgotten members and games before a leaderboard reset, like every other board.
The skill rating averages the chance to win given away by a member's last `SKILL_DECISIONS` decisions
measured in chances to win, in any reviewed game (computers across the table too: a decision's cost is
measured against the best move, whoever the opponent), shown from `SKILL_MINIMUM` decisions on. Only the
results rating needs games between members (`games.counted`).
"""

from __future__ import annotations

from functools import partial
from typing import Literal

from sqlalchemy import text
from sqlalchemy.engine import Connection, RowMapping

from bot.core.periods import Window
from bot.core.records import SKILL_DECISIONS, SKILL_MINIMUM, GameRecord, Period, Ranked, ReviewRow, StatsRow
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
_SAVE_DECISION = text(
    "INSERT INTO review_decisions (game_id, decision, seat, guild_id, user_id, measure, loss, ended_at)"
    " VALUES (:game, :decision, :seat, :guild, :user, :measure, :loss, :ended)"
    " ON CONFLICT (game_id, decision) DO NOTHING"
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
# Members' decisions in chances to win in any reviewed game: what the skill rating and board average.
_MEMBERS_DECISIONS = (
    "FROM review_decisions d JOIN game_players p ON p.game_id = d.game_id AND p.seat = d.seat"
    " WHERE d.measure = 'win' AND p.forgotten = 0"
)
# ... here, since the server's last leaderboard reset.
_DECIDED = (
    f"{_MEMBERS_DECISIONS} AND d.guild_id = :guild"
    " AND d.ended_at > COALESCE((SELECT reset_at FROM leaderboard_resets WHERE guild_id = :guild), -1)"
)
_LATEST = "ORDER BY d.ended_at DESC, d.game_id DESC, d.decision DESC"
_SKILL_BOARD = (
    "SELECT user_id, MAX(name) AS name, COUNT(*) AS games, AVG(loss) AS given_away FROM"
    f" (SELECT d.user_id, p.name, d.loss, ROW_NUMBER() OVER (PARTITION BY d.user_id {_LATEST}) AS latest"
    f" {_DECIDED} AND d.ended_at >= :since AND d.ended_at < :until) AS recent"
    " WHERE latest <= :last GROUP BY user_id HAVING COUNT(*) >= :min_games"
)
# Each board: its query, the column it ranks by, and how a better value compares.
_BOARDS = {"accuracy": (_BOARD, "accuracy", ">"), "skill": (_SKILL_BOARD, "given_away", "<")}
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
    if row.decisions:
        connection.execute(
            _SAVE_DECISION,
            [
                {
                    "game": row.game_id,
                    "decision": decision.index,
                    "seat": decision.seat,
                    "guild": row.guild_id,
                    "user": decision.user_id,
                    "measure": row.measure,
                    "loss": decision.loss,
                    "ended": row.ended_at,
                }
                for decision in row.decisions
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
    latest = f"SELECT r.accuracy AS value {_COUNTED} AND r.user_id = :user ORDER BY r.ended_at DESC"
    return _average(connection, latest, guild_id, user_id, RECENT_REVIEWS)


def recent_skill(connection: Connection, guild_id: int, user_id: int) -> tuple[float, int] | None:
    """A member's mean chance to win given away per decision over their last `SKILL_DECISIONS` decisions
    here, and how many (None without one)."""
    latest = f"SELECT d.loss AS value {_DECIDED} AND d.user_id = :user {_LATEST}"
    return _average(connection, latest, guild_id, user_id, SKILL_DECISIONS)


def skill_everywhere(connection: Connection, user_id: int) -> tuple[float, int] | None:
    """`recent_skill` over every server and conversation (what `/farkle stats` shows in a DM, where games
    against the bot's computers are often the only ones): read by the `review_decisions_user` index."""
    latest = f"SELECT d.loss AS value {_MEMBERS_DECISIONS} AND d.user_id = :user {_LATEST}"
    return _average(connection, latest, 0, user_id, SKILL_DECISIONS)


def _average(
    connection: Connection, latest: str, guild_id: int, user_id: int, last: int
) -> tuple[float, int] | None:
    """The average of the first `last` values `latest` selects, and how many (None without one)."""
    average, count = connection.execute(
        text(f"SELECT AVG(value), COUNT(*) FROM ({latest} LIMIT :last) AS recent"),
        {"guild": guild_id, "user": user_id, "last": last},
    ).one()
    return (float(average), int(count)) if count else None


BoardMetric = Literal["accuracy", "skill"]


def reviewed_games(
    connection: Connection, guild_id: int, user_id: int, period: Period, window: Window | None = None
) -> int:
    """How many reviewed games the accuracy board counts for the member, ranked or not yet."""
    return _counted(connection, "accuracy", guild_id, user_id, period, window)


def skill_decisions(
    connection: Connection, guild_id: int, user_id: int, period: Period, window: Window | None = None
) -> int:
    """How many decisions (at most `SKILL_DECISIONS`) the skill board counts for the member, ranked or not."""
    return _counted(connection, "skill", guild_id, user_id, period, window)


def _counted(
    connection: Connection,
    metric: BoardMetric,
    guild_id: int,
    user_id: int,
    period: Period,
    window: Window | None,
) -> int:
    board, params = _board(metric, guild_id, period, window, 0)
    counted = connection.execute(
        text(f"SELECT games FROM ({board}) AS board WHERE user_id = :user"), {**params, "user": user_id}
    ).scalar()
    return int(counted or 0)


def _board(
    metric: BoardMetric, guild_id: int, period: Period, window: Window | None, min_games: int
) -> tuple[str, dict[str, float | int]]:
    """A board's query for a period, and its parameters. The accuracy board's minimum is in games, the
    skill board's in decisions (`SKILL_MINIMUM`)."""
    params: dict[str, float | int] = {"guild": guild_id, "min_games": min_games, "until": FOREVER}
    if metric == "skill":
        params.update(min_games=SKILL_MINIMUM if min_games else 0, last=SKILL_DECISIONS)
    query = _BOARDS[metric][0]
    if period in _SINCE:
        return query.replace(":since", _SINCE[period]), params
    if window is None:
        raise ValueError(f"the {period} board needs its calendar window")
    return query, {**params, "since": window.since, "until": window.until}


def _ranked_row(values: RowMapping) -> StatsRow:
    """A board line: the member, their reviewed games (the skill board: decisions) and their average."""
    user, name, games = int(values["user_id"]), str(values["name"]), int(values["games"])
    averages = {key: float(values[key]) for key in ("accuracy", "given_away") if key in values}
    return StatsRow(user, name, games, 0, 0, 0, 0, 0, 0, 0, 0.0, **averages)


def leaderboard(
    connection: Connection,
    guild_id: int,
    period: Period,
    *,
    metric: BoardMetric = "accuracy",
    offset: int = 0,
    limit: int = 10,
    min_games: int = 1,
    window: Window | None = None,
) -> tuple[list[Ranked], int]:
    """One page of the accuracy or skill board (ties share a rank, listed by name) and how many are ranked."""
    board, params = _board(metric, guild_id, period, window, min_games)
    _, column, better = _BOARDS[metric]
    order = f"{column} {'DESC' if better == '>' else 'ASC'}"
    rows = connection.execute(
        text(
            f"SELECT RANK() OVER (ORDER BY {order}) AS rank, board.*"
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
    metric: BoardMetric = "accuracy",
    min_games: int = 1,
    window: Window | None = None,
) -> Ranked | None:
    """The member's line on the accuracy or skill board: one more than the members strictly ahead."""
    board, params = _board(metric, guild_id, period, window, min_games)
    mine = (
        connection.execute(
            text(f"SELECT * FROM ({board}) AS board WHERE user_id = :user"), {**params, "user": user_id}
        )
        .mappings()
        .first()
    )
    if mine is None:
        return None
    _, column, better = _BOARDS[metric]
    ahead = connection.execute(
        text(f"SELECT COUNT(*) FROM ({board}) AS board WHERE {column} {better} :value"),
        {**params, "value": mine[column]},
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
