"""CPU cost of the playout chances (`bot/engine/multi.py`) per turn start, beside the two-player tables.

Plays seeded expert games on the classic preset (3, 4 and 6 players; box with 3) and times
`multi.chances` at every turn start, in CPU time of this process (the target: p95 ≤ 20 ms per turn
start). The baseline is the live chances two-player games show today: `review.live_chances` with the
shipped tables, at every turn start of two-player classic games.

Run: .venv/bin/python bench/multi_chances.py [--games 4]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from percentile import percentile

from bot.engine.dice import SeededDice
from bot.engine.game import Game
from bot.engine.multi import PLAYOUTS, TurnDraws, chances
from bot.engine.policies import TurnPolicies
from bot.engine.review import live_chances
from bot.engine.rules import Ruleset
from bot.engine.strategies import Expert
from bot.sessions.win_tables import shipped_tables


def turn_starts(rules: Ruleset, players: int, games: int, measure: Callable[[Game], object]) -> list[float]:
    """Milliseconds of CPU `measure` takes at every turn start of `games` seeded expert games."""
    expert = Expert(rules, TurnPolicies.solve(rules))
    costs: list[float] = []
    for seed in range(games):
        game = Game.new(rules, [f"p{n}" for n in range(players)], SeededDice(seed))
        while game.phase != "over":
            if game.phase == "turn_start":
                started = time.process_time()
                measure(game)
                costs.append(1000 * (time.process_time() - started))
            game.apply(expert.choose(game))
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per line (default 4)")
    games = parser.parse_args().games
    classic = Ruleset.preset("classic")
    tables = shipped_tables(classic)
    assert tables is not None, "the classic tables ship in the package"
    box = Ruleset.preset("box")
    draws = {rules: TurnDraws.of(TurnPolicies.solve(rules), rules) for rules in (classic, box)}  # made once

    def playouts(game: Game) -> dict[str, float] | None:
        return chances(game, draws[game.rules])

    lines = [("2 players, tables (baseline)", "classic", 2, lambda game: live_chances(game, tables))]
    lines += [(f"{n} players, {PLAYOUTS} playouts", "classic", n, playouts) for n in (3, 4, 6)]
    lines += [(f"3 players, {PLAYOUTS} playouts", "box", 3, playouts)]
    print(f"{'position':34} {'rules':9} {'turns':>6} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7}")
    for label, name, players, measure in lines:
        rules = Ruleset.preset(name)
        costs = turn_starts(rules, players, games, measure)
        print(
            f"{label:34} {name:9} {len(costs):6} {percentile(costs, 0.5):7.2f} "
            f"{percentile(costs, 0.95):7.2f} {max(costs):7.2f}"
        )


if __name__ == "__main__":
    main()
