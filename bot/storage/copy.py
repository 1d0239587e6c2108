"""`copy-db`: a SQLite database's every row into an empty PostgreSQL one, so a bot that started small
keeps its history when it moves to several shard processes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from bot.storage.database import Database

BATCH = 1000
_SCHEMA_TABLES = {"alembic_version", "schema_migrations"}  # each side has its own migration history


class CopyRefused(RuntimeError):
    """The target can't take the copy (not empty, not PostgreSQL): nothing was written."""


@dataclass(frozen=True)
class Copied:
    table: str
    rows: int


async def copy_database(
    source: Database, target: Database, progress: Callable[[Copied], None]
) -> list[Copied]:
    """Copy every table, parents first, in one transaction on the target, and check the counts.

    Both databases must already be migrated to this bot's schema. Refused if the target holds any row;
    a failure part-way leaves the target as empty as it was.
    """
    if target.dialect != "postgresql":
        raise CopyRefused("copy-db copies into PostgreSQL: give --to postgresql://user@host/database")
    return await target.write(partial(_copy_all, source, progress))


def _copy_all(source: Database, progress: Callable[[Copied], None], target: Connection) -> list[Copied]:
    metadata = sa.MetaData()
    metadata.reflect(target)
    tables = [table for table in metadata.sorted_tables if table.name not in _SCHEMA_TABLES]
    busy = [table.name for table in tables if _count(target, table.name)]
    if busy:
        raise CopyRefused(f"the target database is not empty ({', '.join(busy)} hold rows): use an empty one")
    copied = []
    with source.reading() as origin:
        for table in tables:
            rows = _copy_table(origin, target, table)
            if _count(target, table.name) != rows or _count(origin, table.name) != rows:
                raise RuntimeError(f"{table.name}: the copy's row count does not match; nothing was copied")
            copied.append(Copied(table.name, rows))
            progress(copied[-1])
    target.execute(
        sa.text(
            "SELECT setval(pg_get_serial_sequence('config_audit', 'id'),"
            " COALESCE((SELECT MAX(id) FROM config_audit), 0) + 1, false)"
        )
    )  # copied ids came from SQLite: the next change-log entry numbers on from the last one copied
    return copied


def _count(connection: Connection, table: str) -> int:
    return int(connection.execute(sa.text(f"SELECT COUNT(*) FROM {table}")).scalar_one())


def _copy_table(origin: Connection, target: Connection, table: sa.Table) -> int:
    """Stream the rows across in batches. SQLite keeps what it was given; PostgreSQL wants each column's
    own type (a REAL that SQLite stored as an integer goes in as a float)."""
    names = [column.name for column in table.columns]
    convert = [_converter(column.type) for column in table.columns]
    order = ", ".join(column.name for column in table.primary_key.columns) or ", ".join(names)
    result = origin.execution_options(yield_per=BATCH).execute(
        sa.text(f"SELECT {', '.join(names)} FROM {table.name} ORDER BY {order}")
    )
    rows = 0
    for batch in result.partitions():
        target.execute(
            table.insert(),
            [
                {
                    name: None if value is None else to(value)
                    for name, to, value in zip(names, convert, row, strict=True)
                }
                for row in batch
            ],
        )
        rows += len(batch)
    return rows


def _converter(kind: sa.types.TypeEngine[object]) -> Callable[[object], object]:
    if isinstance(kind, sa.Float):
        return lambda value: float(value)  # type: ignore[arg-type]
    if isinstance(kind, sa.Integer):
        return lambda value: int(value)  # type: ignore[call-overload]
    if isinstance(kind, sa.LargeBinary):
        return lambda value: bytes(value)  # type: ignore[call-overload]
    return lambda value: value
