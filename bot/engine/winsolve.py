"""Solving the win tables: the sweeps over every pair of banks with the compiled kernels (Numba).

Only the worker process that solves a server's own ruleset, and scripts/build_win_tables.py, import this
module: the bot reads tables (`winprob`) without Numba.
"""

from __future__ import annotations

import numpy as np

from bot.engine import winkernels
from bot.engine.rules import Ruleset
from bot.engine.wingame import FloatArray, WinGame, streak_count, win_game
from bot.engine.winprob import DEFAULT_MARGIN, WinTables, unsupported


def solve_winprob(rules: Ruleset, margin: int = DEFAULT_MARGIN, tol: float = 1e-8) -> WinTables:
    """Solve these rules' two-player win probabilities (CPU-bound: seconds to minutes; no GIL held).

    `tol` is finer than the float32 the tables are stored in."""
    reason = unsupported(rules)
    if reason is not None:
        raise ValueError(f"Win tables don't model {reason}.")
    return WinTables(rules, margin, solve_game(win_game(rules, margin), tol, streak_count(rules)))


def solve_game(game: WinGame, tol: float, streaks: int = 1) -> FloatArray:
    """`values[a, b, i, j]`: the turn-start chances, by Farkles in a row (a, b) and banks (i, j).

    Where a rare event lowers a bank, sweeps repeat until no value moves by `tol`. With Farkle streaks
    the first sweep starts from the game without them (two sweeps fewer than from even chances).
    """
    values = np.full((streaks, streaks, game.size, game.size), 0.5)
    if streaks > 1:
        values[:, :] = solve_game(game, tol)[0, 0]
    size, ending, bank_from, forced = game.size, game.ending, game.bank_from, game.forced
    penalty_to, reset_to = game.penalty_to, game.reset_to
    turns = game.turns.kernel_args()
    first = True
    while True:
        if streaks == 1:
            moved = winkernels.sweep_pairs(
                values[0, 0], size, ending, bank_from, forced, penalty_to, turns, tol, first
            )
        else:
            moved = winkernels.sweep_streaks(
                values, size, ending, bank_from, forced, penalty_to, reset_to, turns, tol
            )
        first = False
        if moved < tol or (streaks == 1 and not game.turns.penalty.any()):
            return values
