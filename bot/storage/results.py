"""Game records, per-server statistics and leaderboards: every SQL statement about results.

Functions take a `Connection` inside the caller's unit of work (`Database.write` / `Database.read`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.engine import Connection, RowMapping

from bot.core.periods import Window
from bot.core.records import (
    GameRecord,
    GameSummary,
    Metric,
    Period,
    Ranked,
    Rater,
    Rating,
    StatsRow,
)
from bot.storage import achievements, daily, recent, reviews, seasons
from bot.storage.ended import PLAYER_COLUMNS

FORGOTTEN = "Forgotten player"

_ARCHIVE = text(
    "INSERT INTO games (game_id, guild_id, channel_id, rules, dice_start, actions, started_at, ended_at,"
    " end_reason, counted, announced) VALUES (:game_id, :guild_id, :channel_id, :rules, :dice_start,"
    " :actions, :started_at, :ended_at, :end_reason, :counted, 0) ON CONFLICT (game_id) DO NOTHING"
)
_ANNOUNCED = text("UPDATE games SET announced = 1 WHERE game_id = :game")
_SEATS = text(
    f"INSERT INTO game_players (game_id, {PLAYER_COLUMNS}) VALUES (:game_id, "
    + ", ".join(f":{column.strip()}" for column in PLAYER_COLUMNS.split(","))
    + ")"
)
# Placeholders first, so that two processes recording the same member at once queue on one row: the
# second reads the first one's rating (PostgreSQL retries it) instead of overwriting it.
_ENSURE_STATS = text(
    "INSERT INTO player_stats (guild_id, user_id, name, mu, sigma, rating, last_played)"
    " VALUES (:guild, :user, :name, 0, 0, 0, 0) ON CONFLICT (guild_id, user_id) DO NOTHING"
)
_RATINGS = text(
    "SELECT user_id, games, mu, sigma, rating FROM player_stats WHERE guild_id = :guild AND user_id = :user"
)
_ADD_STATS = text(
    "UPDATE player_stats SET name = :name, games = games + 1, wins = wins + :won, points = points + :points,"
    " turns = turns + :turns,"
    " best_turn = CASE WHEN best_turn > :best_turn THEN best_turn ELSE :best_turn END,"
    " best_game = CASE WHEN best_game > :bank THEN best_game ELSE :bank END,"
    " farkles = farkles + :farkles, hot_dice = hot_dice + :hot, mu = :mu, sigma = :sigma,"
    " rating = :rating, last_played = :ended WHERE guild_id = :guild AND user_id = :user"
)


def write_record(connection: Connection, record: GameRecord, rate: Rater) -> bool:
    """Archive a finished game and fold it into statistics (ratings by `rate`); False when already written.

    The game's primary key makes a retried final press, or a second save of the same finished session,
    a no-op instead of a double count.
    """
    values = {
        "game_id": record.game_id,
        "guild_id": record.guild_id,
        "channel_id": record.channel_id,
        "rules": record.rules_json,
        "dice_start": record.dice_start_json,
        "actions": record.actions_json,
        "started_at": record.started_at,
        "ended_at": record.ended_at,
        "end_reason": record.end_reason,
        "counted": int(record.counted),
    }
    if connection.execute(_ARCHIVE, values).rowcount != 1:
        return False
    connection.execute(
        _SEATS,
        [
            {
                "game_id": record.game_id,
                **{column.strip(): getattr(p, column.strip()) for column in PLAYER_COLUMNS.split(",")},
                "won": int(p.won),
            }
            for p in record.players
        ],
    )
    if record.counted:
        _update_stats(connection, record, rate)
        recent.add_game(connection, record)
    return True


def mark_announced(connection: Connection, game_ids: list[str]) -> None:
    connection.execute(_ANNOUNCED, [{"game": game_id} for game_id in game_ids])


def _update_stats(connection: Connection, record: GameRecord, rate: Rater) -> None:
    humans = sorted(record.humans, key=lambda p: p.user_id)  # one lock order for every writer
    keys = [{"guild": record.guild_id, "user": p.user_id, "name": p.name} for p in humans]
    connection.execute(_ENSURE_STATS, keys)
    before: list[Rating | None] = []
    for key in keys:
        row = connection.execute(_RATINGS, key).one()
        before.append(Rating(row.mu, row.sigma, row.rating) if row.games else None)
    after = rate(before, [p.placement for p in humans])
    connection.execute(
        _ADD_STATS,
        [
            {
                **key,
                **p.totals(),
                "mu": rating.mu,
                "sigma": rating.sigma,
                "rating": rating.shown,
                "ended": record.ended_at,
            }
            for key, p, rating in zip(keys, humans, after, strict=True)
        ],
    )


_STATS_COLUMNS = "user_id, name, games, wins, points, turns, best_turn, best_game, farkles, hot_dice, rating"
_TABLES: dict[Period, str] = {"all": "player_stats", "30d": "player_recent"}
_VALUE = {
    "rating": "rating",
    "wins": "wins",
    "win_rate": "CAST(wins AS DOUBLE PRECISION) / games",
    "best_turn": "best_turn",
    "points": "points",
}


def _totals(period: Period, window: Window | None) -> tuple[str, dict[str, float]]:
    """Where a period's totals are read: a table kept up to date (all time, 30 days), or the games of the
    calendar window (week, month, season: `window`) summed as they are read."""
    if period in _TABLES:
        return _TABLES[period], {}
    if window is None:
        raise ValueError(f"the {period} board needs its calendar window")
    return f"({recent.WINDOW_TOTALS}) AS totals", {"since": window.since, "until": window.until}


def _row(values: RowMapping) -> StatsRow:
    return StatsRow(*(values[key] for key in _STATS_COLUMNS.split(", ")))


def leaderboard(
    connection: Connection,
    guild_id: int,
    metric: Metric,
    period: Period,
    *,
    offset: int = 0,
    limit: int = 10,
    min_games: int = 1,
    window: Window | None = None,
) -> tuple[list[Ranked], int]:
    """One page of the members with `min_games` counted games or more, in standard competition ranking
    ("1, 2, 2, 4"; ties listed by name), and the total.

    The 30-day totals must be fresh (`recent.refresh`) before a 30-day page is read.
    """
    if metric in ("accuracy", "skill"):  # boards of reviewed games (`reviews.py`)
        return reviews.leaderboard(
            connection,
            guild_id,
            period,
            metric=metric,
            offset=offset,
            limit=limit,
            min_games=min_games,
            window=window,
        )
    (table, window_params), value = _totals(period, window), _VALUE[metric]
    params = {"guild": guild_id, "min_games": min_games, **window_params}
    rows = connection.execute(
        text(
            f"SELECT RANK() OVER (ORDER BY {value} DESC) AS rank, {_STATS_COLUMNS} FROM {table}"
            " WHERE guild_id = :guild AND games >= :min_games ORDER BY rank, name, user_id"
            " LIMIT :limit OFFSET :offset"
        ),
        {**params, "limit": limit, "offset": offset},
    ).mappings()
    page = [Ranked(int(row["rank"]), _row(row)) for row in rows]
    total = connection.execute(
        text(f"SELECT COUNT(*) FROM {table} WHERE guild_id = :guild AND games >= :min_games"), params
    ).scalar_one()
    return page, int(total)


def rank_of(
    connection: Connection,
    guild_id: int,
    user_id: int,
    metric: Metric,
    period: Period,
    *,
    min_games: int = 1,
    window: Window | None = None,
) -> Ranked | None:
    """The member's own line: their rank is one more than the members strictly ahead of them."""
    if metric in ("accuracy", "skill"):
        return reviews.rank_of(
            connection, guild_id, user_id, period, metric=metric, min_games=min_games, window=window
        )
    (table, window_params), value = _totals(period, window), _VALUE[metric]
    params = {"guild": guild_id, "user": user_id, "min_games": min_games, **window_params}
    mine = (
        connection.execute(
            text(
                f"SELECT {_STATS_COLUMNS}, {value} AS value FROM {table}"
                " WHERE guild_id = :guild AND user_id = :user AND games >= :min_games"
            ),
            params,
        )
        .mappings()
        .first()
    )
    if mine is None:
        return None
    ahead = connection.execute(
        text(
            f"SELECT COUNT(*) FROM {table} WHERE guild_id = :guild AND games >= :min_games"
            f" AND {value} > :value"
        ),
        {**params, "value": mine["value"]},
    ).scalar_one()
    return Ranked(1 + int(ahead), _row(mine))


