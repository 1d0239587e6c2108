"""Seasons' final standings: every SQL statement about closing a season, posting it once and reading it.

A season closes once per server (the `season_closes` primary key: two processes closing it at once write
it once), and its standings are written in the same transaction. The post is claimed before it is sent
(`claim`), so two processes never both post it; a claim older than its lease (the process died before
saying it posted) may be claimed again.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.engine import Connection

from bot.core.periods import DEFAULT_SEASON, Season, SeasonLength
from bot.core.records import SeasonPlace, SeasonStanding
from bot.storage.recent import WINDOW_TOTALS

_CLOSE = text(
    "INSERT INTO season_closes (guild_id, season, channel_id, closed_at)"
    " SELECT DISTINCT g.guild_id, :season, c.season_channel, :now FROM games g"
    " LEFT JOIN guild_config c ON c.guild_id = g.guild_id"
    " WHERE g.counted = 1 AND g.ended_at >= :since AND g.ended_at < :until"
    " AND COALESCE(c.season, :default) = :length"
    " ON CONFLICT (guild_id, season) DO NOTHING RETURNING guild_id"
)
_STANDINGS = text(
    "INSERT INTO season_standings (guild_id, season, user_id, rank, name, games, wins, rating)"
    " SELECT guild_id, :season, user_id, RANK() OVER (ORDER BY rating DESC), name, games, wins, rating"
    f" FROM ({WINDOW_TOTALS}) AS totals"
)
_UNPOSTED = text(
    "SELECT guild_id, season, channel_id, claimed_at FROM season_closes"
    " WHERE channel_id IS NOT NULL AND posted_at IS NULL ORDER BY closed_at, season, guild_id"
)
_CLAIM = text(
    "UPDATE season_closes SET claimed_at = :now WHERE guild_id = :guild AND season = :season"
    " AND posted_at IS NULL AND (claimed_at IS NULL OR claimed_at <= :stale)"
)
_POSTED = text(
    "UPDATE season_closes SET posted_at = :now, message_id = :message"
    " WHERE guild_id = :guild AND season = :season"
)
_FINAL = text(
    "SELECT rank, user_id, name, games, wins, rating FROM season_standings"
    " WHERE guild_id = :guild AND season = :season ORDER BY rank, name, user_id LIMIT :limit"
)
_PLACED = text(
    "SELECT s.season, s.rank, (SELECT COUNT(*) FROM season_standings o"
    " WHERE o.guild_id = s.guild_id AND o.season = s.season) AS ranked"
    " FROM season_standings s WHERE s.guild_id = :guild AND s.user_id = :user"
    " ORDER BY s.season DESC LIMIT :limit"
)


# A quarter's key is `2026-Q4`, a month's `2026-11`.
_LAST_CLOSED = {
    "quarter": text("SELECT MAX(closed_at) FROM season_closes WHERE season LIKE '%-Q%'"),
    "month": text("SELECT MAX(closed_at) FROM season_closes WHERE season NOT LIKE '%-Q%'"),
}


@dataclass(frozen=True)
class Unposted:
    """A closed season whose standings still have to be posted, where, and when a post was last claimed."""

    guild_id: int
    season: str
    channel_id: int
    claimed_at: float | None


def close(connection: Connection, season: Season, length: SeasonLength, now: float) -> list[int]:
    """Close `season` for every server whose seasons last `length` and that played a rated game in it;
    their final standings (by rating, among members with a rated game in it) are written now. Returns the
    servers closed by this call (none when another process or an earlier start-up closed them)."""
    window = {"since": season.since, "until": season.until}
    closed = connection.execute(
        _CLOSE, {"season": season.key, "now": now, "default": DEFAULT_SEASON, "length": length, **window}
    )
    guilds = [int(guild) for guild in closed.scalars()]
    for guild in guilds:
        connection.execute(_STANDINGS, {"guild": guild, "season": season.key, **window})
    return guilds


def last_closed(connection: Connection, length: SeasonLength) -> float | None:
    """When a season of this length was last closed in any server (None: never): every season that had
    ended by then was closed then."""
    closed = connection.execute(_LAST_CLOSED[length]).scalar()
    return float(closed) if closed is not None else None


def unposted(connection: Connection) -> list[Unposted]:
    return [Unposted(int(r[0]), str(r[1]), int(r[2]), r[3]) for r in connection.execute(_UNPOSTED).all()]


def claim(connection: Connection, guild_id: int, season: str, now: float, lease: float) -> bool:
    """Take the post of a season's standings: True for exactly one claimer until the lease runs out."""
    values = {"guild": guild_id, "season": season, "now": now, "stale": now - lease}
    return connection.execute(_CLAIM, values).rowcount == 1


def mark_posted(
    connection: Connection, guild_id: int, season: str, now: float, message_id: int | None
) -> None:
    """The post is done (`message_id` None: it could not be sent, and is not tried again)."""
    values = {"guild": guild_id, "season": season, "now": now, "message": message_id}
    connection.execute(_POSTED, values)


def final_standings(
    connection: Connection, guild_id: int, season: str, limit: int = 10
) -> list[SeasonStanding]:
    rows = connection.execute(_FINAL, {"guild": guild_id, "season": season, "limit": limit}).all()
    return [SeasonStanding(int(r[0]), int(r[1]), str(r[2]), int(r[3]), int(r[4]), float(r[5])) for r in rows]


def placed(connection: Connection, guild_id: int, user_id: int, limit: int = 6) -> list[SeasonPlace]:
    """The seasons the member placed in here, the newest first: their rank and how many were ranked."""
    rows = connection.execute(_PLACED, {"guild": guild_id, "user": user_id, "limit": limit}).all()
    return [SeasonPlace(str(r[0]), int(r[1]), int(r[2])) for r in rows]


def forget(connection: Connection, user_id: int) -> None:
    """A member who asked to be forgotten leaves every season's standings."""
    connection.execute(text("DELETE FROM season_standings WHERE user_id = :user"), {"user": user_id})
