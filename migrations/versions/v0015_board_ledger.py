"""The board ledger: the messages that show a game, owned by the delivery side, out of the session row.

- `boards`: one row per message showing a game (`role` "board": the game's own board; "follow": a
  spectator's follow board), with its channel, how it is reached (`route` "channel": by channel
  routes; "token": only through interaction tokens, where the app is not a member), the version it last
  showed and the turn ping it carries.
- `sessions` loses `board_message_id`, `shown_version`, `ping_message_id` and `pinged_turn`, and its JSON
  loses the same keys and `table.channel_routes`: each session row's board moves into the ledger first.
"""

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"

_MOVED = ("board_message_id", "ping_message_id", "pinged_turn")


def upgrade() -> None:
    op.create_table(
        "boards",
        sa.Column("game_id", sa.Text, primary_key=True),
        sa.Column("channel_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("role", sa.String(8), primary_key=True),
        sa.Column("route", sa.String(8), nullable=False),
        sa.Column("message_id", sa.BigInteger),
        sa.Column("shown_version", sa.Integer),
        sa.Column("ping_message_id", sa.BigInteger),
        sa.Column("pinged_turn", sa.Integer),
        sa.Column("owner_id", sa.BigInteger),  # a follow board: the member who posted it
    )
    connection = op.get_bind()
    rows = connection.execute(
        sa.text(
            "SELECT channel_id, game_id, board_message_id, shown_version, ping_message_id, pinged_turn,"
            " state FROM sessions"
        )
    ).mappings()
    for row in list(rows):
        state = json.loads(row["state"])
        connection.execute(
            sa.text(
                "INSERT INTO boards (game_id, channel_id, role, route, message_id, shown_version,"
                " ping_message_id, pinged_turn) VALUES (:game, :channel, 'board', :route, :message,"
                " :shown, :ping, :turn)"
            ),
            {
                "game": row["game_id"],
                "channel": row["channel_id"],
                "route": "channel" if state.get("table", {}).get("channel_routes", True) else "token",
                "message": row["board_message_id"] or state.get("board_message_id"),
                "shown": row["shown_version"],
                **_ping(row, state),
            },
        )
        for key in _MOVED:
            state.pop(key, None)
        state.get("table", {}).pop("channel_routes", None)
        connection.execute(
            sa.text("UPDATE sessions SET state = :state WHERE channel_id = :channel"),
            {"state": json.dumps(state), "channel": row["channel_id"]},
        )
    with op.batch_alter_table("sessions") as sessions:
        for column in ("board_message_id", "shown_version", "ping_message_id", "pinged_turn"):
            sessions.drop_column(column)


def _ping(row: Any, state: dict[str, Any]) -> dict[str, Any]:
    """The session's turn ping: its own columns when set (written behind the moves), else its JSON; a
    format-1 row never recorded one, so its current turn counts as pinged (no repeated ping)."""
    if row["pinged_turn"] is not None:
        return {"ping": row["ping_message_id"], "turn": row["pinged_turn"]}
    if "pinged_turn" in state:
        return {"ping": state.get("ping_message_id"), "turn": state["pinged_turn"]}
    game = state.get("game")
    turn = (json.loads(game) if isinstance(game, str) else game or {}).get("turn_number")
    return {"ping": state.get("ping_message_id"), "turn": turn}
