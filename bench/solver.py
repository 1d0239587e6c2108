"""Solver benchmark: solve time and expected points of an optimally played turn, per preset.

Run: .venv/bin/python bench/solver.py
"""

import time

from bot.engine.rules import PRESET_NAMES, Ruleset
from bot.engine.solver import solve_turn


def main() -> None:
    print(f"{'preset':<12} {'board':<9} {'solve s':>8} {'turn EV':>9}")
    for name in PRESET_NAMES:
        rules = Ruleset.preset(name)
        for on_board in (True, False) if rules.entry_minimum else (True,):
            start = time.perf_counter()
            policy = solve_turn(rules, on_board)  # the first of these rules: scoring tables + induction
            elapsed = time.perf_counter() - start
            board = "on" if on_board else "off"
            print(f"{name:<12} {board:<9} {elapsed:>8.3f} {policy.expected_if_rolling(0, 6):>9.2f}")
    check = Ruleset(straight=None)
    start = time.perf_counter()
    value = solve_turn(check).expected_if_rolling(0, 6)
    elapsed = time.perf_counter() - start
    print(f"classic without straight (Busche & Neller 446.57): {value:.2f} in {elapsed:.3f} s")


if __name__ == "__main__":
    main()
