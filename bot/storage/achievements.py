"""Achievements: one row per member and achievement, so awarding is idempotent whatever repeats it."""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.engine import Connection

from bot.core.records import Award

_AWARD = text(
    "INSERT INTO achievements (user_id, achievement, earned_at, source)"
    " VALUES (:user_id, :achievement, :earned_at, :source) ON CONFLICT (user_id, achievement) DO NOTHING"
)


def award(connection: Connection, awards: list[Award]) -> list[Award]:
    """Record these awards; returns the ones that are new (a replayed event or a retry adds nothing)."""
    new = []
    for each in sorted(awards, key=lambda a: (a.user_id, a.achievement)):  # one lock order for all writers
        if connection.execute(_AWARD, each.__dict__).rowcount:
            new.append(each)
    return new


# Members' flawless reviewed seats (a member forgotten in that game is left out), earliest first.
_FLAWLESS_SEATS = text(
    "SELECT r.user_id, r.game_id, r.ended_at FROM review_players r"
    " JOIN game_players p ON p.game_id = r.game_id AND p.seat = r.seat"
    " WHERE r.computer = 0 AND p.forgotten = 0 AND r.mistakes = 0 AND r.accuracy >= :accuracy"
    " AND r.decisions >= :decisions AND NOT EXISTS (SELECT 1 FROM achievements a"
    " WHERE a.user_id = r.user_id AND a.achievement = :achievement) ORDER BY r.ended_at, r.game_id"
)


def award_flawless_reviews(
    connection: Connection, achievement: str, accuracy: float, decisions: int
) -> list[Award]:
    """Award `achievement` to every member with a stored review this good who lacks it (what a crash
    between storing a review and awarding it left undone); their earliest such game is the source."""
    earliest: dict[int, Award] = {}
    for user_id, game_id, ended_at in connection.execute(
        _FLAWLESS_SEATS, {"accuracy": accuracy, "decisions": decisions, "achievement": achievement}
    ).all():
        earliest.setdefault(int(user_id), Award(int(user_id), achievement, ended_at, game_id))
    return award(connection, list(earliest.values()))


def of_member(connection: Connection, user_id: int) -> list[Award]:
    found = connection.execute(
        text(
            "SELECT user_id, achievement, earned_at, source FROM achievements WHERE user_id = :user"
            " ORDER BY earned_at, achievement"
        ),
        {"user": user_id},
    ).mappings()
    return [Award(row["user_id"], row["achievement"], row["earned_at"], row["source"]) for row in found]


def forget(connection: Connection, user_id: int) -> None:
    connection.execute(text("DELETE FROM achievements WHERE user_id = :user"), {"user": user_id})