def counted_games(
    connection: Connection,
    guild_id: int,
    user_id: int,
    metric: Metric,
    period: Period,
    window: Window | None = None,
) -> int:
    """How many of the member's games the board counts (rated games; reviewed ones for accuracy), ranked
    or not yet: what they have towards the board's minimum."""
    if metric == "accuracy":
        return reviews.reviewed_games(connection, guild_id, user_id, period, window)
    if metric == "skill":
        return reviews.skill_decisions(connection, guild_id, user_id, period, window)
    table, window_params = _totals(period, window)
    games = connection.execute(
        text(f"SELECT games FROM {table} WHERE guild_id = :guild AND user_id = :user"),
        {"guild": guild_id, "user": user_id, **window_params},
    ).scalar()
    return int(games or 0)


def member_stats(connection: Connection, guild_id: int, user_id: int) -> StatsRow | None:
    row = (
        connection.execute(
            text(f"SELECT {_STATS_COLUMNS} FROM player_stats WHERE guild_id = :guild AND user_id = :user"),
            {"guild": guild_id, "user": user_id},
        )
        .mappings()
        .first()
    )
    return _row(row) if row is not None else None


# A member's totals over every board (servers and conversations): sums, bests, and the rating of the board
# they played most on (ratings of different boards don't add up). Names sort by code point on both backends.
_OVERALL = text(
    "SELECT user_id, MAX(name) AS name, SUM(games) AS games, SUM(wins) AS wins, SUM(points) AS points,"
    " SUM(turns) AS turns, MAX(best_turn) AS best_turn, MAX(best_game) AS best_game,"
    " SUM(farkles) AS farkles, SUM(hot_dice) AS hot_dice,"
    " (SELECT rating FROM player_stats AS most WHERE most.user_id = :user"
    "  ORDER BY most.games DESC, most.guild_id LIMIT 1) AS rating"
    " FROM player_stats WHERE user_id = :user GROUP BY user_id"
)


