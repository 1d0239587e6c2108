"""A session row's revision: every write checks and bumps it (compare-and-set), so two processes that
both think they hold a game (during a re-shard) can never both apply a move to it."""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"


def upgrade() -> None:
    op.add_column("sessions", sa.Column("revision", sa.Integer, nullable=False, server_default="0"))
