"""Alembic's migration scripts for the bot's schema (run by `bot.storage.schema.migrate`)."""
