"""Tournaments.

- `tournaments`: one row per tournament: where, who hosts, the format and match settings, the stage
  (`signup`, `running`, `over`, `cancelled`), and `state` (the bracket and each open match's check-ins,
  as JSON), written with a compare-and-set on `revision`. At most one tournament signs up per channel
  (a partial unique index), so two `tournament new` at once leave one.
- `tournament_entrants`: one row per tournament and member (the primary key makes a join idempotent).
- `tournament_games`: the games counted for a match, one row per game id: a finished game's result is
  folded into the bracket in the transaction that inserts its row, so a replayed end counts once.
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"  # re-chained after 0015 (the board ledger)

NAME = sa.Text().with_variant(sa.Text(collation="C"), "postgresql")


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("tournament_id", sa.String(16), primary_key=True),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("channel_id", sa.BigInteger, nullable=False),
        sa.Column("host_id", sa.BigInteger, nullable=False),
        sa.Column("name", NAME, nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("best_of", sa.Integer, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("match_deadline", sa.Integer, nullable=False),
        sa.Column("signup_until", sa.Float),
        sa.Column("stage", sa.String(16), nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("card_message_id", sa.BigInteger),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("ended_at", sa.Float),
        sa.Column("revision", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_index("tournaments_guild", "tournaments", ["guild_id", "created_at"])
    op.create_index(
        "tournaments_signing_up",
        "tournaments",
        ["channel_id"],
        unique=True,
        sqlite_where=sa.text("stage = 'signup'"),
        postgresql_where=sa.text("stage = 'signup'"),
    )
    op.create_table(
        "tournament_entrants",
        sa.Column(
            "tournament_id",
            sa.String(16),
            sa.ForeignKey("tournaments.tournament_id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("user_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("name", NAME, nullable=False),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.Column("forgotten", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_index("tournament_entrants_member", "tournament_entrants", ["user_id"])
    op.create_table(
        "tournament_games",
        sa.Column("game_id", sa.Text, primary_key=True),
        sa.Column(
            "tournament_id",
            sa.String(16),
            sa.ForeignKey("tournaments.tournament_id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("match_key", sa.String(16), nullable=False),
        sa.Column("winner_id", sa.BigInteger),
        sa.Column("counted_at", sa.Float, nullable=False),
    )
