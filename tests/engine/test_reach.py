"""The reach table (NumPy, every dice count per gap) against a plain one-roll-at-a-time reference."""

from __future__ import annotations

import threading
from functools import cache
from itertools import combinations_with_replacement

import pytest

from bot.engine import Ruleset
from bot.engine.reach import ReachTable
from bot.engine.scoring import is_penalty_roll, outcome_count, scoring_options
from bot.engine.solver import score_unit

TOP = 150  # past the largest keep (40 units) and the table's first doubling
RULESETS = [Ruleset.preset("classic"), Ruleset.preset("family")]  # hot dice optional, forced


@cache
def rolls(rules: Ruleset, n: int) -> list[tuple[float, list[tuple[int, int]]]]:
    """Every roll of n dice that can score: its chance and each keep's (units, dice left)."""
    unit = score_unit(rules)
    found = []
    for roll in combinations_with_replacement(range(1, 7), n):
        keeps = [(o.points // unit, n - len(o.dice)) for o in scoring_options(roll, rules)]
        if keeps and not is_penalty_roll(roll, rules):
            found.append((outcome_count(roll) / 6**n, keeps))
    return found


@cache
def reference(rules: Ruleset) -> list[list[float]]:
    """`[gap][n]`: the chance to gain `gap` units rolling n dice, every keep of every roll weighed.

    Gap 0 is found by repeating the turn until nothing moves (forced hot dice roll six dice again);
    a larger gap needs only smaller ones, since a keep gains at least a unit.
    """
    forced = rules.hot_dice == "forced"
    table: list[list[float]] = []

    def after(gap: int, left: int, start: list[float]) -> float:
        if gap <= 0 and (left or not forced):
            return 1.0
        return start[6] if gap <= 0 else table[gap][left or 6]

    def turn(gap: int, start: list[float]) -> list[float]:
        return [0.0] + [
            sum(
                p * max(after(gap - units, left, start) for units, left in keeps)
                for p, keeps in rolls(rules, n)
            )
            for n in range(1, 7)
        ]

    start = [0.0] * 7
    for _ in range(100):
        start = turn(0, start)
    table.append(start)
    for gap in range(1, TOP + 1):
        table.append(turn(gap, start))
    return table


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.hot_dice)
def test_table_equals_the_reference(rules: Ruleset) -> None:
    table = ReachTable(rules)
    expected = reference(rules)
    for gap in range(TOP + 1):
        for n in range(1, 7):
            assert table.rolling(gap, n) == pytest.approx(expected[gap][n], abs=1e-12), (gap, n)
    for gap in range(-3, 4):
        for left in range(6):
            want = (
                1.0
                if gap <= 0 and (left or rules.hot_dice == "optional")
                else expected[max(gap, 0)][left or 6]
            )
            assert table.after(gap, left) == pytest.approx(want, abs=1e-12), (gap, left)
    assert table.rolling(-5, 3) == table.rolling(0, 3)
    assert list(table.rolling_upto(TOP, 6)) == [table.rolling(gap, 6) for gap in range(TOP + 1)]


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.hot_dice)
def test_growth_order_and_threads_change_nothing(rules: Ruleset) -> None:
    """A large gap asked first (one growth past several doublings), or by many threads at once, gives
    the values gap-by-gap growth gives."""
    step_by_step = ReachTable(rules)
    expected = [[step_by_step.rolling(gap, n) for n in range(1, 7)] for gap in range(TOP * 3)]
    at_once = ReachTable(rules)
    assert at_once.rolling(TOP * 3 - 1, 2) == expected[-1][1]
    shared = ReachTable(rules)
    seen: list[list[list[float]]] = []

    def read(first: int) -> None:
        seen.append([[shared.rolling(gap, n) for n in range(1, 7)] for gap in range(first, TOP * 3)])

    threads = [threading.Thread(target=read, args=(first,)) for first in (TOP * 2, TOP, 0, TOP // 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [[at_once.rolling(gap, n) for n in range(1, 7)] for gap in range(TOP * 3)] == expected
    assert sorted(len(values) for values in seen) == [TOP, TOP * 2, TOP * 5 // 2, TOP * 3]
    for values in seen:
        assert values == expected[TOP * 3 - len(values) :]
