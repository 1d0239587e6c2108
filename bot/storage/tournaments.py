"""Tournaments, their entrants and the games counted for their matches: every SQL statement about them."""

from __future__ import annotations

from dataclasses import asdict
from functools import partial

from sqlalchemy import bindparam, text
from sqlalchemy.engine import Connection, RowMapping
from sqlalchemy.exc import IntegrityError

from bot.core.records import EntrantRow, GameRecord, TournamentRow
from bot.storage import ended
from bot.storage.database import Database
from bot.storage.results import FORGOTTEN

_COLUMNS = (
    "tournament_id, guild_id, channel_id, host_id, name, format, rounds, best_of, rules, match_deadline,"
    " signup_until, stage, state, created_at, ended_at, revision, crowned_at"
)
_INSERT = text(
    f"INSERT INTO tournaments ({_COLUMNS}) VALUES (:tournament_id, :guild_id, :channel_id, :host_id, :name,"
    " :format, :rounds, :best_of, :rules, :match_deadline, :signup_until, :stage, :state, :created_at,"
    " :ended_at, 0, NULL)"
)
_UPDATE = text(
    "UPDATE tournaments SET host_id = :host_id, stage = :stage, state = :state,"
    " ended_at = :ended_at, revision = revision + 1"
    " WHERE tournament_id = :tournament_id AND revision = :revision"
)
_COUNT_GAME = text(
    "INSERT INTO tournament_games (game_id, tournament_id, match_key, winner_id, counted_at)"
    " VALUES (:game_id, :tournament_id, :match_key, :winner_id, :counted_at) ON CONFLICT (game_id) DO NOTHING"
)
_JOIN = text(
    "INSERT INTO tournament_entrants (tournament_id, user_id, name, joined_at)"
    " VALUES (:tournament_id, :user_id, :name, :joined_at) ON CONFLICT (tournament_id, user_id) DO NOTHING"
)
# Entrants of one or more tournaments, in the order they joined.
_ENTRANTS = text(
    "SELECT tournament_id, user_id, name, joined_at FROM tournament_entrants"
    " WHERE tournament_id IN :ids ORDER BY joined_at, user_id"
).bindparams(bindparam("ids", expanding=True))


class TournamentTaken(Exception):
    """Another tournament is already signing up in this channel: nothing was written."""


class StaleTournament(Exception):
    """The stored tournament moved on since it was read: the transaction is rolled back."""


def _row(found: RowMapping) -> TournamentRow:
    return TournamentRow(**found)


def create(connection: Connection, row: TournamentRow) -> None:
    """A new tournament; raises `TournamentTaken` if one is signing up in the channel (the unique index
    decides between two created at once)."""
    taken = connection.execute(
        text("SELECT 1 FROM tournaments WHERE channel_id = :channel AND stage = 'signup'"),
        {"channel": row.channel_id},
    ).first()
    if taken is not None:
        raise TournamentTaken(row.channel_id)
    connection.execute(_INSERT, asdict(row))  # two at once on PostgreSQL: the unique index refuses one


def save(connection: Connection, row: TournamentRow) -> bool:
    """Write a tournament's stage and state if it is still at `row.revision`; False if it moved on."""
    return bool(connection.execute(_UPDATE, asdict(row)).rowcount)


def count_game(connection: Connection, row: TournamentRow, game: dict[str, object]) -> bool:
    """Fold one finished game into a tournament: its `tournament_games` row and the new state, in one
    transaction; False (nothing written) when this game was already counted, or the row moved on."""
    if not connection.execute(_COUNT_GAME, {**game, "tournament_id": row.tournament_id}).rowcount:
        return False
    if not save(connection, row):
        raise StaleTournament(row.tournament_id)  # rolls the game's row back with it
    return True


def load(connection: Connection, tournament_id: str) -> TournamentRow | None:
    found = connection.execute(
        text(f"SELECT {_COLUMNS} FROM tournaments WHERE tournament_id = :id"), {"id": tournament_id}
    ).mappings()
    row = found.first()
    return _row(row) if row is not None else None


def running(connection: Connection) -> list[TournamentRow]:
    """Tournaments signing up or being played: what a start-up brings back."""
    found = connection.execute(
        text(f"SELECT {_COLUMNS} FROM tournaments WHERE stage IN ('signup', 'running') ORDER BY created_at")
    ).mappings()
    return [_row(row) for row in found]


def uncrowned(connection: Connection) -> list[TournamentRow]:
    """Tournaments over whose champion was not handed the achievement (the process died in between)."""
    found = connection.execute(
        text(f"SELECT {_COLUMNS} FROM tournaments WHERE stage = 'over' AND crowned_at IS NULL")
    ).mappings()
    return [_row(row) for row in found]


