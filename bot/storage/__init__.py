"""SQLite storage: connection, migrations and the repositories that hold every SQL statement."""

from bot.storage.database import (
    DatabaseUnavailable,
    SchemaTooNew,
    connect,
    migrate,
    open_database,
    transaction,
)

__all__ = ["DatabaseUnavailable", "SchemaTooNew", "connect", "migrate", "open_database", "transaction"]
