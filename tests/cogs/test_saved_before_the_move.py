"""A game saved by the bot before its modules moved into layer folders loads and plays on: the move changed
no saved format. `tests/data/saved_before_the_move.json` holds a session row and its board ledger row as
main at e85d75c wrote them (ben mid-turn, two fives kept); the ids are this world's members and channel."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cogs.conftest import Table
from tests.cogs.play import MakeBot, act, board_message, execute, restart, rolled, selected, set_aside

SAVED = json.loads((Path(__file__).parents[1] / "data" / "saved_before_the_move.json").read_text())


def _with_our_ids(row: dict[str, object], table: Table) -> dict[str, object]:
    """The row as text, with the saved world's ids replaced by this world's."""
    ours = {"channel": table.channel.id, "guild": table.guild.id, "ana": table.ana.id, "ben": table.ben.id}
    text = json.dumps(row)
    for name, saved_id in SAVED["ids"].items():
        text = text.replace(str(saved_id), str(ours[name]))
    loaded: dict[str, object] = json.loads(text)
    return loaded


async def test_a_game_saved_before_the_move_restores_and_its_board_plays_on(
    table: Table, make_bot: MakeBot
) -> None:
    for name in ("sessions", "boards"):
        for row in SAVED[name]:
            values = _with_our_ids(row, table)
            columns = ", ".join(values)
            await execute(
                table.env, f"INSERT INTO {name} ({columns}) VALUES (:{', :'.join(values)})", **values
            )
    await restart(table.env, make_bot)

    await table.ben.slash(table.channel, "farkle board")  # the saved board's message is not in this world
    board = board_message(table.channel)
    assert selected(board) == [0, 1], "ben's two fives, kept before the restart"
    await act(table.ben, table.channel, "roll")
    after = board_message(table.channel)
    assert "100" in set_aside(after) and rolled(after) == [1, 2, 3, 4], (
        "the fives set aside, four dice rolled"
    )
