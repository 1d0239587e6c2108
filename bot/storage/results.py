"""Game records, per-server statistics and leaderboards: every SQL statement about results."""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.records import GameRecord, GameSummary, Metric, Period, Ranked, Rater, Rating, StatsRow
from bot.storage import recent

FORGOTTEN = "Forgotten player"


async def write_record(db: aiosqlite.Connection, record: GameRecord, rate: Rater) -> bool:
    """Archive a finished game and fold it into statistics (ratings by `rate`); False when already written.

    Must run inside the caller's transaction: the game's primary key makes a retried final press,
    or a second save of the same finished session, a no-op instead of a double count.
    """
    cursor = await db.execute(
        "INSERT OR IGNORE INTO games (game_id, guild_id, channel_id, rules, dice_start, actions,"
        " started_at, ended_at, end_reason, counted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            record.game_id,
            record.guild_id,
            record.channel_id,
            record.rules_json,
            record.dice_start_json,
            record.actions_json,
            record.started_at,
            record.ended_at,
            record.end_reason,
            int(record.counted),
        ),
    )
    if cursor.rowcount != 1:
        return False
    await db.executemany(
        "INSERT INTO game_players (game_id, seat, user_id, name, computer, team, placement, won, final_bank,"
        " turns, points, best_turn, farkles, hot_dice) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                record.game_id,
                p.seat,
                p.user_id,
                p.name,
                p.computer,
                p.team,
                p.placement,
                int(p.won),
                p.final_bank,
                p.turns,
                p.points,
                p.best_turn,
                p.farkles,
                p.hot_dice,
            )
            for p in record.players
        ],
    )
    if record.counted:
        await _update_stats(db, record, rate)
        await recent.add_game(db, record)
    return True


async def _update_stats(db: aiosqlite.Connection, record: GameRecord, rate: Rater) -> None:
    humans = record.humans
    placeholders = ",".join("?" * len(humans))
    rows = await db.execute_fetchall(
        f"SELECT user_id, mu, sigma, rating FROM player_stats WHERE guild_id = ?"
        f" AND user_id IN ({placeholders})",
        (record.guild_id, *(p.user_id for p in humans)),
    )
    current = {row[0]: Rating(row[1], row[2], row[3]) for row in rows}
    after = rate([current.get(p.user_id) for p in humans], [p.placement for p in humans])
    await db.executemany(
        "INSERT INTO player_stats (guild_id, user_id, name, games, wins, points, turns, best_turn, best_game,"
        " farkles, hot_dice, mu, sigma, rating, last_played)"
        " VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT(guild_id, user_id) DO UPDATE SET name = excluded.name, games = games + 1,"
        " wins = wins + excluded.wins, points = points + excluded.points, turns = turns + excluded.turns,"
        " best_turn = MAX(best_turn, excluded.best_turn), best_game = MAX(best_game, excluded.best_game),"
        " farkles = farkles + excluded.farkles, hot_dice = hot_dice + excluded.hot_dice,"
        " mu = excluded.mu, sigma = excluded.sigma, rating = excluded.rating,"
        " last_played = excluded.last_played",
        [
            (
                record.guild_id,
                p.user_id,
                p.name,
                int(p.won),
                p.points,
                p.turns,
                p.best_turn,
                p.final_bank,
                p.farkles,
                p.hot_dice,
                rating.mu,
                rating.sigma,
                rating.shown,
                record.ended_at,
            )
            for p, rating in zip(humans, after, strict=True)
        ],
    )


_STATS_COLUMNS = "user_id, name, games, wins, points, turns, best_turn, best_game, farkles, hot_dice, rating"
_TOTALS = {"all": "player_stats", "30d": "player_recent"}
_VALUE = {
    "rating": "rating",
    "wins": "wins",
    "win_rate": "CAST(wins AS REAL) / games",
    "best_turn": "best_turn",
    "points": "points",
}


def _row(values: aiosqlite.Row) -> StatsRow:
    return StatsRow(*(values[key] for key in _STATS_COLUMNS.split(", ")))


async def leaderboard(
    db: aiosqlite.Connection,
    guild_id: int,
    metric: Metric,
    period: Period,
    *,
    now: float,
    offset: int = 0,
    limit: int = 10,
    min_games: int = 1,
    writer: aiosqlite.Connection | None = None,
) -> tuple[list[Ranked], int]:
    """One page, in standard competition ranking ("1, 2, 2, 4"; ties listed by name), and the total."""
    if period == "30d":
        await recent.refresh(writer or db, guild_id, now)  # reads may use a read-only connection
    table, value = _TOTALS[period], _VALUE[metric]
    params = {"guild": guild_id, "min_games": min_games if metric == "win_rate" else 1}
    rows = await db.execute_fetchall(
        f"SELECT RANK() OVER (ORDER BY {value} DESC) AS rank, {_STATS_COLUMNS} FROM {table}"
        " WHERE guild_id = :guild AND games >= :min_games ORDER BY rank, name LIMIT :limit OFFSET :offset",
        {**params, "limit": limit, "offset": offset},
    )
    total = await db.execute_fetchall(
        f"SELECT COUNT(*) FROM {table} WHERE guild_id = :guild AND games >= :min_games", params
    )
    return [Ranked(row["rank"], _row(row)) for row in rows], int(next(iter(total))[0])