def member_overall(connection: Connection, user_id: int) -> StatsRow | None:
    row = connection.execute(_OVERALL, {"user": user_id}).mappings().first()
    return _row(row) if row is not None else None


_GAME_SEATS = text(
    "SELECT name, final_bank, won FROM game_players WHERE game_id = :game ORDER BY placement, seat"
)


def recent_games(
    connection: Connection,
    guild_id: int,
    channel_id: int | None = None,
    limit: int = 10,
    user_id: int | None = None,
) -> list[GameSummary]:
    """The newest finished games of a server (of one channel; with `user_id`, those that member played)."""
    where = "guild_id = :guild" + (" AND channel_id = :channel" if channel_id is not None else "")
    if user_id is not None:
        where += " AND game_id IN (SELECT game_id FROM game_players WHERE user_id = :user)"
    games = connection.execute(
        text(
            f"SELECT game_id, channel_id, ended_at, rules FROM games WHERE {where}"
            " ORDER BY ended_at DESC LIMIT :limit"
        ),
        {"guild": guild_id, "channel": channel_id, "limit": limit, "user": user_id},
    ).all()
    summaries = []
    for game in games:
        players = connection.execute(_GAME_SEATS, {"game": game.game_id}).all()
        summaries.append(
            GameSummary(
                game.game_id,
                int(game.channel_id),
                float(game.ended_at),
                str(json.loads(game.rules).get("name", "custom")),
                tuple((p.name, int(p.final_bank), bool(p.won)) for p in players),
            )
        )
    return summaries


@dataclass(frozen=True)
class ArchivedGame:
    rules_json: str
    dice_start_json: str
    actions_json: str
    seats: tuple[tuple[int, str, int | None], ...]  # user id, name, team
    ended_at: float = 0.0


def archived_game(connection: Connection, guild_id: int, game_id: str) -> ArchivedGame | None:
    game = connection.execute(
        text(
            "SELECT rules, dice_start, actions, ended_at FROM games"
            " WHERE guild_id = :guild AND game_id = :game"
        ),
        {"guild": guild_id, "game": game_id},
    ).first()
    if game is None:
        return None
    seats = connection.execute(
        text("SELECT user_id, name, team FROM game_players WHERE game_id = :game ORDER BY seat"),
        {"game": game_id},
    ).all()
    seated = tuple((int(s[0]), s[1], s[2]) for s in seats)
    return ArchivedGame(game[0], game[1], game[2], seated, float(game[3]))


def forget_member(connection: Connection, user_id: int) -> None:
    """Privacy: drop the member's statistics, season standings, daily attempts and achievements everywhere
    and replace their name in past games.

    The seat keeps its id so archived games still replay; `forgotten` keeps it out of every ranking.
    """
    connection.execute(text("DELETE FROM player_stats WHERE user_id = :user"), {"user": user_id})
    recent.forget(connection, user_id)
    seasons.forget(connection, user_id)
    daily.forget(connection, user_id)
    achievements.forget(connection, user_id)
    connection.execute(
        text("UPDATE game_players SET name = :name, forgotten = 1 WHERE user_id = :user"),
        {"name": FORGOTTEN, "user": user_id},
    )


def reset_leaderboard(connection: Connection, guild_id: int, now: float) -> None:
    connection.execute(text("DELETE FROM player_stats WHERE guild_id = :guild"), {"guild": guild_id})
    recent.reset(connection, guild_id)
    connection.execute(
        text(
            "INSERT INTO leaderboard_resets (guild_id, reset_at) VALUES (:guild, :now)"
            " ON CONFLICT (guild_id) DO UPDATE SET reset_at = excluded.reset_at"
        ),
        {"guild": guild_id, "now": now},
    )
