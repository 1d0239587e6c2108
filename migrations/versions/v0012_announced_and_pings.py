"""Two columns that let small facts be written without rewriting a whole row.

- `games.announced`: 0 from the archiving transaction until every subscriber of the game-events stream
  has been told the game ended (`GameEnded`); a start-up announces the games still at 0, so a crash
  between the commit and the announcement neither loses nor repeats it. Games archived before this
  revision were announced (1).
- `sessions.ping_message_id` / `sessions.pinged_turn`: the turn ping, recorded by the background marks
  writer with the board's shown version instead of a full session rewrite (NULL: read the session JSON,
  as rows written before this revision keep them there).
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"


def upgrade() -> None:
    op.add_column("games", sa.Column("announced", sa.Integer, nullable=False, server_default="1"))
    op.create_index("games_unannounced", "games", ["announced"])
    op.add_column("sessions", sa.Column("ping_message_id", sa.BigInteger))
    op.add_column("sessions", sa.Column("pinged_turn", sa.Integer))