async def rank_of(
    db: aiosqlite.Connection,
    guild_id: int,
    user_id: int,
    metric: Metric,
    period: Period,
    *,
    now: float,
    min_games: int = 1,
    writer: aiosqlite.Connection | None = None,
) -> Ranked | None:
    """The member's own line: their rank is one more than the members strictly ahead of them."""
    if period == "30d":
        await recent.refresh(writer or db, guild_id, now)  # reads may use a read-only connection
    table, value = _TOTALS[period], _VALUE[metric]
    params = {"guild": guild_id, "user": user_id, "min_games": min_games if metric == "win_rate" else 1}
    rows = await db.execute_fetchall(
        f"SELECT {_STATS_COLUMNS}, {value} AS value FROM {table}"
        " WHERE guild_id = :guild AND user_id = :user AND games >= :min_games",
        params,
    )
    mine = next(iter(rows), None)
    if mine is None:
        return None
    ahead = await db.execute_fetchall(
        f"SELECT COUNT(*) FROM {table} WHERE guild_id = :guild AND games >= :min_games AND {value} > :value",
        {**params, "value": mine["value"]},
    )
    return Ranked(1 + int(next(iter(ahead))[0]), _row(mine))


async def member_stats(db: aiosqlite.Connection, guild_id: int, user_id: int) -> StatsRow | None:
    rows = await db.execute_fetchall(
        f"SELECT {_STATS_COLUMNS} FROM player_stats WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    row = next(iter(rows), None)
    return _row(row) if row is not None else None


async def recent_games(
    db: aiosqlite.Connection, guild_id: int, channel_id: int | None = None, limit: int = 10
) -> list[GameSummary]:
    where = "guild_id = ?" + (" AND channel_id = ?" if channel_id is not None else "")
    params = (guild_id, channel_id) if channel_id is not None else (guild_id,)
    games = await db.execute_fetchall(
        f"SELECT game_id, channel_id, ended_at, json_extract(rules, '$.name') AS rules_name FROM games"
        f" WHERE {where} ORDER BY ended_at DESC LIMIT ?",
        (*params, limit),
    )
    summaries = []
    for game in games:
        players = await db.execute_fetchall(
            "SELECT name, final_bank, won FROM game_players WHERE game_id = ? ORDER BY placement, seat",
            (game["game_id"],),
        )
        summaries.append(
            GameSummary(
                game["game_id"],
                game["channel_id"],
                game["ended_at"],
                game["rules_name"],
                tuple((p[0], p[1], bool(p[2])) for p in players),
            )
        )
    return summaries


@dataclass(frozen=True)
class ArchivedGame:
    rules_json: str
    dice_start_json: str
    actions_json: str
    seats: tuple[tuple[int, str, int | None], ...]  # user id, name, team


async def archived_game(db: aiosqlite.Connection, guild_id: int, game_id: str) -> ArchivedGame | None:
    rows = await db.execute_fetchall(
        "SELECT rules, dice_start, actions FROM games WHERE guild_id = ? AND game_id = ?", (guild_id, game_id)
    )
    game = next(iter(rows), None)
    if game is None:
        return None
    seats = await db.execute_fetchall(
        "SELECT user_id, name, team FROM game_players WHERE game_id = ? ORDER BY seat", (game_id,)
    )
    return ArchivedGame(game[0], game[1], game[2], tuple((s[0], s[1], s[2]) for s in seats))


async def forget_member(db: aiosqlite.Connection, user_id: int) -> None:
    """Privacy: drop the member's statistics everywhere and replace their name in past games.

    The seat keeps its id so archived games still replay; `forgotten` keeps it out of every ranking.
    """
    await db.execute("DELETE FROM player_stats WHERE user_id = ?", (user_id,))
    await recent.forget(db, user_id)
    await db.execute(
        "UPDATE game_players SET name = ?, forgotten = 1 WHERE user_id = ?", (FORGOTTEN, user_id)
    )


async def reset_leaderboard(db: aiosqlite.Connection, guild_id: int, now: float) -> None:
    await db.execute("DELETE FROM player_stats WHERE guild_id = ?", (guild_id,))
    await recent.reset(db, guild_id)
    await db.execute(
        "INSERT INTO leaderboard_resets (guild_id, reset_at) VALUES (?, ?)"
        " ON CONFLICT(guild_id) DO UPDATE SET reset_at = excluded.reset_at",
        (guild_id, now),
    )
