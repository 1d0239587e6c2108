"""A member's reviewed decisions by member alone, for the skill shown everywhere (`/farkle stats` in a DM).

- `review_decisions_user`: the skill rating counts every reviewed decision a member made (games against
  computers too), and in a DM `/farkle stats` reads a member's last decisions over every server and
  conversation; the `review_decisions_member` index starts with the server, so that read would scan the
  table. Rows are unchanged.
"""

from alembic import op

revision = "0021"
down_revision = "0020"


def upgrade() -> None:
    op.create_index("review_decisions_user", "review_decisions", ["user_id", "ended_at"])
