"""Another process holding what a write needs: the write gives up within a second, changing nothing,
so the player still hears back inside Discord's 3-second window."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from sqlalchemy import text

from bot.storage import Database, DatabaseBusy
from bot.storage.database import sqlalchemy_url
from tests.storage.test_results import ANA, BEN, Sessions, finished, seat


async def test_a_write_behind_another_process_lock_is_refused_in_time(database: Database) -> None:
    sessions = Sessions(database)
    session = finished("g1", [seat(ANA), seat(BEN)])
    await sessions.save(session)
    other = sa.create_engine(sqlalchemy_url(database.where), poolclass=sa.NullPool)
    with other.connect() as connection:
        if database.dialect == "sqlite":
            connection.exec_driver_sql("BEGIN IMMEDIATE")  # the whole file, as SQLite locks it
        else:
            connection.execute(text("SELECT * FROM sessions FOR UPDATE"))  # the game's row
        with pytest.raises(DatabaseBusy):
            await sessions.save(session)
        connection.rollback()
    other.dispose()
    await sessions.save(session)  # the lock is gone: the same write goes through
