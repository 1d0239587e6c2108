"""Ratings on the friendly scale, and seasons.

- `player_stats.rating` and `player_recent.rating` were openskill's ordinal (mu − 3σ, about -1.8 after a
  first game); they become what members see: 1,000 + 40 × ordinal, never below 0
  (`bot.services.ratings.friendly`).
- `guild_config.season` (`month`, `quarter`; NULL: a month) and `season_channel` (where a season's final
  standings are posted; NULL: nowhere).
- `season_closes`: one row per server and ended season (the primary key makes closing it idempotent
  across processes), the channel chosen when it closed, and the post's claim and outcome, so the
  standings are posted once.
- `season_standings`: each ranked member's final line, kept.
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"  # re-chained after 0017 (review_decisions) when luck merged main

_FRIENDLY = "CASE WHEN 1000 + 40 * rating > 0 THEN 1000 + 40 * rating ELSE 0 END"


def upgrade() -> None:
    for table in ("player_stats", "player_recent"):
        op.execute(f"UPDATE {table} SET rating = {_FRIENDLY}")
    op.add_column("guild_config", sa.Column("season", sa.String(16)))
    op.add_column("guild_config", sa.Column("season_channel", sa.BigInteger))
    op.create_table(
        "season_closes",
        sa.Column("guild_id", sa.BigInteger, primary_key=True),
        sa.Column("season", sa.String(16), primary_key=True),
        sa.Column("channel_id", sa.BigInteger),
        sa.Column("closed_at", sa.Float, nullable=False),
        sa.Column("claimed_at", sa.Float),
        sa.Column("posted_at", sa.Float),
        sa.Column("message_id", sa.BigInteger),
    )
    op.create_table(
        "season_standings",
        sa.Column("guild_id", sa.BigInteger, primary_key=True),
        sa.Column("season", sa.String(16), primary_key=True),
        sa.Column("user_id", sa.BigInteger, primary_key=True),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("name", sa.Text().with_variant(sa.Text(collation="C"), "postgresql"), nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
    )
    op.create_index("season_standings_member", "season_standings", ["guild_id", "user_id"])
