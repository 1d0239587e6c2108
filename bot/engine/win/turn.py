"""One turn of the win tables solved backward with NumPy: what master and the Hint read, without Numba.

The same induction as `kernels.solve_turn` (which the solver compiles), values only: from the largest
turn total with its own bank value down to 0, the value of rolling n dice is the Farkle's value plus each
group of rolls' best keep, and once dice are kept the player banks when that is worth at least rolling on.
Each turn total is a handful of NumPy calls over every keep at once.
"""

from __future__ import annotations

import numpy as np

from bot.engine.win.game import Chances, FloatArray, WinGame


class TurnSolver:
    """A ruleset's rolls laid out once, for solving any turn of its win tables."""

    def __init__(self, game: WinGame) -> None:
        turns = game.turns
        self._game = game
        dice = self._dice = turns.dice
        # Values are kept per (turn total, dice left): row `left` rolls `left or dice` dice next.
        self._width = game.size + game.beyond + turns.reach + 1
        keep_at = turns.keep_units * dice + turns.keep_left  # a keep's cell, from the row of total t
        # Each group's keeps as a column of one table, a short group padded with its first keep (a max is
        # the same with it twice): per turn total, one gather and one max for every group at once, where
        # `np.maximum.reduceat` over the keeps took four times as long (a whole turn: 2.0 ms -> 1.0).
        sizes = np.diff(np.append(turns.keep_lo, len(keep_at)))
        rows = np.arange(int(sizes.max()))[:, None]
        self._keep_rows = keep_at[turns.keep_lo + np.where(rows < sizes, rows, 0)]
        by_left = [left or dice for left in range(dice)]
        # One matrix product per turn total adds the Farkle, penalty and instant-win terms too: the groups'
        # best keeps are followed by those three outcomes' values (the tail of `best` in `rolling`).
        groups = len(turns.group_p)
        chances = np.zeros((dice + 1, groups + 3))
        for n in range(1, dice + 1):
            rolls = slice(turns.group_lo[n], turns.group_hi[n])
            chances[n, rolls] = turns.group_p[rolls]
        chances[:, groups:] = np.stack([turns.farkle, turns.penalty, turns.instant], axis=1)
        self._chances = chances[by_left]
        self._forced = game.forced

    def rolling(
        self, i: int, j: int, farkled: float, penalized: float, values: Chances
    ) -> tuple[FloatArray, int]:
        """`(rolling, top)`: `rolling[t, left]` is the chance to win when rolling `left or dice` dice at turn
        total t (units) with bank index i against j; totals past `top` are worth what `top` is.

        `farkled` and `penalized` are the roller's values after a Farkle and a penalty roll, `values` the
        turn-start values of the opponent's next turn (by bank indices).
        """
        game = self._game
        beyond = _distinct(game.ending, j)
        top = game.size + beyond - 1 - i
        cells = np.full((self._width, self._dice), game.ending[j, beyond - 1])
        flat = cells.reshape(-1)
        rolling = np.empty((top + 1, self._dice))
        banks = np.arange(i, i + top + 1)
        inside = banks < game.size
        banked = np.where(inside, 1.0 - values[j, np.minimum(banks, game.size - 1)], 0.0)
        banked[~inside] = game.ending[j, banks[~inside] - game.size]
        bank_from = int(game.bank_from[i])
        keep_rows, chances, dice = self._keep_rows, self._chances, self._dice
        best = np.empty(chances.shape[1])
        best[-3:] = farkled, penalized, 1.0
        keeps_best = best[:-3]
        for t in range(top, -1, -1):
            np.maximum.reduce(flat[t * dice :].take(keep_rows), axis=0, out=keeps_best)
            row = rolling[t]
            np.dot(chances, best, out=row)
            if t < bank_from:
                cells[t] = row
                continue
            np.maximum(row, banked[t], out=cells[t])
            if self._forced:
                cells[t, 0] = row[0]  # hot dice must be rolled
        return rolling, top


def _distinct(ending: FloatArray, j: int) -> int:
    """How many values of banking past the target differ against bank j (as `kernels.distinct`)."""
    beyond = int(ending.shape[1])
    while beyond > 1 and ending[j, beyond - 2] == ending[j, beyond - 1]:
        beyond -= 1
    return beyond
