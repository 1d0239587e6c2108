"""The daily challenge and achievements.

- `daily_attempts`: one row per member and UTC day (the primary key makes it one attempt a day), the
  game's JSON, and once finished its score and turn line; `awarded` is 0 until the attempt's
  achievements were handed out (a start-up hands out what a crash left at 0).
- `achievements`: one row per member and achievement (the primary key makes an award idempotent), with
  when and from what (a game id or `daily:<day>`) it was earned.
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"


def upgrade() -> None:
    op.create_table(
        "daily_attempts",
        sa.Column("user_id", sa.BigInteger, primary_key=True),
        sa.Column("day", sa.Integer, primary_key=True),
        sa.Column("guild_id", sa.BigInteger),
        sa.Column("name", sa.Text().with_variant(sa.Text(collation="C"), "postgresql"), nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("finished", sa.Integer, nullable=False, server_default="0"),
        sa.Column("score", sa.Integer, nullable=False, server_default="0"),
        sa.Column("line", sa.Text, nullable=False, server_default=""),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("ended_at", sa.Float),
        sa.Column("awarded", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_index("daily_attempts_day", "daily_attempts", ["day", "finished", "score"])
    op.create_index("daily_attempts_unawarded", "daily_attempts", ["finished", "awarded"])
    op.create_table(
        "achievements",
        sa.Column("user_id", sa.BigInteger, primary_key=True),
        sa.Column("achievement", sa.String(32), primary_key=True),
        sa.Column("earned_at", sa.Float, nullable=False),
        sa.Column("source", sa.String(64), nullable=False),
    )
