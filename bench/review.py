"""Game review benchmark: CPU time to review one long game, in each measure.

- win: two players with win tables of the game's size (coin-flip values: a review's cost is one turn
  solve per turn and does not depend on the values, and real tables of a preset take minutes to solve;
  `--solve` solves the real ones first);
- turn: three players, expected turn points from the turn solver (solved before timing, as the bot keeps
  solved policies).

Run: .venv/bin/python bench/review.py [--turns 100] [--solve]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bot.engine import simulate
from bot.engine.dice import ScriptedDice
from bot.engine.game import Game
from bot.engine.levels import strategy_for
from bot.engine.review import review
from bot.engine.rules import Ruleset
from bot.engine.saved import JSON
from bot.engine.solver import solve
from bot.engine.wingame import streak_count
from bot.engine.winprob import WinTables
from bot.engine.winsolve import solve_winprob


def long_game(rules: Ruleset, levels: tuple[str, ...], turns: int) -> tuple[Game, dict[str, JSON]]:
    """The first seeded game of these levels lasting at least `turns` turns, and its first dice."""
    players = [f"cpu:{level}:{seat}" for seat, level in enumerate(levels)]
    strategies = {p: strategy_for(level, rules) for p, level in zip(players, levels, strict=True)}
    for seed in range(10_000):
        game = simulate.play(rules, players, strategies, seed)
        if game.turn_number >= turns:
            return game, ScriptedDice([(6,) + (1,) * (len(players) - 1)], seed=seed).state()
    raise RuntimeError(f"no game of {turns} turns in 10,000 seeds")


def timed(rules: Ruleset, game: Game, start: dict[str, JSON], tables: WinTables | None) -> None:
    players = [p.id for p in game.players]
    review(rules, players, start, game.history, tables)  # warm: Numba kernels, caches of the rules
    began = time.process_time()
    result = review(rules, players, start, game.history, tables)
    cpu = time.process_time() - began
    print(
        f"{result.measure:<5} {len(players)} players {game.turn_number:>4} turns "
        f"{len(result.decisions):>4} decisions  {cpu * 1000:>7.1f} ms CPU"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--solve", action="store_true", help="solve real win tables (minutes)")
    args = parser.parse_args()
    rules = Ruleset.preset("classic").model_copy(update={"target": 20_000})
    solve(rules, on_board=True)
    solve(rules, on_board=False)
    if args.solve:
        tables = solve_winprob(rules)
    else:
        size, streaks = rules.target // 50, streak_count(rules)
        tables = WinTables(rules, 3000, np.full((streaks, streaks, size, size), 0.5))
    game, start = long_game(rules, ("easy", "normal"), args.turns)
    timed(rules, game, start, tables)
    game, start = long_game(rules, ("easy", "normal", "expert"), args.turns)
    timed(rules, game, start, None)


if __name__ == "__main__":
    main()
