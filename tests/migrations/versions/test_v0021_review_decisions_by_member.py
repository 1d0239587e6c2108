"""Revision 0021 indexes reviewed decisions by member alone (the skill shown everywhere) on SQLite and
PostgreSQL, keeping the decisions a bot of revision 0020 stored, which the skill then reads."""

from __future__ import annotations

from functools import partial

import pytest
import sqlalchemy as sa

from bot.core.database_url import DatabaseUrl
from bot.storage import open_database, reviews
from tests.storage.test_schema import written_at

_GAME = sa.text(
    "INSERT INTO games (game_id, guild_id, channel_id, rules, dice_start, actions, started_at, ended_at,"
    " end_reason, counted, announced) VALUES (:game, :guild, 5, '{}', '{}', '[]', 0, :ended, 'won', 0, 1)"
)
_SEAT = sa.text(
    "INSERT INTO game_players (game_id, seat, user_id, name, computer, team, placement, won, final_bank,"
    " turns, points, best_turn, farkles, hot_dice) VALUES (:game, 0, 7, 'ana', NULL, NULL, 1, 1, 10000,"
    " 9, 10000, 900, 1, 0)"
)
_DECISION = sa.text(
    "INSERT INTO review_decisions (game_id, decision, seat, guild_id, user_id, measure, loss, ended_at)"
    " VALUES (:game, :decision, 0, :guild, 7, 'win', :loss, :ended)"
)


async def test_0021_indexes_decisions_by_member_and_keeps_them(blank_database_url: DatabaseUrl) -> None:
    with written_at(blank_database_url, "0020") as connection:
        for game, guild, loss in [("g1", 1, 0.002), ("g2", 2, 0.004)]:
            connection.execute(_GAME, {"game": game, "guild": guild, "ended": 10.0})
            connection.execute(_SEAT, {"game": game})
            row = {"game": game, "guild": guild, "loss": loss, "ended": 10.0}
            connection.execute(_DECISION, [{**row, "decision": d} for d in range(5)])

    db, applied = await open_database(blank_database_url)
    try:
        assert "0021" in applied
        indexes = await db.read(lambda c: [i["name"] for i in sa.inspect(c).get_indexes("review_decisions")])
        assert "review_decisions_user" in indexes and "review_decisions_member" in indexes
        everywhere = await db.read(partial(reviews.skill_everywhere, user_id=7))
        assert everywhere == (pytest.approx(0.003), 10), "both servers' decisions, against computers too"
    finally:
        await db.close()
