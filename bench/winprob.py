"""Win-probability solver benchmark: per preset, solve time and peak memory on one core, table size, and
the first player's chance under optimal play; then the ruleset of the published two-player figure.

Run: .venv/bin/python bench/winprob.py   (minutes: each preset is solved from scratch, Numba compile first)
"""

from __future__ import annotations

import time
import tracemalloc

from bot.engine.rules import PRESET_NAMES, Ruleset
from bot.engine.winprob import unsupported
from bot.engine.winsolve import solve_winprob

# domsleee/farkle (a solver for cardgames.io's Farkle): 1 = 100, 5 = 50, three of a kind x100 (1s: 1,000),
# four/five/six of a kind 1,000/2,000/3,000, three pairs 1,500, straight 2,500; first to 10,000 wins;
# no entry, no three-Farkle penalty. Its README: "Expected win rate against a perfect AI when you go first
# is 53.3%".
PUBLISHED = Ruleset(n_of_a_kind="fixed", three_pairs=1500, straight=2500, end_rule="last_loses")
PUBLISHED_FIRST_PLAYER = 0.533


def measure(rules: Ruleset) -> tuple[float, float, int, float]:
    tracemalloc.start()
    start = time.perf_counter()
    tables = solve_winprob(rules)
    elapsed = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return elapsed, peak / 2**20, len(tables.to_bytes()), tables.first_player_win


def main() -> None:
    solve_winprob(Ruleset(target=1000))  # compile the kernels (or load them from Numba's cache) first
    print(f"{'rules':<12} {'solve s':>8} {'peak MiB':>9} {'table KiB':>10} {'first player':>13}")
    for name in PRESET_NAMES:
        rules = Ruleset.preset(name)
        reason = unsupported(rules)
        if reason:
            print(f"{name:<12} no tables ({reason}): master plays as expert")
            continue
        elapsed, peak, size, first = measure(rules)
        print(f"{name:<12} {elapsed:>8.1f} {peak:>9.1f} {size / 1024:>10.0f} {first:>12.2%}")
    elapsed, peak, size, first = measure(PUBLISHED)
    print(
        f"{'published':<12} {elapsed:>8.1f} {peak:>9.1f} {size / 1024:>10.0f} {first:>12.2%}"
        f"   (domsleee/farkle: {PUBLISHED_FIRST_PLAYER:.1%})"
    )


if __name__ == "__main__":
    main()
