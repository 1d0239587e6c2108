"""Alembic's entry point. The bot hands over its connection (`bot.storage.schema.migrate`); the `alembic`
command line (`alembic -c alembic.ini upgrade head`) opens the database the bot's settings name
(`DATABASE_URL` or `DATABASE_PATH`, from the environment or `.env`), under the same migration lock."""

from alembic import context

connection = context.config.attributes.get("connection")
if connection is not None:
    context.configure(connection=connection, transaction_per_migration=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    from logging.config import fileConfig

    import sqlalchemy as sa

    from bot.core.environment import Settings
    from bot.storage.database import sqlalchemy_url
    from bot.storage.schema import migration_lock

    if context.config.config_file_name is not None:
        fileConfig(context.config.config_file_name)
    where = Settings().database
    if where.sqlite_path is not None:
        where.sqlite_path.parent.mkdir(parents=True, exist_ok=True)
    engine = sa.create_engine(sqlalchemy_url(where), poolclass=sa.NullPool)
    with engine.connect() as opened, migration_lock(opened):
        context.configure(connection=opened, transaction_per_migration=True)
        with context.begin_transaction():
            context.run_migrations()
        opened.commit()
    engine.dispose()
