"""Game review benchmark: CPU time to review one long game, in each measure, and the chance-to-win chart.

- win: two players with win tables of the game's size (coin-flip values: a review's cost is one turn
  solve per turn and does not depend on the values, and real tables of a preset take minutes to solve;
  `--solve` solves the real ones first);
- turn: three players, expected turn points from the turn solver (solved before timing, as the bot keeps
  solved policies).

Each line prints, side by side: replaying the game alone (the baseline), the whole review (every move
valued: the decisions and the luck and skill split share one replay), and of it the split's own work
(linking the moments, each player's decisions and dice, the turning point). Then the chart of the longest
of 20 seeded classic games (shipped tables, easy against normal): drawing time and PNG size (targets:
< 150 ms, < 100 KB).

Run: .venv/bin/python bench/review.py [--turns 100] [--solve]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from bot.engine import simulate
from bot.engine.game import Game
from bot.engine.levels import strategy_for
from bot.engine.luck import Step, linked, split, turning_point
from bot.engine.policies import TurnPolicies
from bot.engine.review import GameReview, review
from bot.engine.rules import Ruleset
from bot.engine.saved import JSON
from bot.engine.win.game import streak_count
from bot.engine.win.solve import solve_winprob
from bot.engine.win.tables import WinTables
from bot.render.chart import chart
from bot.sessions.win_tables import shipped_tables


def long_game(
    rules: Ruleset, policies: TurnPolicies, levels: tuple[str, ...], turns: int
) -> tuple[Game, dict[str, JSON]]:
    """The first seeded game of these levels lasting at least `turns` turns, and its first dice."""
    players = [f"cpu:{level}:{seat}" for seat, level in enumerate(levels)]
    seats = zip(players, levels, strict=True)
    strategies = {p: strategy_for(level, rules, policies, None) for p, level in seats}
    for seed in range(10_000):
        game = simulate.play(rules, players, strategies, seed)
        if game.turn_number >= turns:
            return game, simulate.first_dice(rules, players, seed).state()
    raise RuntimeError(f"no game of {turns} turns in 10,000 seeds")


def cpu_ms(work: Callable[[], object]) -> float:
    began = time.process_time()
    work()
    return (time.process_time() - began) * 1000


def timed(
    rules: Ruleset, game: Game, start: dict[str, JSON], policies: TurnPolicies, tables: WinTables | None
) -> None:
    players = [p.id for p in game.players]
    review(rules, players, start, game.history, policies, tables)  # warm: Numba kernels, caches of the rules
    replayed = cpu_ms(lambda: Game.replay(rules, players, start, game.history))
    reviewed = cpu_ms(lambda: review(rules, players, start, game.history, policies, tables))
    result = review(rules, players, start, game.history, policies, tables)
    split_ms = cpu_ms(lambda: split_alone(result, players))
    print(
        f"{result.measure:<5} {len(players)} players {game.turn_number:>4} turns "
        f"{len(result.decisions):>4} decisions {len(result.moments):>5} moments  replay {replayed:>6.1f} ms"
        f"  review with split {reviewed:>7.1f} ms  split's own work {split_ms:>5.1f} ms CPU"
    )


def split_alone(result: GameReview, players: list[str]) -> None:
    """What the split adds to a review's replay once the moves are valued (`luck.py`)."""
    steps = [
        Step(m.player, m.turn, m.event, m.kind, m.rolled, m.farkled, m.before, m.played, 0)
        for m in result.moments
    ]
    outcome = {p: 1.0 if p == players[0] else 0.0 for p in players}
    moments = linked(result.measure, steps, outcome)
    for player in players:
        split(result.measure, moments, player)
    turning_point(moments)


def chart_cost() -> None:
    rules = Ruleset.preset("classic")
    tables = shipped_tables(rules)
    if tables is None:
        print("chart: no shipped classic tables")
        return
    policies = TurnPolicies.solve(rules)
    games = [long_game_seed(rules, seed) for seed in range(20)]
    game, start = max(games, key=lambda g: g[0].turn_number)
    result = review(rules, [p.id for p in game.players], start, game.history, policies, tables)
    names = {p.id: f"Player {n}" for n, p in enumerate(game.players, start=1)}
    chart(result, names)  # warm: Pillow, the font
    walls, cpus, drawn = [], [], b""
    for _ in range(5):
        began, began_cpu = time.perf_counter(), time.process_time()
        drawn = chart(result, names) or b""
        walls.append(time.perf_counter() - began)
        cpus.append(time.process_time() - began_cpu)
    best = min(walls)
    print(
        f"chart {game.turn_number:>4} turns {len(result.moments):>5} moments  "
        f"best of 5 {best * 1000:>6.1f} ms wall {min(cpus) * 1000:>6.1f} ms CPU"
        f"  {len(drawn) / 1000:>5.1f} KB PNG"
    )


def long_game_seed(rules: Ruleset, seed: int) -> tuple[Game, dict[str, JSON]]:
    players = ["1", "2"]
    policies = TurnPolicies.solve(rules)  # neither easy nor normal reads them
    strategies = {
        "1": strategy_for("easy", rules, policies, None),
        "2": strategy_for("normal", rules, policies, None),
    }
    return simulate.play(rules, players, strategies, seed), simulate.first_dice(rules, players, seed).state()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--solve", action="store_true", help="solve real win tables (minutes)")
    args = parser.parse_args()
    rules = Ruleset.preset("classic").model_copy(update={"target": 20_000})
    policies = TurnPolicies.solve(rules)
    if args.solve:
        tables = solve_winprob(rules)
    else:
        size, streaks = rules.target // 50, streak_count(rules)
        tables = WinTables(rules, 3000, np.full((streaks, streaks, size, size), 0.5))
    game, start = long_game(rules, policies, ("easy", "normal"), args.turns)
    timed(rules, game, start, policies, tables)
    game, start = long_game(rules, policies, ("easy", "normal", "expert"), args.turns)
    timed(rules, game, start, policies, None)
    chart_cost()


if __name__ == "__main__":
    main()
