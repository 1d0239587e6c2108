"""Tournament cards on the delivery side, tournaments' crowning, and the period boards' index.

- `tournaments.card_message_id` moves into the board ledger (`boards`, role `card`, keyed by the
  tournament's id in `game_id`): the door's row keeps no Discord message id. Rows already there are left
  as they are, so a second run (two processes starting together wait for each other under the migration
  lock) changes nothing.
- `tournaments.crowned_at`: when the champion's achievement was handed out; a start-up awards the
  champions of tournaments that ended without it (the process died in between). Tournaments already over
  count as crowned: their award went out with their end, or was lost long before this revision.
- `games_ended`: the period boards and the season rollover read every server's games by `ended_at`.
"""

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"

_MOVE_CARDS = (
    "INSERT INTO boards (game_id, channel_id, role, route, message_id)"
    " SELECT tournament_id, channel_id, 'card', 'channel', card_message_id FROM tournaments"
    " WHERE card_message_id IS NOT NULL ON CONFLICT (game_id, channel_id, role) DO NOTHING"
)


def upgrade() -> None:
    op.execute(_MOVE_CARDS)
    op.add_column("tournaments", sa.Column("crowned_at", sa.Float))
    op.execute("UPDATE tournaments SET crowned_at = ended_at WHERE stage = 'over'")
    # Not a batch copy of the table on SQLite: dropping the old table would cascade to its entrants.
    op.execute("ALTER TABLE tournaments DROP COLUMN card_message_id")
    op.create_index("games_ended", "games", ["ended_at"])
