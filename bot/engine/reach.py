"""How likely one turn is to gain a given number of points: the chase of a leader (expert's last turns)
and the other player's last turn in the win tables' end of the game."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from bot.engine.rules import Ruleset
from bot.engine.solver import Keeps, roll_outcomes, score_unit

FloatArray = np.ndarray[Any, np.dtype[np.float64]]
IntArray = np.ndarray[Any, np.dtype[np.int64]]

_FIRST_GAPS = 64  # gaps the table holds before it first doubles


class ReachTable:
    """Chance that a turn rolling n dice gains `gap` more points and banks them, playing for exactly that.

    The chance depends only on the gap (in units of the largest step dividing every score), so one table
    per ruleset serves every chase (its owners keep it: `TurnPolicies`, `WinTables`); it grows on demand.
    Penalty rolls count as failures. The entry roll limit is not modelled (a chasing side has a bank to
    beat, so it is on the board in practice).

    Speed: the end of the win tables asks for gaps up to ~260 at start-up, ~700,000 keep look-ups per
    ruleset, so a gap is computed for every dice count at once with NumPy. The values sit in one array,
    `[pad + gap, n]`, whose first `pad + 1` rows (gaps of 0 and less: the gap is reached) hold what
    `after` gives there: 1.0, or the chance of rolling six dice at gap 0 when hot dice must be rolled. So
    every keep reads a fixed flat offset from the row of the gap being computed.
    """

    def __init__(self, rules: Ruleset) -> None:
        self.unit = score_unit(rules)
        self._forced = rules.hot_dice == "forced"
        # per dice rolled: (probability, ((units gained, dice left), ...)) of the rolls with these best keeps
        outcomes: list[list[tuple[float, Keeps]]] = [[]]
        outcomes += [roll_outcomes(rules, n, self.unit, prune=True)[0] for n in range(1, 7)]
        # Gap 0: any scoring roll with a bankable keep succeeds; only-hot-dice rolls (when forced) go again.
        done = [0.0] * 7
        again = [0.0] * 7
        for n in range(1, 7):
            for p, keeps in outcomes[n]:
                if any(left or not self._forced for _, left in keeps):
                    done[n] += p
                else:
                    again[n] += p
        fresh = done[6] / (1 - again[6])
        self._start = [0.0] + [done[n] + again[n] * fresh for n in range(1, 7)]  # rolling n dice at gap 0
        self._flatten(outcomes)
        self._values: FloatArray = np.ones((self._pad + _FIRST_GAPS, 7))
        if self._forced:  # hot dice at or past the gap roll six dice again: as good as six dice at gap 0
            self._values[: self._pad + 1, 6] = self._start[6]
        self._known = 1  # gaps 1 .. known-1 are computed
        self._growing = threading.RLock()

    def _flatten(self, outcomes: list[list[tuple[float, Keeps]]]) -> None:
        """Every keep of every outcome of 1-6 dice as flat arrays, in order of dice, then outcome."""
        self._pad = max(units for n in range(1, 7) for _, keeps in outcomes[n] for units, _ in keeps)
        chances: list[float] = []
        keep_starts: list[int] = []
        dice_starts: list[int] = []
        offsets: list[int] = []
        for n in range(1, 7):
            dice_starts.append(len(chances))
            for p, keeps in outcomes[n]:
                chances.append(p)
                keep_starts.append(len(offsets))
                # the flat index of value [pad + gap - units, left or 6], less that of [gap, 0]
                offsets.extend((self._pad - units) * 7 + (left or 6) for units, left in keeps)
        self._chances: FloatArray = np.array(chances)
        self._keep_starts: IntArray = np.array(keep_starts, dtype=np.int64)
        self._dice_starts: IntArray = np.array(dice_starts, dtype=np.int64)
        self._offsets: IntArray = np.array(offsets, dtype=np.int64)

    def after(self, gap: int, left: int) -> float:
        """Chance once dice are kept, `gap` units still to gain and `left` dice (0 = hot dice) to roll."""
        if gap <= 0 and (left or not self._forced):
            return 1.0
        return self.rolling(gap, left or 6)

    def rolling(self, gap: int, n: int) -> float:
        if gap <= 0:
            return self._start[n]
        if gap >= self._known:
            with self._growing:  # one table serves every game of these rules, from any thread
                self._grow(gap)
        return float(self._values[self._pad + gap, n])

    def rolling_upto(self, top: int, n: int) -> FloatArray:
        """`rolling(gap, n)` for every gap from 0 to `top`."""
        self.rolling(top, n)
        chances = self._values[self._pad : self._pad + top + 1, n].copy()
        chances[0] = self._start[n]
        return chances

    def _grow(self, gap: int) -> None:
        """Compute every gap up to `gap` for every dice count: a keep gains at least a unit, so each gap
        needs only smaller ones. Readers never see a value before it is final: `_known` moves last."""
        values = self._values
        if self._pad + gap >= len(values):
            values = np.zeros((max(2 * len(values), self._pad + gap + 1), 7))
            values[: len(self._values)] = self._values
            self._values = values
        flat = values.reshape(-1)
        for new in range(self._known, gap + 1):
            reached = flat[self._offsets + new * 7]  # value after each keep
            best = np.maximum.reduceat(reached, self._keep_starts)  # the best keep of each outcome
            values[self._pad + new, 1:] = np.add.reduceat(self._chances * best, self._dice_starts)
            self._known = new + 1
