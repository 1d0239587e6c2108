"""Whole games in a channel, under every preset, with 2 and 3 players: dice scripted to end them fast."""

from __future__ import annotations

import pytest

from tests.cogs.conftest import Dice, Table
from tests.cogs.play import (
    FARKLE,
    SIX_ONES,
    act,
    big_turn,
    board_message,
    buttons,
    description,
    disabled,
    field,
    keep,
    labels,
    latest,
    open_game,
    pings,
    title,
)

SIX_TWOS = (2, 2, 2, 2, 2, 2)
ROLL_OFF = {2: (6, 2), 3: (6, 2, 3)}  # the first seat (ana, the host) starts

# Six dice that score with every die, rolled again and again on hot dice until the target is passed.
BIG_TURNS = {
    "classic": ([SIX_ONES] * 5, "10,000"),  # 2,000 each
    "box": ([SIX_TWOS] * 4, "12,000"),  # six of a kind: 3,000
    "doubling": ([SIX_ONES] * 2, "16,000"),  # 8,000
}


def standings(table: Table) -> list[str]:
    return field(board_message(table.channel), "Final standings").splitlines()


def assert_results_board(table: Table) -> None:
    board = board_message(table.channel)
    assert list(buttons(board)) == ["farkle-review", "rematch"], "Review and Rematch on a finished game"


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("preset", sorted(BIG_TURNS))
async def test_highest_score_game_ends_after_the_final_round(
    table: Table, dice: Dice, preset: str, players: int
) -> None:
    rolls, total = BIG_TURNS[preset]
    seated = [table.ana, table.ben, table.cy][:players]
    dice.script(ROLL_OFF[players], *rolls, *[FARKLE] * (players - 1))
    await open_game(table.channel, *seated, rules=preset)
    assert title(board_message(table.channel)) == f"🎲 Farkle game · {preset} rules"

    await big_turn(table.ana, table.channel, len(rolls))
    board = board_message(table.channel)
    assert "🏁 Final round" in description(board)
    assert "🏁 ana reached the target: everyone else gets one last turn" in latest(table.channel)
    assert f"🏦 ana banked {total} (now {total})" in latest(table.channel)

    for member in seated[1:]:
        assert pings(table.channel) == [f"<@{member.id}> 🎲 it's your turn!"]
        await act(member, table.channel, "roll")  # the last turn Farkles

    assert title(board_message(table.channel)) == "🏆 ana wins!"
    expected = [f"**1.** ana · {total}"] + [f"**2.** {m.name} · 0" for m in seated[1:]]
    assert standings(table) == expected
    assert_results_board(table)
    assert dice.unused == 0


@pytest.mark.parametrize("players", [2, 3])
async def test_last_loses_game_ends_when_one_player_is_left_below_the_target(
    table: Table, dice: Dice, players: int
) -> None:
    seated = [table.ana, table.ben, table.cy][:players]
    safe = seated[:-1]
    dice.script(ROLL_OFF[players], *[SIX_TWOS] * 5 * len(safe))  # six 2s score 2,000 in last-loses
    await open_game(table.channel, *seated, rules="last-loses")

    for member in safe:
        await big_turn(member, table.channel, 5)

    board = board_message(table.channel)
    winners = " and ".join(m.name for m in safe)
    assert title(board) == f"🏆 {winners} {'wins' if len(safe) == 1 else 'win'}!"
    assert f"🛟 {safe[-1].name} is safe" in latest(table.channel)
    loser = seated[-1]
    assert standings(table)[-1] == f"**{players}.** {loser.name} · 0"
    assert_results_board(table)
    assert dice.unused == 0


@pytest.mark.parametrize("players", [2, 3])
async def test_family_game_lands_exactly_on_the_target_and_gives_the_rest_away(
    table: Table, dice: Dice, players: int
) -> None:
    seated = [table.ana, table.ben, table.cy][:players]
    dice.script(ROLL_OFF[players], SIX_TWOS, (1, 2, 3, 4, 6, 6), *[FARKLE] * (players - 1))
    await open_game(table.channel, *seated, rules="family")

    await act(table.ana, table.channel, "roll")
    await keep(table.ana, table.channel, 0, 1, 2, 3, 4, 5)  # six of a kind: 10,000, and hot dice
    board = board_message(table.channel)
    assert "bank" in disabled(board), "hot dice must be rolled under family rules"
    assert labels(board)["roll"] == "Roll 6 dice (+10,000) · 3.1% Farkle"
    await act(table.ana, table.channel, "roll")
    await keep(table.ana, table.channel, 0)  # the 1: 10,100 is 100 over the target
    assert labels(board_message(table.channel))["bank"] == "Bank 10,100"
    await act(table.ana, table.channel, "bank")
    assert "↪️ 100 over the target went to ben" in latest(table.channel)

    for member in seated[1:]:
        await act(member, table.channel, "roll")

    assert title(board_message(table.channel)) == "🏆 ana wins!"
    expected = ["**1.** ana · 10,000", "**2.** ben · 100"] + (["**3.** cy · 0"] if players == 3 else [])
    assert standings(table) == expected
    assert_results_board(table)
    assert dice.unused == 0


async def test_a_tie_at_the_top_is_played_off(table: Table, dice: Dice) -> None:
    dice.script(
        ROLL_OFF[2],
        *[SIX_ONES] * 5,  # ana: 10,000
        *[SIX_ONES] * 5,  # ben catches up in the final round: 10,000
        (1, 2, 3, 4, 6, 6),  # ana's play-off turn: 100
        (5, 2, 3, 4, 6, 6),  # ben's play-off turn: 50
    )
    await open_game(table.channel, table.ana, table.ben)
    await big_turn(table.ana, table.channel, 5)
    await big_turn(table.ben, table.channel, 5)

    board = board_message(table.channel)
    assert "⚔️ Tie! ana plays a play-off turn" in latest(table.channel)
    assert "⚔️ Tie! ben plays a play-off turn" in latest(table.channel)
    assert "ana's turn" in description(board)
    assert pings(table.channel) == [f"<@{table.ana.id}> 🎲 it's your turn!"]

    await act(table.ana, table.channel, "roll")
    await keep(table.ana, table.channel, 0)
    await act(table.ana, table.channel, "bank")
    assert "ben's turn" in description(board_message(table.channel))
    await act(table.ben, table.channel, "roll")
    await keep(table.ben, table.channel, 0)
    await act(table.ben, table.channel, "bank")

    assert title(board_message(table.channel)) == "🏆 ana wins!"
    assert standings(table) == ["**1.** ana · 10,100", "**2.** ben · 10,050"]
    assert dice.unused == 0
