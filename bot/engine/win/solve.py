"""Solving the win tables: the sweeps over every pair of banks with the compiled kernels (Numba).

Only the worker process that solves a server's own ruleset, and scripts/build_win_tables.py, import this
module: the bot reads tables (`winprob`) without Numba.
"""

from __future__ import annotations

import numpy as np

from bot.engine.rules import Ruleset
from bot.engine.win import kernels
from bot.engine.win.game import FloatArray, WinGame, streak_count, win_game
from bot.engine.win.tables import DEFAULT_MARGIN, WinTables, unsupported

# The game without Farkle streaks is only where the streak sweeps start: its chances at the banks a third
# Farkle resets to are ~0.03 off the streaks' answer anyway, so solving it finer than this is wasted.
START_TOL = 1e-4
# The ratio of a sweep's largest change to the last one's, taken this many times over for the rate at
# which the changes still to come shrink (see `settled`).
RATE_MARGIN = 4.0


def solve_winprob(rules: Ruleset, margin: int = DEFAULT_MARGIN, tol: float = 1e-8) -> WinTables:
    """Solve these rules' two-player win probabilities (CPU-bound: seconds to a minute; no GIL held).

    `tol` is finer than the float32 the tables are stored in."""
    reason = unsupported(rules)
    if reason is not None:
        raise ValueError(f"Win tables don't model {reason}.")
    return WinTables(rules, margin, solve_game(win_game(rules, margin), tol, streak_count(rules)))


def solve_game(game: WinGame, tol: float, streaks: int = 1) -> FloatArray:
    """`values[a, b, i, j]`: the turn-start chances, by Farkles in a row (a, b) and banks (i, j).

    Where a rare event lowers a bank, sweeps repeat until `settled`. With Farkle streaks the first sweep
    starts from the game without them, roughly solved (`START_TOL`).
    """
    values = np.full((streaks, streaks, game.size, game.size), 0.5)
    if streaks > 1:
        values[:, :] = solve_game(game, max(tol, START_TOL))[0, 0]
    size, ending, bank_from, forced = game.size, game.ending, game.bank_from, game.forced
    penalty_to, reset_to = game.penalty_to, game.reset_to
    turns = game.turns.kernel_args()
    changes: list[float] = []
    while True:
        if streaks == 1:
            previous = values[0, 0].copy()
            moved = kernels.sweep_pairs(
                values[0, 0], previous, size, ending, bank_from, forced, penalty_to, turns, tol, not changes
            )
        else:
            moved = kernels.sweep_streaks(
                values, size, ending, bank_from, forced, penalty_to, reset_to, turns, tol
            )
        changes.append(moved)
        if (streaks == 1 and not game.turns.penalty.any()) or settled(changes, tol):
            return values


def settled(changes: list[float], tol: float) -> bool:
    """Whether the values are within `tol` of where further sweeps would take them, by the largest change
    of each sweep so far (the first from the start).

    Near the answer a sweep shrinks the values' distance to it by some rate r < 1 (a bank lowered by a
    rare event is valued from the last sweep, off by what that sweep still had to move, times the
    chance of the event and of what follows). After a change d, the sweeps still to come move at most
    d r / (1 - r) in all. r is estimated as the larger of the last two ratios of successive changes, times
    `RATE_MARGIN`: measured on the presets, that ratio creeps up about two times a sweep as the fast parts
    settle (last-loses: 0.10, 0.002, 0.004, 0.008, ...), so a ratio alone would promise too little.
    A sweep that moves nothing by `tol` is settled too (as before the estimate; it can't be told from
    rounding noise).
    """
    if changes[-1] < tol:
        return True
    if len(changes) < 3:
        return False
    rate = RATE_MARGIN * max(changes[-1] / changes[-2], changes[-2] / changes[-3])
    return rate < 0.5 and changes[-1] * rate / (1.0 - rate) < tol
