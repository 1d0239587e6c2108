"""SQLite storage: connection, migrations and the repositories that hold every SQL statement."""

from bot.storage.database import SchemaTooNew, connect, migrate, transaction

__all__ = ["SchemaTooNew", "connect", "migrate", "transaction"]
