"""Achievements: one row per member and achievement, so awarding is idempotent whatever repeats it."""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.engine import Connection

from bot.records import Award

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
