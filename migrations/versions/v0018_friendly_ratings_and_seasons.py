"""Ratings on the friendly scale.

- `player_stats.rating` and `player_recent.rating` were openskill's ordinal (mu − 3σ, about -1.8 after a
  first game); they become what members see: 1,000 + 40 × ordinal, never below 0 (`bot.ratings.friendly`).
"""

from alembic import op

revision = "0018"
down_revision = "0017"  # re-chained after 0017 (review_decisions) when luck merged main

_FRIENDLY = "CASE WHEN 1000 + 40 * rating > 0 THEN 1000 + 40 * rating ELSE 0 END"


def upgrade() -> None:
    for table in ("player_stats", "player_recent"):
        op.execute(f"UPDATE {table} SET rating = {_FRIENDLY}")
