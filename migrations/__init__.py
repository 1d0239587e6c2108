"""Alembic's script folder for the bot's schema. A clone runs it as `migrations/`; the wheel ships it inside
the package as `bot.migrations` (pyproject's package-dir mapping), where `bot.storage.schema` finds it."""
