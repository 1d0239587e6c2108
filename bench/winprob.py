"""Win tables benchmark.

Default: what the bot does with the shipped tables, without Numba: per preset the load time, then master
against master for --games games (seeded), timing every decision master makes and the Hint's chances at
the same moments (`win_chances`): all decisions, and the first one of each turn (a turn solved afresh).

--solve: per preset, solve time (CPU seconds of the one core it runs on, and wall seconds: on a shared
machine the wall clock counts other processes too) and peak memory, table size, and the first player's
chance under optimal play; then the ruleset of the published two-player figure (Numba compiles first).

Run: .venv/bin/python bench/winprob.py [--games 40] [--solve]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import tracemalloc

from bot.engine.dice import ScriptedDice
from bot.engine.game import Action, Game
from bot.engine.levels import strategy_for
from bot.engine.master import win_chances
from bot.engine.policies import TurnPolicies
from bot.engine.rules import PRESET_NAMES, Ruleset
from bot.engine.win.tables import WinTables, unsupported
from bot.sessions.win_tables import shipped_path

# domsleee/farkle (a solver for cardgames.io's Farkle): 1 = 100, 5 = 50, three of a kind x100 (1s: 1,000),
# four/five/six of a kind 1,000/2,000/3,000, three pairs 1,500, straight 2,500; first to 10,000 wins;
# no entry, no three-Farkle penalty. Its README: "Expected win rate against a perfect AI when you go first
# is 53.3%".
PUBLISHED = Ruleset(n_of_a_kind="fixed", three_pairs=1500, straight=2500, end_rule="last_loses")
PUBLISHED_FIRST_PLAYER = 0.533


def decisions(rules: Ruleset, tables: WinTables, games: int) -> tuple[list[float], list[float], list[float]]:
    """Milliseconds per master decision, per first decision of a turn, per Hint."""
    master = strategy_for("master", rules, TurnPolicies.solve(rules), tables)
    every: list[float] = []
    cold: list[float] = []
    hints: list[float] = []
    seeds = random.Random(1)
    for _ in range(games):
        game = Game.new(rules, ["a", "b"], ScriptedDice([(6, 1)], seed=seeds.getrandbits(64)))
        turn = None
        while game.result is None:
            start = time.perf_counter()
            win_chances(game, tables)
            hints.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            action: Action = master.choose(game)
            every.append((time.perf_counter() - start) * 1000)
            key = (game.current_player, game.turn.rolls == 0)
            if game.phase == "choosing" and key != turn:
                cold.append(hints[-1])  # the Hint came first: it solved the turn
            turn = key
            game.apply(action)
    return every, cold, hints


def summary(ms: list[float]) -> str:
    ms = sorted(ms)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    return f"mean {statistics.fmean(ms):.3f}  p50 {statistics.median(ms):.3f}  p99 {p99:.3f}  (n {len(ms)})"


def bench_decisions(games: int) -> None:
    print("ms per call, shipped tables, master vs master")
    for name in PRESET_NAMES:
        start = time.perf_counter()
        tables = WinTables.from_bytes(shipped_path(name).read_bytes())
        loaded = time.perf_counter() - start
        every, cold, hints = decisions(Ruleset.preset(name), tables, games)
        print(f"{name}: loaded in {loaded * 1000:.0f} ms")
        print(f"  master's decision        {summary(every)}")
        print(f"  the Hint's chances       {summary(hints)}")
        print(f"  a turn's first choice    {summary(cold)}")
    print(f"Numba imported: {'numba' in sys.modules}")


def measure(rules: Ruleset) -> str:
    """One solve's row: CPU and wall seconds, peak MiB, stored KiB, the first player's chance."""
    from bot.engine.win.solve import solve_winprob  # the solver (Numba) only for --solve

    tracemalloc.start()
    wall, cpu = time.perf_counter(), time.process_time()
    tables = solve_winprob(rules)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    stored = len(tables.to_bytes()) / 1024
    return f"{cpu:>6.1f} {wall:>7.1f} {peak:>9.1f} {stored:>10.0f} {tables.first_player_win:>12.2%}"


def bench_solve() -> None:
    for rules in (Ruleset(target=1000), Ruleset(target=1000, three_farkles="reset")):
        measure(rules)  # compile the kernels (or load them from Numba's cache) first
    print(f"{'rules':<12} {'cpu s':>6} {'wall s':>7} {'peak MiB':>9} {'table KiB':>10} {'first player':>13}")
    for name in PRESET_NAMES:
        rules = Ruleset.preset(name)
        reason = unsupported(rules)
        if reason:
            print(f"{name:<12} no tables ({reason}): master plays as expert")
            continue
        print(f"{name:<12} {measure(rules)}", flush=True)
    print(f"{'published':<12} {measure(PUBLISHED)}   (domsleee/farkle: {PUBLISHED_FIRST_PLAYER:.1%})")


if __name__ == "__main__":
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--solve", action="store_true")
    args = parser.parse_args()
    if args.solve:
        bench_solve()
    else:
        bench_decisions(args.games)
