"""The schema as the nine SQLite-only migrations (`bot/storage/legacy/`) left it, for both backends.

A SQLite database those migrations built is stamped with this revision instead of running it.
Discord ids are BIGINT; names sort by code point on PostgreSQL ("C"), as SQLite sorts them, so a
leaderboard's ties are listed in the same order on both.
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = None

NAME = sa.Text().with_variant(sa.Text(collation="C"), "postgresql")
NOW = sa.text("CURRENT_TIMESTAMP")


def _id(name: str, **kwargs: object) -> sa.Column[int]:
    return sa.Column(name, sa.BigInteger, **kwargs)  # type: ignore[arg-type]


def _int(name: str, **kwargs: object) -> sa.Column[int]:
    return sa.Column(name, sa.Integer, nullable=False, **kwargs)  # type: ignore[arg-type]


def _real(name: str, **kwargs: object) -> sa.Column[float]:
    return sa.Column(name, sa.Float, nullable=False, **kwargs)  # type: ignore[arg-type]


def _totals() -> list[sa.Column[int]]:
    """The running numbers player_stats and player_recent share."""
    return [
        _int("games", server_default="0"),
        _int("wins", server_default="0"),
        sa.Column("points", sa.BigInteger, nullable=False, server_default="0"),
        _int("turns", server_default="0"),
        _int("best_turn", server_default="0"),
        _int("best_game", server_default="0"),
        _int("farkles", server_default="0"),
        _int("hot_dice", server_default="0"),
    ]


def _leaderboard_indexes(table: str) -> None:
    for metric in ("rating", "wins", "points", "best_turn"):
        op.create_index(f"{table}_{metric}", table, ["guild_id", sa.text(f"{metric} DESC")])


def upgrade() -> None:
    op.create_table(
        "command_sync",
        sa.Column("scope", sa.Text, primary_key=True),
        sa.Column("tree_hash", sa.Text, nullable=False),
        sa.Column("synced_at", sa.Text, nullable=False, server_default=NOW),
    )
    op.create_table(
        "sessions",
        _id("channel_id", primary_key=True, autoincrement=False),
        _id("guild_id", nullable=False),
        sa.Column("game_id", sa.Text, nullable=False, unique=True),
        sa.Column("stage", sa.Text, nullable=False),
        _int("version"),
        _id("board_message_id"),
        sa.Column("deadline", sa.Float),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("updated_at", sa.Text, nullable=False, server_default=NOW),
        sa.Column("shown_version", sa.Integer),
    )
    op.create_index("sessions_guild", "sessions", ["guild_id"])
    op.create_table(
        "games",
        sa.Column("game_id", sa.Text, primary_key=True),
        _id("guild_id", nullable=False),
        _id("channel_id", nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("dice_start", sa.Text, nullable=False),
        sa.Column("actions", sa.Text, nullable=False),
        _real("started_at"),
        _real("ended_at"),
        sa.Column("end_reason", sa.Text, nullable=False),
        _int("counted"),  # 1 when at least two humans played: only those feed leaderboards
    )
    op.create_index("games_guild_ended", "games", ["guild_id", "ended_at"])
    op.create_index("games_channel_ended", "games", ["channel_id", "ended_at"])
    op.create_index("games_window", "games", ["guild_id", "counted", "ended_at", "game_id"])
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.Text, sa.ForeignKey("games.game_id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        _id("user_id", nullable=False),
        sa.Column("name", NAME, nullable=False),
        sa.Column("computer", sa.Text),
        sa.Column("team", sa.Integer),
        _int("placement"),
        _int("won"),
        _int("final_bank"),
        _int("turns"),
        _int("points"),
        _int("best_turn"),
        _int("farkles"),
        _int("hot_dice"),
        _int("forgotten", server_default="0"),  # 1 once the member asked to be forgotten
    )
    op.create_index("game_players_user", "game_players", ["user_id"])
    op.create_index(
        "game_players_totals",
        "game_players",
        [
            *("game_id", "computer", "forgotten", "user_id", "won", "points", "turns", "best_turn"),
            *("final_bank", "farkles", "hot_dice", "name"),
        ],
    )
    op.create_table(
        "player_stats",
        _id("guild_id", primary_key=True, autoincrement=False),
        _id("user_id", primary_key=True, autoincrement=False),
        sa.Column("name", NAME, nullable=False),
        *_totals(),
        _real("mu"),
        _real("sigma"),
        _real("rating"),
        _real("last_played"),
    )
    _leaderboard_indexes("player_stats")
    op.create_table(
        "leaderboard_resets",
        _id("guild_id", primary_key=True, autoincrement=False),
        _real("reset_at"),
    )
    op.create_table(
        "guild_config",
        _id("guild_id", primary_key=True, autoincrement=False),
        sa.Column("rules", sa.Text),
        sa.Column("turn_timeout", sa.Integer),
        sa.Column("lobby_timeout", sa.Integer),
        sa.Column("hints", sa.Integer),
        sa.Column("threads", sa.Integer),
        _real("updated_at"),
    )
    op.create_table(
        "rulesets",
        _id("guild_id", primary_key=True, autoincrement=False),
        sa.Column("name", sa.Text, primary_key=True),
        sa.Column("rules", sa.Text, nullable=False),
        _id("saved_by", nullable=False),
        _real("saved_at"),
    )
    op.create_table(
        "config_audit",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _id("guild_id", nullable=False),
        _id("user_id", nullable=False),
        sa.Column("user_name", sa.Text, nullable=False),
        sa.Column("what", sa.Text, nullable=False),
        sa.Column("old_value", sa.Text),
        sa.Column("new_value", sa.Text),
        _real("at"),
    )
    op.create_index("config_audit_guild", "config_audit", ["guild_id", "id"])
    op.create_table(
        "solver_cache",
        sa.Column("rules_key", sa.Text, primary_key=True),
        sa.Column("on_board", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("policy", sa.Text, nullable=False),
        sa.Column("created_at", sa.Text, nullable=False, server_default=NOW),
    )
    op.create_table(
        "player_recent",
        _id("guild_id", primary_key=True, autoincrement=False),
        _id("user_id", primary_key=True, autoincrement=False),
        sa.Column("name", NAME, nullable=False),
        *_totals(),
        _real("rating"),
    )
    _leaderboard_indexes("player_recent")
    op.create_table(
        "recent_windows",
        _id("guild_id", primary_key=True, autoincrement=False),
        _real("since"),
        _real("built_at"),
    )
    op.create_table(
        "win_tables",
        sa.Column("table_key", sa.Text, primary_key=True),
        sa.Column("tables", sa.LargeBinary, nullable=False),
        sa.Column("created_at", sa.Text, nullable=False, server_default=NOW),
    )
