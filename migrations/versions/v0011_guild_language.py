"""The language of a server's boards and results ("de", "pt-BR", ...). NULL means "auto": the server's own
locale as Discord reports it, else English."""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"


def upgrade() -> None:
    op.add_column("guild_config", sa.Column("language", sa.Text))
