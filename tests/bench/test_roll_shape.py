"""The Roll-and-Bank shape and the small-message baseline of the load bench (issue 40): the presses are the
ones named, on real bots in their own processes, and the report sets the Farkle bot against both
baselines. No timings are asserted."""

from __future__ import annotations

import asyncio

import pytest
from discord_load import (
    Memory,
    Presses,
    Run,
    bots_named,
    marginal_kb,
    marginal_pairs,
    ratios,
    roll_round,
    session,
)
from loopback.payloads import Person, Table, components_of
from loopback.players import BANK, ROLL
from loopback.server import CHANNEL_MESSAGE, UPDATE_MESSAGE, Interaction, Outcome


async def test_the_small_message_baseline_answers_a_press_with_a_new_message() -> None:
    async with session("message", games=1) as bench:
        await bench.players.set_up(bench.boards)
        board = bench.boards[0]
        drawn = bench.server.messages[board.message_id]
        before = [c.get("custom_id") for c in components_of(drawn)]

        press = bench.press_named(ROLL)(board)
        assert press is not None and await press.done is Outcome.ANSWERED
        assert press.callback_type == CHANNEL_MESSAGE and not press.ephemeral
        answer = bench.server.messages[press.response_message_id or 0]
        assert answer["content"] == "ana-0 pressed roll"
        assert not answer["components"] and not answer["embeds"]
        # The board is left as it was, so the same buttons are pressed again next round.
        assert [c.get("custom_id") for c in components_of(bench.server.messages[board.message_id])] == before


async def test_a_roll_round_presses_roll_at_each_turn_start_then_bank() -> None:
    games = 3
    async with session("farkle", games=games) as bench:
        await bench.set_up()
        for _ in range(2):  # the second round starts wherever the first left each game
            rolls, banks = await roll_round(bench)
            pressed = [i.custom_id.rsplit(":", 1)[1] for i in rolls.interactions if i.custom_id]
            assert pressed == [ROLL] * games
            assert all(i.custom_id and i.custom_id.endswith(f":{BANK}") for i in banks.interactions)
            # A roll that scored nothing passed the turn: that game has no Bank to press.
            assert len(banks.interactions) + banks.no_move == games
            for measured in (rolls, banks):
                assert measured.failed() == 0 and measured.refused_by_bot() == 0
                assert all(i.callback_type == UPDATE_MESSAGE for i in measured.interactions)
                # /proc counts in clock ticks (10 ms): a burst of three presses may round to none
                assert measured.cpu_seconds >= 0
        assert bench.process.cpu() > 0, "the bot's own CPU, read from /proc"
        await bench.players.prepare(bench.boards, ROLL)
        for board in bench.boards:  # every turn has passed: each game is at its next turn's start
            assert bench.players.named_move(board, BANK) is None
            assert bench.players.named_move(board, ROLL) is not None


def _run(kind: str, latencies_ms: list[float], cpu_ms_per_press: float) -> Run:
    loop = asyncio.get_running_loop()
    person = Person(1, "ana")
    table = Table(0, 2, 3, person, Person(4, "ben"))
    presses = Presses()
    for number, ms in enumerate(latencies_ms):
        interaction = Interaction(number, "t", 3, table, person, "x", 5, loop.create_future(), 0.0, ms / 1000)
        interaction.finish(Outcome.ANSWERED)
        presses.interactions.append(interaction)
    presses.cpu_seconds = cpu_ms_per_press * len(latencies_ms) / 1000
    return Run(kind, "roll burst", 300, presses)


async def test_the_report_sets_the_farkle_bot_against_both_baselines() -> None:
    runs = [
        _run("trivial", [10.0] * 100, 1.0),
        _run("message", [5.0] * 100, 0.5),
        _run("farkle", [20.0] * 100, 1.5),
    ]
    (line,) = ratios(runs)
    assert line.startswith("  roll burst, 300 games: farkle")
    trivial, message = line.split("/ ")[1:]
    assert trivial.split() == ["trivial", "p50", "2.00", "p99", "2.00", "CPU", "1.50"]
    assert message.split() == ["message", "p50", "4.00", "p99", "4.00", "CPU", "3.00"]
    assert ratios(runs[:2]) == []  # no Farkle row: nothing to compare


def test_bot_names() -> None:
    assert bots_named("all") == ["trivial", "message", "farkle"]
    assert bots_named("both") == ["trivial", "farkle"]
    assert bots_named("message,farkle") == ["message", "farkle"]


def test_each_game_more_is_the_slope_between_two_runs_so_what_every_run_pays_once_cancels() -> None:
    """Memory per live game: runs of one bot that pay the same 2 MiB once (a ruleset's layout, the pool of
    connections) and 10 KB a game started; the per-game figure spreads the 2 MiB, the slope does not."""
    kib, idle, once = 1024, 90 * 2**20, 2 * 2**20

    def run(games: int) -> Run:
        memory = Memory(games, idle, idle + once + games * 10 * kib, idle + once + games * 11 * kib)
        memory.restored = idle + once + games * 12 * kib if games > 100 else None
        return Run("farkle", "one at a time", games, Presses(), memory)

    runs = [run(500), run(100), run(300), Run("trivial", "one at a time", 300, Presses())]
    pairs = marginal_pairs(runs)
    assert [(a.games, b.games) for a, b in pairs] == [(100, 300), (300, 500)]
    fewer, more = pairs[1]
    assert fewer.memory is not None
    assert fewer.memory.per_game_kb(fewer.memory.started) == pytest.approx(10 + 2048 / 300)
    assert marginal_kb(fewer, more) == pytest.approx([10.0, 11.0, None, 12.0, None])
    assert marginal_kb(*pairs[0])[3] is None, "a step one of the runs did not reach"
