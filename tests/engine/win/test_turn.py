"""A turn's values solved by the reader (NumPy), as master and the Hint read them, agree with the
solver's tables; and its one gather and one max per turn total give exactly what a `reduceat` over each
group's keeps gave (the reference below is the solve as it was), for every state of small tables and for
a grid of classic's."""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest

from bot.engine.rules import Ruleset
from bot.engine.win.game import Chances, FloatArray, WinGame
from bot.engine.win.tables import WinTables
from bot.engine.win.turn import TurnSolver, _distinct
from bot.sessions.win_tables import shipped_tables
from tests.engine.win.solved import SMALL, tables


@pytest.mark.parametrize("name", sorted(SMALL))
def test_the_readers_turn_solve_agrees_with_the_compiled_solver(name: str) -> None:
    """Master and the Hint solve a turn with NumPy (`winturn`), the solver with Numba: rolling six dice at
    a turn total of 0 is the turn's start, which the solved table holds, for every state."""
    solved = tables(name)
    unit, low = solved.unit, -solved.rules.target
    banks = [b for b in range(low, solved.rules.target, unit) if solved.covers(b)]
    streaks = range(3) if solved.rules.three_farkles != "none" else range(1)
    for bank, other, mine, theirs in product(banks[::7], banks[::5], streaks, streaks):
        turn = solved.turn(bank, other, mine, theirs)
        assert turn.rolling(0, 6) == pytest.approx(solved.value(bank, other, mine, theirs), abs=1e-7)


# ---------------------------------------------------------------- the solve as it was, the reference


def reference_rolling(
    game: WinGame, i: int, j: int, farkled: float, penalized: float, values: Chances
) -> FloatArray:
    """`TurnSolver.rolling` as it was: each group's best keep by `np.maximum.reduceat` over its keeps."""
    turns, dice = game.turns, game.turns.dice
    keep_at, groups = turns.keep_units * dice + turns.keep_left, turns.keep_lo
    chances = np.zeros((dice + 1, len(turns.group_p) + 3))
    for n in range(1, dice + 1):
        rolls = slice(turns.group_lo[n], turns.group_hi[n])
        chances[n, rolls] = turns.group_p[rolls]
    chances[:, len(turns.group_p) :] = np.stack([turns.farkle, turns.penalty, turns.instant], axis=1)
    chances = chances[[left or dice for left in range(dice)]]
    beyond = _distinct(game.ending, j)
    top = game.size + beyond - 1 - i
    cells = np.full((game.size + game.beyond + turns.reach + 1, dice), game.ending[j, beyond - 1])
    flat = cells.reshape(-1)
    rolling = np.empty((top + 1, dice))
    banks = np.arange(i, i + top + 1)
    inside = banks < game.size
    banked = np.where(inside, 1.0 - values[j, np.minimum(banks, game.size - 1)], 0.0)
    banked[~inside] = game.ending[j, banks[~inside] - game.size]
    best = np.empty(chances.shape[1])
    best[-3:] = farkled, penalized, 1.0
    for t in range(top, -1, -1):
        np.maximum.reduceat(flat[t * dice :].take(keep_at), groups, out=best[:-3])
        row = rolling[t]
        np.dot(chances, best, out=row)
        if t < int(game.bank_from[i]):
            cells[t] = row
            continue
        np.maximum(row, banked[t], out=cells[t])
        if game.forced:
            cells[t, 0] = row[0]
    return rolling


def every_state(tables: WinTables, step: int) -> None:
    game, solver = tables._layout()
    start = tables._values[0, 0]  # turn-start values, no Farkle streaks
    for i in range(0, game.size, step):
        for j in range(0, game.size, step):
            farkled, penalized = 1.0 - float(start[j, i]), 1.0 - float(start[j, game.penalty_to[i]])
            ours, _ = solver.rolling(i, j, farkled, penalized, start)
            assert np.array_equal(ours, reference_rolling(game, i, j, farkled, penalized, start)), (i, j)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_every_state_of_small_tables_solves_as_before(name: str) -> None:
    every_state(tables(name), 1)


def test_classic_turns_solve_as_before() -> None:
    classic = shipped_tables(Ruleset.preset("classic"))
    assert classic is not None
    every_state(classic, 23)
    assert isinstance(classic._layout()[1], TurnSolver)
