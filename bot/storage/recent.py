"""The 30-day totals (`player_recent`, `recent_windows`): every write to them is here, so no writer
(recording, forgetting a member, resetting a server) can leave them out of step with the games."""

from __future__ import annotations

import logging

import aiosqlite

from bot.records import GameRecord
from bot.storage.database import DatabaseBusy, transaction

log = logging.getLogger(__name__)

THIRTY_DAYS = 30 * 24 * 3600
RECENT_REFRESH = 3600


async def add_game(db: aiosqlite.Connection, record: GameRecord) -> None:
    """Fold a new game into the server's 30-day totals, if they are built and it falls in their window."""
    humans = record.humans
    await db.executemany(
        "INSERT INTO player_recent (guild_id, user_id, name, games, wins, points, turns, best_turn,"
        " best_game, farkles, hot_dice, rating)"
        " SELECT w.guild_id, :user, :name, 1, :won, :points, :turns, :best_turn, :bank, :farkles, :hot,"
        " ps.rating FROM recent_windows w"
        " JOIN player_stats ps ON ps.guild_id = w.guild_id AND ps.user_id = :user"
        " WHERE w.guild_id = :guild AND w.since <= :ended"
        " ON CONFLICT(guild_id, user_id) DO UPDATE SET name = excluded.name, games = games + 1,"
        " wins = wins + excluded.wins, points = points + excluded.points, turns = turns + excluded.turns,"
        " best_turn = MAX(best_turn, excluded.best_turn), best_game = MAX(best_game, excluded.best_game),"
        " farkles = farkles + excluded.farkles, hot_dice = hot_dice + excluded.hot_dice,"
        " rating = excluded.rating",
        [
            {
                "guild": record.guild_id,
                "user": p.user_id,
                "name": p.name,
                "won": int(p.won),
                "points": p.points,
                "turns": p.turns,
                "best_turn": p.best_turn,
                "bank": p.final_bank,
                "farkles": p.farkles,
                "hot": p.hot_dice,
                "ended": record.ended_at,
            }
            for p in humans
        ],
    )


async def refresh(db: aiosqlite.Connection, guild_id: int, now: float) -> None:
    """Rebuild the server's 30-day totals when they are over an hour old, so old games drop out."""
    rows = await db.execute_fetchall("SELECT built_at FROM recent_windows WHERE guild_id = ?", (guild_id,))
    built = next(iter(rows), None)
    if built is not None and now - built[0] < RECENT_REFRESH:
        return
    since = now - THIRTY_DAYS
    try:
        await _rebuild(db, guild_id, now, since)
    except DatabaseBusy:  # another writer holds the database: serve the totals as they are
        log.warning("30-day totals of guild %s not rebuilt: the database is busy", guild_id)


async def _rebuild(db: aiosqlite.Connection, guild_id: int, now: float, since: float) -> None:
    async with transaction(db):
        await db.execute("DELETE FROM player_recent WHERE guild_id = ?", (guild_id,))
        await db.execute(
            "INSERT INTO player_recent SELECT :guild, gp.user_id, MAX(gp.name), COUNT(*), SUM(gp.won),"
            " SUM(gp.points), SUM(gp.turns), MAX(gp.best_turn), MAX(gp.final_bank), SUM(gp.farkles),"
            " SUM(gp.hot_dice), COALESCE(ps.rating, 0)"
            " FROM games g CROSS JOIN game_players gp ON gp.game_id = g.game_id"  # from the window's games
            " LEFT JOIN player_stats ps ON ps.guild_id = g.guild_id AND ps.user_id = gp.user_id"
            " WHERE g.guild_id = :guild AND g.counted = 1 AND gp.computer IS NULL AND gp.forgotten = 0"
            " AND g.ended_at >= :since"
            " AND g.ended_at > COALESCE((SELECT reset_at FROM leaderboard_resets WHERE guild_id = :guild), 0)"
            " GROUP BY gp.user_id",
            {"guild": guild_id, "since": since},
        )
        await db.execute(
            "INSERT OR REPLACE INTO recent_windows (guild_id, since, built_at) VALUES (?, ?, ?)",
            (guild_id, since, now),
        )


async def forget(db: aiosqlite.Connection, user_id: int) -> None:
    """A member who asked to be forgotten leaves every server's 30-day board at once."""
    await db.execute("DELETE FROM player_recent WHERE user_id = ?", (user_id,))


async def reset(db: aiosqlite.Connection, guild_id: int) -> None:
    await db.execute("DELETE FROM player_recent WHERE guild_id = ?", (guild_id,))
    await db.execute("DELETE FROM recent_windows WHERE guild_id = ?", (guild_id,))
