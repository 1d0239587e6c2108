"""How likely one turn is to gain a given number of points: the chase of a leader (expert's last turns)
and the other player's last turn in the win tables' end of the game."""

from __future__ import annotations

import threading
from math import gcd

from bot.engine.rules import Ruleset
from bot.engine.scoring import is_penalty_roll, outcome_count, scoring_tables


class ReachTable:
    """Chance that a turn rolling n dice gains `gap` more points and banks them, playing for exactly that.

    The chance depends only on the gap (in units of the largest step dividing every score), so one table
    per ruleset serves every chase; it grows on demand. Penalty rolls count as failures. The entry roll
    limit is not modelled (a chasing side has a bank to beat, so it is on the board in practice).
    """

    def __init__(self, rules: Ruleset) -> None:
        tables = scoring_tables(rules)
        self.unit = gcd(rules.piggyback_bonus, *tables.score.values())
        self._forced = rules.hot_dice == "forced"
        # per dice rolled: (probability, ((units gained, dice left), ...) of the best keep per dice kept)
        self._outcomes: list[list[tuple[float, tuple[tuple[int, int], ...]]]] = [[] for _ in range(7)]
        for roll, options in tables.options.items():
            n = len(roll)
            if not options or is_penalty_roll(roll, rules):
                continue
            best: dict[int, int] = {}
            for option in options:
                best.setdefault(len(option.dice), option.points // self.unit)
            keeps = tuple((units, n - kept) for kept, units in best.items())
            self._outcomes[n].append((outcome_count(roll) / 6**n, keeps))
        # Gap 0: any scoring roll with a bankable keep succeeds; only-hot-dice rolls (when forced) go again.
        done = [0.0] * 7
        again = [0.0] * 7
        for n in range(1, 7):
            for p, keeps in self._outcomes[n]:
                if any(left or not self._forced for _, left in keeps):
                    done[n] += p
                else:
                    again[n] += p
        fresh = done[6] / (1 - again[6])
        self._roll: list[list[float]] = [[done[n] + again[n] * fresh] for n in range(7)]
        self._growing = threading.RLock()

    def after(self, gap: int, left: int) -> float:
        """Chance once dice are kept, `gap` units still to gain and `left` dice (0 = hot dice) to roll."""
        if gap <= 0 and (left or not self._forced):
            return 1.0
        return self.rolling(gap, left or 6)

    def rolling(self, gap: int, n: int) -> float:
        gap = max(gap, 0)
        if len(self._roll[n]) <= gap:
            with self._growing:  # one table serves every game of these rules, from any thread
                while len(self._roll[n]) <= gap:
                    self._grow()
        return self._roll[n][gap]

    def _grow(self) -> None:
        """Add the next gap for every dice count: a keep gains at least a unit, so smaller gaps are known."""
        gap = len(self._roll[6])
        after = self.after
        for n in range(1, 7):
            self._roll[n].append(
                sum(
                    p * max(after(gap - units, left) for units, left in keeps)
                    for p, keeps in self._outcomes[n]
                )
            )


_REACH: dict[str, ReachTable] = {}


def reach_table(rules: Ruleset) -> ReachTable:
    """The reach table of these rules, shared by every chase under them."""
    key = rules.key()
    if key not in _REACH:
        _REACH[key] = ReachTable(rules)
    return _REACH[key]
