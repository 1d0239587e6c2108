"""A role the server sets that may hold tournaments besides Manage Server.

- `guild_config.tournament_role`: the role's id; NULL: Manage Server alone (`bot/core/server_settings.py`
  declares the setting, `/farkle-config set tournament_role` changes it).

Shard processes starting together apply it one at a time under the migration lock (`migrate`), as 0018.
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"


def upgrade() -> None:
    op.add_column("guild_config", sa.Column("tournament_role", sa.BigInteger))
