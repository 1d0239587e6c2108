"""The board ledger in memory: marks written behind the moves in a few batched writes, and the order in
which drawings land on a board."""

from __future__ import annotations

from bot.storage.boards import BoardMark
from cogs.board.ledger import Ledger, View
from tests.fakes import MemoryBoards, settle


async def test_boards_shown_in_a_burst_are_recorded_in_a_few_writes() -> None:
    store = MemoryBoards()
    ledger = Ledger(store)  # type: ignore[arg-type]
    views = [View(f"g{n}", 100 + n, "board", "channel", 900 + n, 1) for n in range(20)]
    for view in views:
        await ledger.attach(view)
    for view in views:
        ledger.shown(view, 2)
    await settle()
    assert sum(len(batch) for batch in store.writes) == 20 and len(store.writes) <= 2, store.writes


async def test_a_turn_passing_press_notes_its_board_and_its_ping_as_one_mark() -> None:
    store = MemoryBoards()
    ledger = Ledger(store)  # type: ignore[arg-type]
    board = View("g1", 100, "board", "channel", 900, 1)
    await ledger.attach(board)
    ledger.shown(board, 2)
    assert ledger.pinged(board, 777, 3) is None
    ledger.shown(board, 1)  # a late, older edit: the shown version never moves back
    await settle()
    assert store.writes == [[BoardMark("g1", 100, "board", 2, (777, 3))]]
    assert ledger.pinged(board, 778, 4) == 777, "the previous ping, to delete"


async def test_an_older_drawing_landing_last_is_noticed() -> None:
    ledger = Ledger(MemoryBoards())  # type: ignore[arg-type]
    board = View("g1", 100, "board", "channel", 900, 1)
    assert [ledger.landed(board, version) for version in (4, 3, 2)] == [False, True, True]
    assert ledger.landed(board, 4) is False, "the repair, the newest again"
    assert [ledger.landed(board, version) for version in (5, 6)] == [False, False], "in order: nothing"


async def test_a_new_games_board_takes_over_its_channel_and_keeps_a_posted_again_boards_ping() -> None:
    ledger = Ledger(MemoryBoards())  # type: ignore[arg-type]
    first = View("g1", 100, "board", "channel", 900, 1)
    await ledger.attach(first)
    ledger.pinged(first, 777, 1)
    again = View("g1", 100, "board", "channel", 901, 1)
    await ledger.attach(again)
    assert ledger.board("g1") is again and again.ping_message_id == 777
    await ledger.attach(View("g2", 100, "board", "channel", 902, 1))
    assert ledger.board("g1") is None
