"""The 30-day totals (`player_recent`, `recent_windows`): every write to them is here, so no writer
(recording, forgetting a member, resetting a server) can leave them out of step with the games.

A server's `recent_windows` row is the lock its totals are written under: recording a game touches it
first, and so does a rebuild, so two processes never rebuild or add to one server's totals at once.
"""

from __future__ import annotations

import logging
from functools import partial

from sqlalchemy import text
from sqlalchemy.engine import Connection

from bot.core.records import GameRecord
from bot.storage.database import Database, DatabaseBusy

log = logging.getLogger(__name__)

THIRTY_DAYS = 30 * 24 * 3600
RECENT_REFRESH = 3600

_TOTALS = "games, wins, points, turns, best_turn, best_game, farkles, hot_dice"
_LOCK_WINDOW = text("UPDATE recent_windows SET built_at = built_at WHERE guild_id = :guild")
_ADD = text(
    f"INSERT INTO player_recent (guild_id, user_id, name, {_TOTALS}, rating)"
    " SELECT w.guild_id, :user, :name, 1, :won, :points, :turns, :best_turn, :bank, :farkles, :hot,"
    " ps.rating FROM recent_windows w"
    " JOIN player_stats ps ON ps.guild_id = w.guild_id AND ps.user_id = :user"
    " WHERE w.guild_id = :guild AND w.since <= :ended"
    " ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name,"
    " games = player_recent.games + 1, wins = player_recent.wins + excluded.wins,"
    " points = player_recent.points + excluded.points, turns = player_recent.turns + excluded.turns,"
    " best_turn = CASE WHEN player_recent.best_turn > excluded.best_turn"
    " THEN player_recent.best_turn ELSE excluded.best_turn END,"
    " best_game = CASE WHEN player_recent.best_game > excluded.best_game"
    " THEN player_recent.best_game ELSE excluded.best_game END,"
    " farkles = player_recent.farkles + excluded.farkles,"
    " hot_dice = player_recent.hot_dice + excluded.hot_dice, rating = excluded.rating"
)
_BUILT = text("SELECT built_at FROM recent_windows WHERE guild_id = :guild")
_CLAIM_WINDOW = text(
    "INSERT INTO recent_windows (guild_id, since, built_at) VALUES (:guild, :since, :now)"
    " ON CONFLICT (guild_id) DO UPDATE SET since = excluded.since, built_at = excluded.built_at"
)
# Each member's totals over a server's rated games that ended in [:since, :until), with their current
# rating: the 30-day totals are rebuilt from it, and the week, month and season boards read it directly.
WINDOW_TOTALS = (
    "SELECT g.guild_id AS guild_id, gp.user_id AS user_id, MAX(gp.name) AS name, COUNT(*) AS games,"
    " SUM(gp.won) AS wins, SUM(gp.points) AS points, SUM(gp.turns) AS turns, MAX(gp.best_turn) AS best_turn,"
    " MAX(gp.final_bank) AS best_game, SUM(gp.farkles) AS farkles, SUM(gp.hot_dice) AS hot_dice,"
    " COALESCE(MAX(ps.rating), 0) AS rating"
    # CROSS JOIN: SQLite starts from the window's games (its covering index), PostgreSQL plans freely.
    " FROM games g CROSS JOIN game_players gp"
    " LEFT JOIN player_stats ps ON ps.guild_id = g.guild_id AND ps.user_id = gp.user_id"
    " WHERE gp.game_id = g.game_id AND g.guild_id = :guild AND g.counted = 1 AND gp.computer IS NULL"
    " AND gp.forgotten = 0"
    " AND g.ended_at >= :since AND g.ended_at < :until"
    " AND g.ended_at > COALESCE((SELECT reset_at FROM leaderboard_resets WHERE guild_id = :guild), 0)"
    " GROUP BY g.guild_id, gp.user_id"
)
_REBUILD = text(
    f"INSERT INTO player_recent (guild_id, user_id, name, {_TOTALS}, rating)"
    f" SELECT guild_id, user_id, name, {_TOTALS}, rating FROM ({WINDOW_TOTALS}) AS totals"
)
FOREVER = 1e18  # an open end of a window


def add_game(connection: Connection, record: GameRecord) -> None:
    """Fold a new game into the server's 30-day totals, if they are built and it falls in their window."""
    connection.execute(_LOCK_WINDOW, {"guild": record.guild_id})
    connection.execute(
        _ADD,
        [
            {
                "guild": record.guild_id,
                "user": p.user_id,
                "name": p.name,
                **p.totals(),
                "ended": record.ended_at,
            }
            for p in sorted(record.humans, key=lambda p: p.user_id)
        ],
    )


async def refresh(db: Database, guild_id: int, now: float) -> None:
    """Rebuild the server's 30-day totals when they are over an hour old, so old games drop out."""
    built = await db.read(lambda connection: connection.execute(_BUILT, {"guild": guild_id}).scalar())
    if built is not None and now - built < RECENT_REFRESH:
        return
    try:
        await db.write(partial(_rebuild, guild_id, now))
    except DatabaseBusy:  # another writer holds the database: serve the totals as they are
        log.warning("30-day totals of guild %s not rebuilt: the database is busy", guild_id)


def _rebuild(guild_id: int, now: float, connection: Connection) -> None:
    since = now - THIRTY_DAYS
    connection.execute(_CLAIM_WINDOW, {"guild": guild_id, "since": since, "now": now})
    connection.execute(text("DELETE FROM player_recent WHERE guild_id = :guild"), {"guild": guild_id})
    connection.execute(_REBUILD, {"guild": guild_id, "since": since, "until": FOREVER})


def forget(connection: Connection, user_id: int) -> None:
    """A member who asked to be forgotten leaves every server's 30-day board at once."""
    connection.execute(text("DELETE FROM player_recent WHERE user_id = :user"), {"user": user_id})


def reset(connection: Connection, guild_id: int) -> None:
    connection.execute(text("DELETE FROM player_recent WHERE guild_id = :guild"), {"guild": guild_id})
    connection.execute(text("DELETE FROM recent_windows WHERE guild_id = :guild"), {"guild": guild_id})
