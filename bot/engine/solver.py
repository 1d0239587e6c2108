"""Optimal single-turn play: the policy that maximises the expected points a turn adds.

Backward induction over (turn total, dice left). A keep always adds points, so values at a turn
total depend only on higher totals: one downward sweep from a cap solves the turn. Above the cap
(`_CAP`, far beyond any real turn) rolling on is valued as "bank at the first legal chance", which
is linear in the turn total and computed in closed form; the tests check the cap changes nothing.

Modelling choices where the table alone does not say:
- a penalty roll ends the turn and counts as its plain points (e.g. -10,000), whatever the bank;
- six 1s under the instant-win rule count as their points (a turn value, not a game win);
- after a roll, only the best keep for each number of dice kept is considered (same dice left,
  more points dominates);
- ties prefer banking, then keeping fewer dice.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from math import gcd
from typing import Any

from bot.engine.rules import Ruleset
from bot.engine.scoring import (
    ScoringOption,
    is_penalty_roll,
    outcome_count,
    scoring_options,
    scoring_tables,
    wins_at_once,
)

_CAP = 50_000
_JSON_VERSION = 1


@dataclass(frozen=True)
class Decision:
    """What to do with a roll: keep these faces, then bank or roll on; `expected` = final turn points."""

    keep: tuple[int, ...]
    bank: bool
    expected: float


# A roll's keeps worth considering: (points in units, dice left after keeping; 0 = hot dice).
Keeps = tuple[tuple[int, int], ...]
# Rolls of n dice grouped by their keeps, with probabilities; and the expected penalty-roll points.
Outcomes = tuple[list[tuple[float, Keeps]], float]


def _best_keep_per_count(options: Sequence[ScoringOption]) -> dict[int, tuple[tuple[int, ...], int]]:
    """Dice kept -> (faces, points) of the best keep with that many dice (options come best first)."""
    best: dict[int, tuple[tuple[int, ...], int]] = {}
    for option in options:
        best.setdefault(len(option.dice), (option.dice, option.points))
    return best


def roll_outcomes(rules: Ruleset, n: int, unit: int, prune: bool, apart: bool = False) -> Outcomes:
    """Rolls of n dice grouped by their keeps (with probabilities), and the penalty-roll term.

    `prune` keeps only the best keep per number of dice kept; without it every keep stays (slower;
    the tests use it to check that pruning never changes a value). `apart` leaves out six 1s that win
    at once (the win tables value that roll as a win, not as points).
    """
    grouped: dict[Keeps, float] = {}
    penalty = 0.0
    tables = scoring_tables(rules)
    for roll in combinations_with_replacement(range(1, 7), n):
        options = tables.options[roll]
        if not options:
            continue
        p = outcome_count(roll) / 6**n
        if is_penalty_roll(roll, rules):
            penalty += p * (rules.penalty_roll or 0)
            continue
        if apart and wins_at_once(roll, rules):
            continue
        if prune:
            candidates = list(_best_keep_per_count(options).values())
        else:
            candidates = [(option.dice, option.points) for option in options]
        keeps = tuple(sorted({(points // unit, n - len(dice)) for dice, points in candidates}))
        grouped[keeps] = grouped.get(keeps, 0.0) + p
    return [(p, keeps) for keeps, p in grouped.items()], penalty


def score_unit(rules: Ruleset) -> int:
    """Largest step dividing every reachable turn total (50 for every sheet)."""
    step = rules.piggyback_bonus
    for points in scoring_tables(rules).score.values():
        step = gcd(step, points)
    return step


class TurnPolicy:
    """Solved turn values for one ruleset; answers "which keep, then bank or roll?"."""

    def __init__(
        self,
        rules: Ruleset,
        on_board: bool,
        unit: int,
        rolling: list[list[float]],
        linear: list[tuple[float, float]],
        limited: list[list[list[float]]],
    ) -> None:
        self.rules = rules
        self.on_board = on_board
        self._unit = unit
        self._rolling = rolling  # [n][t]: value of rolling n dice at turn total t * unit
        self._linear = linear  # [n]: (a, b) with value a * total + b beyond the table
        self._limited = limited  # [rolls done][n][t]: off board with an entry roll limit, below the entry
        self._bank_from = _bank_from(rules, on_board)
        self._entry_limit = None if on_board else rules.entry_roll_limit

    def expected_if_rolling(self, turn_total: int, dice_left: int, rolls: int = 0) -> float:
        """Expected final turn points when rolling `dice_left` dice now (0 means six, hot dice)."""
        n = dice_left or 6
        t = self._index(turn_total)
        if self._entry_limit is not None and turn_total < self.rules.entry_minimum:
            if rolls >= self._entry_limit:
                return 0.0
            return self._limited[rolls][n][t]
        if t < len(self._rolling[n]):
            return self._rolling[n][t]
        a, b = self._linear[n]
        return a * turn_total + b

    def after_keep(self, turn_total: int, dice_left: int, rolls: int = 0) -> tuple[float, bool]:
        """(expected final points, bank?) once dice are kept: `rolls` done, `dice_left` (0 = hot dice)."""
        if (
            self._entry_limit is not None
            and turn_total < self.rules.entry_minimum
            and rolls >= self._entry_limit
        ):
            return 0.0, False  # the entry was not reached within the roll limit
        rolling = self.expected_if_rolling(turn_total, dice_left, rolls)
        return _settle(turn_total, rolling, _may_bank(self.rules, self._bank_from, turn_total, dice_left))

    def decide(self, roll: Sequence[int], turn_total: int, rolls: int = 1) -> Decision:
        """Best keep for `roll` at `turn_total` (before keeping); `rolls` counts this roll (entry limit).

        A Farkle gives an empty keep worth 0; a penalty roll an empty keep worth the penalty.
        """
        if is_penalty_roll(roll, self.rules):
            return Decision((), False, float(self.rules.penalty_roll or 0))
        best = Decision((), False, 0.0)
        found = False
        for kept, (faces, points) in sorted(_best_keep_per_count(scoring_options(roll, self.rules)).items()):
            value, bank = self.after_keep(turn_total + points, len(roll) - kept, rolls)
            if not found or value > best.expected:
                best, found = Decision(faces, bank, value), True
        return best

    def _index(self, turn_total: int) -> int:
        if turn_total < 0 or turn_total % self._unit:
            raise ValueError(f"A turn total here is a multiple of {self._unit}, not {turn_total}.")
        return turn_total // self._unit

    def to_json(self) -> str:
        """Everything needed to answer decisions without solving again (for the SQLite cache)."""
        return json.dumps(
            {
                "version": _JSON_VERSION,
                "rules": self.rules.model_dump(mode="json"),
                "on_board": self.on_board,
                "unit": self._unit,
                "rolling": self._rolling,
                "linear": self._linear,
                "limited": self._limited,
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> TurnPolicy:
        data: dict[str, Any] = json.loads(text)
        if data.get("version") != _JSON_VERSION:
            raise ValueError("This cached policy was made by another solver version; solve again.")
        return cls(
            Ruleset(**data["rules"]),
            bool(data["on_board"]),
            int(data["unit"]),
            data["rolling"],
            [(float(a), float(b)) for a, b in data["linear"]],
            data["limited"],
        )


def _bank_from(rules: Ruleset, on_board: bool) -> int:
    return max(rules.bank_minimum, 0 if on_board else rules.entry_minimum)


def _may_bank(rules: Ruleset, bank_from: int, turn_total: int, dice_left: int) -> bool:
    return turn_total >= bank_from and not (dice_left == 0 and rules.hot_dice == "forced")


def _settle(turn_total: int, rolling: float, may_bank: bool) -> tuple[float, bool]:
    if may_bank and turn_total >= rolling:
        return float(turn_total), True
    return rolling, False


def _linear_tail(outcomes: list[Outcomes], unit: int, forced: bool) -> list[tuple[float, float]]:
    """Value a*T + b of rolling n dice at a huge total T when banking at the first legal chance."""

    def sums(n: int) -> tuple[float, float, float, float]:
        bank_p = bank_s = hot_p = hot_s = 0.0
        for p, keeps in outcomes[n][0]:
            bankable = [s for s, left in keeps if left or not forced]
            if bankable:
                bank_p, bank_s = bank_p + p, bank_s + p * max(bankable) * unit
            else:
                hot_p, hot_s = hot_p + p, hot_s + p * max(s for s, _ in keeps) * unit
        return bank_p, bank_s, hot_p, hot_s

    bank_p, bank_s, hot_p, hot_s = sums(6)
    a6 = bank_p / (1 - hot_p)
    b6 = (bank_s + a6 * hot_s + outcomes[6][1]) / (1 - hot_p)
    linear = [(0.0, 0.0)] * 7
    for n in range(1, 7):
        bank_p, bank_s, hot_p, hot_s = sums(n)
        linear[n] = (bank_p + hot_p * a6, bank_s + a6 * hot_s + hot_p * b6 + outcomes[n][1])
    return linear


def _sweep(
    outcomes: list[Outcomes],
    after: list[list[float]],
    rolling: list[list[float]],
    ts: range,
    fill_after: Callable[[int], None],
) -> None:
    """Compute rolling[n][t] for t in `ts` (descending), then `fill_after(t)` updates after[.][t]."""
    for t in ts:
        for n in range(1, 7):
            value = outcomes[n][1]
            for p, keeps in outcomes[n][0]:
                value += p * max(after[left][t + s] for s, left in keeps)
            rolling[n][t] = value
        fill_after(t)


def _solve(rules: Ruleset, on_board: bool, cap: int = _CAP, prune: bool = True) -> TurnPolicy:
    unit = score_unit(rules)
    outcomes: list[Outcomes] = [([], 0.0)] + [roll_outcomes(rules, n, unit, prune) for n in range(1, 7)]
    top = cap // unit
    reach = max(s for n in range(1, 7) for _, keeps in outcomes[n][0] for s, _ in keeps)
    size = top + reach + 1
    linear = _linear_tail(outcomes, unit, rules.hot_dice == "forced")
    bank_from = _bank_from(rules, on_board)

    # after[left][t]: value once dice are kept, `left` dice remain (0 = hot dice); past `top` rolling
    # on is valued by the linear tail, as `TurnPolicy.after_keep` does.
    rolling = [[0.0] * (top + 1) for _ in range(7)]
    after = [[0.0] * size for _ in range(6)]

    def fill(t: int) -> None:
        total = t * unit
        for left in range(6):
            on = rolling[left or 6][t] if t <= top else linear[left or 6][0] * total + linear[left or 6][1]
            after[left][t] = _settle(total, on, _may_bank(rules, bank_from, total, left))[0]

    for t in range(top + 1, size):
        fill(t)
    _sweep(outcomes, after, rolling, range(top, -1, -1), fill)
    limited: list[list[list[float]]] = []
    if not on_board and rules.entry_roll_limit is not None:
        limited = _solve_entry_limit(rules, unit, outcomes, after)
    return TurnPolicy(rules, on_board, unit, rolling, linear, limited)


def _solve_entry_limit(
    rules: Ruleset,
    unit: int,
    outcomes: list[Outcomes],
    after: list[list[float]],
) -> list[list[list[float]]]:
    """Below the entry, the number of rolls matters: one sweep per roll count, last roll first."""
    limit = rules.entry_roll_limit or 0
    below = -(-rules.entry_minimum // unit)  # first t at or above the entry
    limited = [[[0.0] * below for _ in range(7)] for _ in range(limit)]
    for done in range(limit - 1, -1, -1):
        # after this roll `done + 1` rolls are made; below the entry one must roll on, or fail at the limit
        layer = [list(row) for row in after]
        for left in range(6):
            for t in range(below):
                layer[left][t] = 0.0 if done + 1 >= limit else limited[done + 1][left or 6][t]
        _sweep(outcomes, layer, limited[done], range(below - 1, -1, -1), lambda t: None)
    return limited


def solve_turn(rules: Ruleset, on_board: bool = True) -> TurnPolicy:
    """The optimal turn policy (a tenth of a second or more: its owner solves it once, off the event loop,
    and hands it on, see `bot.engine.policies.TurnPolicies`). Off the board is on it without an entry."""
    return _solve(rules, on_board or rules.entry_minimum == 0)


def turn_expected_value(rules: Ruleset, on_board: bool = True) -> float:
    """Expected points an optimally played turn adds, from six fresh dice (solves the turn)."""
    return solve_turn(rules, on_board).expected_if_rolling(0, 6)
