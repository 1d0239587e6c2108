"""Each reviewed decision's loss, for the skill rating (`bot/storage/reviews.py`, docs/LUCK_AND_SKILL.md).

- `review_decisions`: one row per decision a member made in a reviewed game (computers' seats are not
  kept), in the review's measure (`win`: chance to win given away, `turn`: expected turn points), with the
  game's server and end time: the skill rating averages a member's last 50 decisions in chances to win
  in rated games (`games.counted`), the `skill` leaderboard ranks by it.
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"  # re-chained after 0016 (tournaments)


def upgrade() -> None:
    op.create_table(
        "review_decisions",
        sa.Column("game_id", sa.Text, sa.ForeignKey("games.game_id", ondelete="CASCADE"), primary_key=True),
        sa.Column("decision", sa.Integer, primary_key=True, autoincrement=False),  # its index in the game
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("user_id", sa.BigInteger, nullable=False),
        sa.Column("measure", sa.Text, nullable=False),
        sa.Column("loss", sa.Float, nullable=False),
        sa.Column("ended_at", sa.Float, nullable=False),
    )
    op.create_index("review_decisions_member", "review_decisions", ["guild_id", "user_id", "ended_at"])
