"""Revision 0020 moves each tournament's card message into the board ledger (the tournament's row keeps
no Discord message id), marks the tournaments already over as crowned and indexes games by their end,
on SQLite and PostgreSQL, without touching the tournaments' entrants."""

from __future__ import annotations

import sqlalchemy as sa

from bot.core.database_url import DatabaseUrl
from bot.storage import open_database
from bot.storage.boards import SqlBoardLedger
from tests.storage.test_schema import written_at

_TOURNAMENT = sa.text(
    "INSERT INTO tournaments (tournament_id, guild_id, channel_id, host_id, name, format, rounds, best_of,"
    " rules, match_deadline, stage, state, card_message_id, created_at, ended_at, revision)"
    " VALUES (:id, 1, :channel, 9, 'Cup', 'single', 2, 1, '{}', 600, :stage, '{}', :card, 0, :ended, 3)"
)
_ENTRANT = sa.text(
    "INSERT INTO tournament_entrants (tournament_id, user_id, name, joined_at) VALUES (:id, 5, 'p5', 0)"
)


async def test_0020_moves_every_card_into_the_ledger(blank_database_url: DatabaseUrl) -> None:
    with written_at(blank_database_url, "0018") as connection:
        for tournament, channel, stage, card, ended in [
            ("running1", 500, "running", 9001, None),
            ("over1", 501, "over", 9002, 50.0),
            ("nocard1", 502, "signup", None, None),
        ]:
            values = {"id": tournament, "channel": channel, "stage": stage, "card": card, "ended": ended}
            connection.execute(_TOURNAMENT, values)
            connection.execute(_ENTRANT, {"id": tournament})

    db, applied = await open_database(blank_database_url)
    try:
        assert "0020" in applied
        ledger = SqlBoardLedger(db)
        cards = {t: await ledger.card(t) for t in ("running1", "over1", "nocard1")}
        assert {t: (c.channel_id, c.message_id) if c else None for t, c in cards.items()} == {
            "running1": (500, 9001),
            "over1": (501, 9002),
            "nocard1": None,
        }

        def read(connection: sa.Connection) -> tuple[list[str], list[tuple[object, ...]], int]:
            columns = [c["name"] for c in sa.inspect(connection).get_columns("tournaments")]
            crowned = connection.execute(
                sa.text("SELECT tournament_id, crowned_at FROM tournaments ORDER BY tournament_id")
            ).all()
            entrants = connection.execute(sa.text("SELECT COUNT(*) FROM tournament_entrants")).scalar()
            return columns, [tuple(row) for row in crowned], int(entrants or 0)

        columns, crowned, entrants = await db.read(read)
        assert "card_message_id" not in columns and "crowned_at" in columns
        assert crowned == [("nocard1", None), ("over1", 50.0), ("running1", None)], "over: crowned then"
        assert entrants == 3, "the tournaments' entrants are untouched"
        indexes = await db.read(lambda c: [i["name"] for i in sa.inspect(c).get_indexes("games")])
        assert "games_ended" in indexes
    finally:
        await db.close()
