"""Daily attempts and their standings: every SQL statement about the daily challenge."""

from __future__ import annotations

from functools import partial

from sqlalchemy import text
from sqlalchemy.engine import Connection, RowMapping

from bot.core.records import Award, DailyRow, DailyStanding
from bot.storage import achievements
from bot.storage.database import Database

_COLUMNS = "user_id, day, guild_id, name, state, finished, score, line, started_at, ended_at"
_CREATE = text(
    f"INSERT INTO daily_attempts ({_COLUMNS}) VALUES (:user_id, :day, :guild_id, :name, :state, :finished,"
    " :score, :line, :started_at, :ended_at) ON CONFLICT (user_id, day) DO NOTHING"
)
_UPDATE = text(
    "UPDATE daily_attempts SET guild_id = :guild_id, name = :name, state = :state, finished = :finished,"
    " score = :score, line = :line, ended_at = :ended_at"
    " WHERE user_id = :user_id AND day = :day AND state = :previous AND finished = 0"
)
STANDINGS_SIZE = 10


def _row(row: RowMapping) -> DailyRow:
    return DailyRow(**{**row, "finished": bool(row["finished"])})


def load(connection: Connection, user_id: int, day: int) -> DailyRow | None:
    found = connection.execute(
        text(f"SELECT {_COLUMNS} FROM daily_attempts WHERE user_id = :user AND day = :day"),
        {"user": user_id, "day": day},
    ).mappings()
    row = found.first()
    return _row(row) if row is not None else None


def save(connection: Connection, row: DailyRow, previous: str | None) -> bool:
    """Write an attempt if the stored one is still `previous` (None: there is none yet); False if another
    process moved it on first. A finished attempt never changes again: one attempt a day, whatever retries."""
    values = {**row.__dict__, "finished": int(row.finished), "previous": previous}
    written = connection.execute(_CREATE if previous is None else _UPDATE, values)
    return bool(written.rowcount)


def unawarded(connection: Connection) -> list[DailyRow]:
    """Finished attempts whose achievements were never handed out (a crash came between)."""
    found = connection.execute(
        text(
            f"SELECT {_COLUMNS} FROM daily_attempts WHERE finished = 1 AND awarded = 0"
            " ORDER BY ended_at, user_id"
        )
    ).mappings()
    return [_row(row) for row in found]


def award(connection: Connection, awards: list[Award], user_id: int, day: int) -> list[Award]:
    """An attempt's achievements and the mark that they were handed out, in one transaction."""
    new = achievements.award(connection, awards)
    connection.execute(
        text("UPDATE daily_attempts SET awarded = 1 WHERE user_id = :user AND day = :day"),
        {"user": user_id, "day": day},
    )
    return new


def days_played(connection: Connection, user_id: int) -> list[int]:
    found = connection.execute(
        text("SELECT day FROM daily_attempts WHERE user_id = :user AND finished = 1 ORDER BY day"),
        {"user": user_id},
    )
    return [day for (day,) in found]


def standings(
    connection: Connection, first_day: int, last_day: int, guild_id: int | None
) -> list[DailyStanding]:
    """The best totals over these days (one day: that day's scores), on one server or everywhere."""
    where = "finished = 1 AND day BETWEEN :first AND :last"
    if guild_id is not None:
        where += " AND guild_id = :guild"
    found = connection.execute(
        text(
            "SELECT user_id, MAX(name) AS name, SUM(score) AS score, RANK() OVER (ORDER BY SUM(score) DESC)"
            f" AS rank FROM daily_attempts WHERE {where} GROUP BY user_id"
            " ORDER BY score DESC, user_id LIMIT :limit"
        ),
        {"first": first_day, "last": last_day, "guild": guild_id, "limit": STANDINGS_SIZE},
    ).mappings()
    return [DailyStanding(row["rank"], row["user_id"], row["name"], row["score"]) for row in found]


def forget(connection: Connection, user_id: int) -> None:
    connection.execute(text("DELETE FROM daily_attempts WHERE user_id = :user"), {"user": user_id})


class SqlDailyStore:
    """The daily manager's store (`bot.sessions.daily.door.DailyStore`) on the bot's database."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def load(self, user_id: int, day: int) -> DailyRow | None:
        return await self._db.read(partial(load, user_id=user_id, day=day))

    async def save(self, row: DailyRow, previous: str | None) -> bool:
        return await self._db.write(partial(save, row=row, previous=previous))

    async def unawarded(self) -> list[DailyRow]:
        return await self._db.read(unawarded)

    async def award_daily(self, awards: list[Award], user_id: int, day: int) -> list[Award]:
        return await self._db.write(partial(award, awards=awards, user_id=user_id, day=day))

    async def award_game(self, awards: list[Award]) -> list[Award]:
        return await self._db.write(partial(achievements.award, awards=awards))

    async def award_flawless_reviews(self, achievement: str, accuracy: float, decisions: int) -> list[Award]:
        return await self._db.write(
            partial(
                achievements.award_flawless_reviews,
                achievement=achievement,
                accuracy=accuracy,
                decisions=decisions,
            )
        )

    async def days_played(self, user_id: int) -> list[int]:
        return await self._db.read(partial(days_played, user_id=user_id))

    async def achievements(self, user_id: int) -> list[Award]:
        return await self._db.read(partial(achievements.of_member, user_id=user_id))

    async def standings(self, first_day: int, last_day: int, guild_id: int | None) -> list[DailyStanding]:
        return await self._db.read(
            partial(standings, first_day=first_day, last_day=last_day, guild_id=guild_id)
        )