def mark_crowned(connection: Connection, tournament_id: str, now: float) -> None:
    connection.execute(
        text("UPDATE tournaments SET crowned_at = :now WHERE tournament_id = :id"),
        {"now": now, "id": tournament_id},
    )


def of_guild(
    connection: Connection, guild_id: int, limit: int = 25
) -> list[tuple[TournamentRow, list[EntrantRow]]]:
    """A server's tournaments, newest first, each with its entrants (one query for all of them)."""
    found = connection.execute(
        text(
            f"SELECT {_COLUMNS} FROM tournaments WHERE guild_id = :guild"
            " ORDER BY created_at DESC, tournament_id LIMIT :limit"
        ),
        {"guild": guild_id, "limit": limit},
    ).mappings()
    rows = [_row(row) for row in found]
    if not rows:
        return []
    signed: dict[str, list[EntrantRow]] = {row.tournament_id: [] for row in rows}
    for entrant in connection.execute(_ENTRANTS, {"ids": list(signed)}).mappings():
        signed[entrant["tournament_id"]].append(EntrantRow(**entrant))
    return [(row, signed[row.tournament_id]) for row in rows]


def join(connection: Connection, entrant: EntrantRow) -> bool:
    """Sign a member up; False if they already were (the primary key decides between double presses)."""
    return bool(connection.execute(_JOIN, asdict(entrant)).rowcount)


def leave(connection: Connection, tournament_id: str, user_id: int) -> bool:
    gone = connection.execute(
        text("DELETE FROM tournament_entrants WHERE tournament_id = :id AND user_id = :user"),
        {"id": tournament_id, "user": user_id},
    )
    return bool(gone.rowcount)


def entrants(connection: Connection, tournament_id: str) -> list[EntrantRow]:
    found = connection.execute(_ENTRANTS, {"ids": [tournament_id]}).mappings()
    return [EntrantRow(**row) for row in found]


def ratings(connection: Connection, guild_id: int, user_ids: list[int]) -> dict[int, float]:
    """The server's leaderboard rating of these members (those who have one)."""
    if not user_ids:
        return {}
    found = connection.execute(
        text(
            "SELECT user_id, rating FROM player_stats WHERE guild_id = :guild AND games > 0"
            " AND rating IS NOT NULL AND user_id IN :users"
        ).bindparams(bindparam("users", expanding=True)),
        {"guild": guild_id, "users": user_ids},
    ).all()
    return {int(user): float(rating) for user, rating in found}


def forget(connection: Connection, user_id: int) -> None:
    """Privacy: the member's name in every tournament becomes `FORGOTTEN`; brackets keep their id so
    results still add up."""
    connection.execute(
        text("UPDATE tournament_entrants SET name = :name, forgotten = 1 WHERE user_id = :user"),
        {"name": FORGOTTEN, "user": user_id},
    )


class SqlTournamentStore:
    """The `TournamentStore` the tournament door writes through."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def create(self, row: TournamentRow) -> bool:
        """False if another tournament is signing up in the channel."""
        try:
            await self._db.write(partial(create, row=row))
        except (TournamentTaken, IntegrityError):
            return False
        return True

    async def save(self, row: TournamentRow) -> bool:
        return await self._db.write(partial(save, row=row))

    async def count_game(self, row: TournamentRow, game: dict[str, object]) -> bool:
        """`game`: its `game_id`, `match_key`, `winner_id` and `counted_at`."""
        try:
            return await self._db.write(partial(count_game, row=row, game=game))
        except StaleTournament:
            return False

    async def load(self, tournament_id: str) -> TournamentRow | None:
        return await self._db.read(partial(load, tournament_id=tournament_id))

    async def running(self) -> list[TournamentRow]:
        return await self._db.read(running)

    async def uncrowned(self) -> list[TournamentRow]:
        return await self._db.read(uncrowned)

    async def mark_crowned(self, tournament_id: str, now: float) -> None:
        await self._db.write(partial(mark_crowned, tournament_id=tournament_id, now=now))

    async def ended_games(self, game_ids: list[str]) -> list[GameRecord]:
        return await self._db.read(partial(ended.records_of, game_ids=game_ids))

    async def of_guild(self, guild_id: int) -> list[tuple[TournamentRow, list[EntrantRow]]]:
        return await self._db.read(partial(of_guild, guild_id=guild_id))

    async def join(self, entrant: EntrantRow) -> bool:
        return await self._db.write(partial(join, entrant=entrant))

    async def leave(self, tournament_id: str, user_id: int) -> bool:
        return await self._db.write(partial(leave, tournament_id=tournament_id, user_id=user_id))

    async def entrants(self, tournament_id: str) -> list[EntrantRow]:
        return await self._db.read(partial(entrants, tournament_id=tournament_id))

    async def ratings(self, guild_id: int, user_ids: list[int]) -> dict[int, float]:
        return await self._db.read(partial(ratings, guild_id=guild_id, user_ids=user_ids))
