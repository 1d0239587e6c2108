"""The board ledger: which messages show which game, owned by the delivery side (`cogs.board.ledger`).

A game's saved state knows no Discord message: its board, its follow boards and its turn ping are rows
here, keyed by game, channel and role, with the version each last showed (a start-up redraws the ones
that fell behind) and how each is reached (a channel route, or only interaction tokens). A tournament's
card is a row here too (role "card", keyed by the tournament's id in `game_id`)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from functools import partial
from typing import Literal

from sqlalchemy import bindparam, text
from sqlalchemy.engine import Connection, RowMapping

from bot.storage.database import Database

Role = Literal["board", "follow", "card"]
Route = Literal["channel", "token"]


@dataclass(frozen=True)
class BoardRow:
    """One message showing a game."""

    game_id: str
    channel_id: int
    role: Role
    route: Route
    message_id: int | None
    shown_version: int | None
    ping_message_id: int | None = None
    pinged_turn: int | None = None
    owner_id: int | None = None  # a follow board: who posted it


@dataclass(frozen=True)
class BoardMark:
    """A small fact written behind the moves: the version a message now shows, and for a game's board
    its turn ping (message id, the turn it pinged) when one was posted or deleted."""

    game_id: str
    channel_id: int
    role: Role
    shown_version: int | None
    ping: tuple[int | None, int | None] | None = None


_COLUMNS = (
    "game_id, channel_id, role, route, message_id, shown_version, ping_message_id, pinged_turn, owner_id"
)
# A new message for a game's board replaces its older one (it keeps the turn ping), and a channel's board
# belongs to its newest game: a rematch's board takes over from the last game's.
_RETIRE_OLDER = text(
    "DELETE FROM boards WHERE channel_id = :channel_id AND role = 'board' AND game_id <> :game_id"
)
_ATTACH = text(
    f"INSERT INTO boards ({_COLUMNS}) VALUES (:game_id, :channel_id, :role, :route, :message_id,"
    " :shown_version, :ping_message_id, :pinged_turn, :owner_id)"
    " ON CONFLICT (game_id, channel_id, role) DO UPDATE SET route = excluded.route,"
    " message_id = excluded.message_id, shown_version = excluded.shown_version,"
    " owner_id = excluded.owner_id"
)
_SHOWN = text(
    "UPDATE boards SET shown_version = :version WHERE game_id = :game AND channel_id = :channel"
    " AND role = :role AND (shown_version IS NULL OR shown_version < :version)"
)
_PINGED = text(
    "UPDATE boards SET ping_message_id = :message, pinged_turn = :turn"
    " WHERE game_id = :game AND channel_id = :channel AND role = :role"
)
_OF_GAMES = text(
    f"SELECT {_COLUMNS} FROM boards WHERE game_id IN :games ORDER BY game_id, channel_id, role"
).bindparams(bindparam("games", expanding=True))
_CARD = text(f"SELECT {_COLUMNS} FROM boards WHERE game_id = :tournament AND role = 'card'")
_FORGET = text("DELETE FROM boards WHERE game_id = :game AND channel_id = :channel AND role = :role")
_FORGET_GAME = text("DELETE FROM boards WHERE game_id = :game")


class SqlBoardLedger:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def attach(self, row: BoardRow) -> None:
        """Record the message that now shows a game (before anything relies on finding it again)."""
        await self._db.write(partial(_attach, row))

    async def write_marks(self, marks: list[BoardMark]) -> None:
        """What each message now shows (a shown version never moves backwards) and each board's turn ping,
        many in one write, in key order (writers that lock rows in one order don't deadlock each other)."""
        ordered = sorted(marks, key=lambda mark: (mark.game_id, mark.channel_id, mark.role))
        await self._db.write(partial(_write_marks, ordered))

    async def load(self, game_ids: Collection[str]) -> list[BoardRow]:
        """The messages showing these games (a shard's restored games; other shards' rows are theirs)."""
        if not game_ids:
            return []
        wanted = {"games": list(game_ids)}
        rows = await self._db.read(lambda connection: connection.execute(_OF_GAMES, wanted).mappings().all())
        return [_row(row) for row in rows]

    async def card(self, tournament_id: str) -> BoardRow | None:
        """The message showing a tournament's card (`attach` stores it, role "card")."""
        found = await self._db.read(
            lambda connection: connection.execute(_CARD, {"tournament": tournament_id}).mappings().first()
        )
        return _row(found) if found is not None else None

    async def forget(self, game_id: str, channel_id: int | None = None, role: Role = "follow") -> None:
        """A message stopped showing a game (a follow board ended); without a channel, the whole game."""
        if channel_id is None:
            await self._db.write(lambda c: c.execute(_FORGET_GAME, {"game": game_id}))
        else:
            where = {"game": game_id, "channel": channel_id, "role": role}
            await self._db.write(lambda c: c.execute(_FORGET, where))


def _attach(row: BoardRow, connection: Connection) -> None:
    values = {key: getattr(row, key) for key in _COLUMNS.split(", ")}
    if row.role == "board":
        connection.execute(_RETIRE_OLDER, values)
    connection.execute(_ATTACH, values)


def _write_marks(marks: list[BoardMark], connection: Connection) -> None:
    keys = [{"game": m.game_id, "channel": m.channel_id, "role": m.role} for m in marks]
    shown = [
        {**key, "version": m.shown_version}
        for key, m in zip(keys, marks, strict=True)
        if m.shown_version is not None
    ]
    pings = [
        {**key, "message": m.ping[0], "turn": m.ping[1]}
        for key, m in zip(keys, marks, strict=True)
        if m.ping is not None
    ]
    if shown:
        connection.execute(_SHOWN, shown)
    if pings:
        connection.execute(_PINGED, pings)


def _row(row: RowMapping) -> BoardRow:
    return BoardRow(
        game_id=str(row["game_id"]),
        channel_id=int(row["channel_id"]),
        role=row["role"],
        route=row["route"],
        message_id=row["message_id"],
        shown_version=row["shown_version"],
        ping_message_id=row["ping_message_id"],
        pinged_turn=row["pinged_turn"],
        owner_id=row["owner_id"],
    )
