"""Revision 0015 moves each session's board, turn ping and route out of the session row into the board
ledger, on SQLite and PostgreSQL; the session's saved state keeps no Discord message id."""

from __future__ import annotations

import json

import sqlalchemy as sa

from bot.core.database_url import DatabaseUrl
from bot.sessions.session import Session
from bot.storage import open_database
from bot.storage.boards import SqlBoardLedger
from bot.storage.sessions import SqlSessionStore
from tests.storage.test_results import ANA, BEN, GUILD, finished, seat
from tests.storage.test_schema import written_at

_INSERT = sa.text(
    "INSERT INTO sessions (channel_id, guild_id, game_id, stage, version, board_message_id, deadline,"
    " state, shown_version, revision, ping_message_id, pinged_turn)"
    " VALUES (:channel, :guild, :game, 'playing', :version, :board, NULL, :state, :shown, 1, :ping, :turn)"
)


def _format_3(session: Session, *, board: int | None, routes: bool) -> str:
    """The session as a bot before the ledger saved it: its board, ping and route inside the JSON."""
    state = json.loads(session.dump())
    state.update(format=3, board_message_id=board, ping_message_id=444, pinged_turn=2)
    state["table"]["channel_routes"] = routes
    return json.dumps(state)


async def test_0015_moves_every_sessions_board_into_the_ledger(blank_database_url: DatabaseUrl) -> None:
    in_server, in_dm = (
        finished("g1", [seat(ANA), seat(BEN)]),
        finished("g2", [seat(ANA), seat(BEN)], channel=11),
    )
    with written_at(blank_database_url, "0014") as connection:
        rows = [
            # the ping in the row's own columns (written behind the moves) wins over the JSON's
            (in_server, 10, 900, 5, 555, 3, _format_3(in_server, board=900, routes=True)),
            (in_dm, 11, None, None, None, None, _format_3(in_dm, board=901, routes=False)),
        ]
        for session, channel, board, shown, ping, turn, state in rows:
            values = {"channel": channel, "guild": GUILD, "game": session.game_id}
            values |= {"version": session.version, "board": board, "state": state, "shown": shown}
            connection.execute(_INSERT, values | {"ping": ping, "turn": turn})

    db, applied = await open_database(blank_database_url)
    try:
        assert applied[0] == "0015" and applied == sorted(applied), "0015 first, then the revisions after it"
        boards = {row.game_id: row for row in await SqlBoardLedger(db).load(["g1", "g2"])}
        server, dm = boards["g1"], boards["g2"]
        assert (server.channel_id, server.route, server.message_id, server.shown_version) == (
            10,
            "channel",
            900,
            5,
        )
        assert (server.ping_message_id, server.pinged_turn) == (555, 3)
        assert (dm.channel_id, dm.route, dm.message_id, dm.shown_version) == (11, "token", 901, None)
        assert (dm.ping_message_id, dm.pinged_turn) == (444, 2), "the JSON's ping when the columns had none"
        for stored in await SqlSessionStore(db, lambda *args: None).load_all():  # type: ignore[arg-type]
            state = json.loads(stored.state)
            assert not {"board_message_id", "ping_message_id", "pinged_turn"} & set(state)
            assert "channel_routes" not in state["table"]
            assert Session.from_stored(stored).game_id in boards
    finally:
        await db.close()


def test_a_format_3_session_loads_without_its_message_ids() -> None:
    """A row a crash kept from the migration's rewrite still loads: the upgrade drops what moved."""
    session = finished("g1", [seat(ANA), seat(BEN)])
    loaded = Session.load(_format_3(session, board=900, routes=False))
    assert json.loads(loaded.dump())["format"] == 4
    assert "900" not in loaded.dump() and loaded.snapshot() == session.snapshot()
