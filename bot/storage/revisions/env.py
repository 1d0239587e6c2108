"""Alembic's entry point: migrations always run on the connection `bot.storage.schema` hands over."""

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, transaction_per_migration=True)
with context.begin_transaction():
    context.run_migrations()
