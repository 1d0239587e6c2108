"""Game reviews (`bot/storage/reviews.py`) and the `live_odds` server setting.

- `game_reviews`: one row per reviewed game, its review as JSON (every decision valued) and the measure it
  used ("win": chance to win, "turn": expected turn points), written once: a game is reviewed once.
- `review_players`: each seat's accuracy, decisions and costly mistakes, beside the game's server and end
  time, for `/farkle stats` (the last 20 reviewed games) and the accuracy leaderboard.
- `guild_config.live_odds`: NULL is the bot's default (on).
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"


def upgrade() -> None:
    op.create_table(
        "game_reviews",
        sa.Column("game_id", sa.Text, sa.ForeignKey("games.game_id", ondelete="CASCADE"), primary_key=True),
        sa.Column("measure", sa.Text, nullable=False),
        sa.Column("review", sa.Text, nullable=False),
    )
    op.create_table(
        "review_players",
        sa.Column("game_id", sa.Text, sa.ForeignKey("games.game_id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("user_id", sa.BigInteger, nullable=False),
        sa.Column("computer", sa.Integer, nullable=False),
        sa.Column("accuracy", sa.Float),  # NULL: no decision that mattered
        sa.Column("decisions", sa.Integer, nullable=False),
        sa.Column("mistakes", sa.Integer, nullable=False),
        sa.Column("ended_at", sa.Float, nullable=False),
    )
    op.create_index("review_players_member", "review_players", ["guild_id", "user_id", "ended_at"])
    op.add_column("guild_config", sa.Column("live_odds", sa.Integer))
