"""Storage: the database (SQLite or PostgreSQL), its schema, and the repositories that hold every SQL
statement."""

from bot.core.database_url import DatabaseUrl
from bot.storage.database import Database, DatabaseBusy, DatabaseUnavailable, SchemaBehind, SchemaTooNew
from bot.storage.schema import migrate, open_database

__all__ = [
    "Database",
    "DatabaseBusy",
    "DatabaseUnavailable",
    "DatabaseUrl",
    "SchemaBehind",
    "SchemaTooNew",
    "migrate",
    "open_database",
]
