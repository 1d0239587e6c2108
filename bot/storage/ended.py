"""Finished games read back as the archiving transaction stored them, for the features that must still
heed them after a crash: the stream's announcement of an end, a game's review, a tournament match's result."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import bindparam, text
from sqlalchemy.engine import Connection

from bot.core.records import GameRecord, PlayerRecord

# A seat's columns in `game_players`, in `PlayerRecord`'s order (results writes them, this reads them).
PLAYER_COLUMNS = (
    "seat, user_id, name, computer, team, placement, won, final_bank, turns, points, best_turn, farkles,"
    " hot_dice"
)

_RECORD_COLUMNS = (
    "SELECT game_id, guild_id, channel_id, rules, dice_start, actions, started_at, ended_at, end_reason"
    " FROM games"
)
_UNANNOUNCED = text(f"{_RECORD_COLUMNS} WHERE announced = 0 ORDER BY ended_at, game_id")
# Announced games without a stored review: their review was running when the process died.
_UNREVIEWED = text(
    f"{_RECORD_COLUMNS} WHERE announced = 1 AND ended_at >= :since"
    " AND NOT EXISTS (SELECT 1 FROM game_reviews r WHERE r.game_id = games.game_id)"
    " ORDER BY ended_at, game_id"
)


def unannounced(connection: Connection) -> list[GameRecord]:
    """Games archived but not yet announced on the game-events stream (a crash came in between), as
    the archiving transaction stored them, oldest first."""
    return _records(connection, connection.execute(_UNANNOUNCED).all())


def records_of(connection: Connection, game_ids: list[str]) -> list[GameRecord]:
    """Those of these games that ended and were archived, oldest first."""
    if not game_ids:
        return []
    found = connection.execute(
        text(f"{_RECORD_COLUMNS} WHERE game_id IN :games ORDER BY ended_at, game_id").bindparams(
            bindparam("games", expanding=True)
        ),
        {"games": game_ids},
    ).all()
    return _records(connection, found)


def unreviewed(connection: Connection, since: float) -> list[GameRecord]:
    """Games that ended since `since`, were announced, and have no review, oldest first."""
    return _records(connection, connection.execute(_UNREVIEWED, {"since": since}).all())


def _records(connection: Connection, games: Sequence[Sequence[Any]]) -> list[GameRecord]:
    """These `games` rows with their seats, as the archiving transaction stored them."""
    if not games:
        return []
    seats = connection.execute(
        text(
            f"SELECT game_id, {PLAYER_COLUMNS} FROM game_players WHERE game_id IN :games ORDER BY seat"
        ).bindparams(bindparam("games", expanding=True)),
        {"games": [game[0] for game in games]},
    ).all()
    players: dict[str, list[PlayerRecord]] = {}
    for seat in seats:
        values = seat._mapping
        player = PlayerRecord(**{key: values[key] for key in values if key != "game_id"})
        players.setdefault(seat[0], []).append(replace(player, won=bool(player.won)))
    return [
        GameRecord(
            game_id=game[0],
            guild_id=int(game[1]),
            channel_id=int(game[2]),
            rules_json=game[3],
            dice_start_json=game[4],
            actions_json=game[5],
            started_at=game[6],
            ended_at=game[7],
            end_reason=game[8],
            players=tuple(players.get(game[0], ())),
        )
        for game in games
    ]
