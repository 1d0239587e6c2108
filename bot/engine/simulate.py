"""Computer-vs-computer simulation: how much stronger is one level than another, with honest error bars.

    python -m bot.engine.simulate --rules box --players expert,normal --games 10000 --seed 1

Game g seats the players rotated by g places and scripts the roll-off so that the first seat starts: every
seat starts equally often and the turn order keeps its cycle. Each game has its own seed drawn from
`--seed`, so a run is deterministic. A seat wins a game when it is among `result.winners` (under
last-loses every safe player wins; a shared tie counts for each). Points per turn are the seat's banked
turn totals over the turns it started (Farkles count as 0; penalties and overflow are not turn points).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from dataclasses import dataclass
from math import sqrt

from bot.engine.dice import ScriptedDice
from bot.engine.game import Game
from bot.engine.history import Banked, TurnStarted
from bot.engine.levels import LEVELS, strategy_for
from bot.engine.policies import TurnPolicies
from bot.engine.rules import PRESET_NAMES, Ruleset
from bot.engine.strategies import Strategy
from bot.engine.win.solve import solve_winprob
from bot.engine.win.tables import unsupported

Z_95 = 1.959964


@dataclass(frozen=True)
class SeatResult:
    """One seat's totals over a simulation."""

    seat: int  # 1-based position in the players list
    level: str
    games: int
    wins: int
    turns: int
    points: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def points_per_turn(self) -> float:
        return self.points / self.turns if self.turns else 0.0

    def interval(self, z: float = Z_95) -> tuple[float, float]:
        return wilson(self.wins, self.games, z)


def wilson(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval for a binomial rate: sound near 0 and 1, unlike the normal approximation."""
    if trials <= 0:
        raise ValueError("A confidence interval needs at least one game.")
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return (centre - spread) / scale, (centre + spread) / scale


def first_dice(rules: Ruleset, players: Sequence[str], seed: int) -> ScriptedDice:
    """The dice a played game starts with: a roll-off the first seat wins (one die per side), then the
    seed's. Its `state()` is what a review replays the game from."""
    roll_off = (6,) + (1,) * ((rules.teams or len(players)) - 1)
    return ScriptedDice([roll_off], seed=seed)


def play(rules: Ruleset, players: Sequence[str], strategies: dict[str, Strategy], seed: int) -> Game:
    """One game to its end, every move chosen by the player's strategy; the first seat starts."""
    game = Game.new(rules, players, first_dice(rules, players, seed))
    while game.result is None:
        player = game.current_player
        assert player is not None  # a game without a result always has a player to move
        game.apply(strategies[player].choose(game))
    return game


def simulate(rules: Ruleset, levels: Sequence[str], games: int, seed: int) -> tuple[SeatResult, ...]:
    """Play `games` games between these levels (one seat each) and total them per seat."""
    ids = [f"cpu:{level}:{seat + 1}" for seat, level in enumerate(levels)]
    policies = TurnPolicies.solve(rules)
    # master without its tables would be expert
    tables = solve_winprob(rules) if "master" in levels and unsupported(rules) is None else None
    strategies = {
        pid: strategy_for(level, rules, policies, tables) for pid, level in zip(ids, levels, strict=True)
    }
    wins = dict.fromkeys(ids, 0)
    turns = dict.fromkeys(ids, 0)
    points = dict.fromkeys(ids, 0)
    seeds = random.Random(seed)
    for g in range(games):
        shift = g % len(ids)
        game = play(rules, ids[shift:] + ids[:shift], strategies, seeds.getrandbits(64))
        assert game.result is not None
        for pid in game.result.winners:
            wins[pid] += 1
        for event in game.events:
            if isinstance(event, TurnStarted):
                turns[event.player] += 1
            elif isinstance(event, Banked):
                points[event.player] += event.points
    return tuple(
        SeatResult(seat + 1, level, games, wins[pid], turns[pid], points[pid])
        for seat, (pid, level) in enumerate(zip(ids, levels, strict=True))
    )


def report(rules: Ruleset, results: Sequence[SeatResult], seed: int) -> list[str]:
    """The table `main` prints: one line per seat."""
    games = results[0].games
    levels = ",".join(r.level for r in results)
    lines = [
        f"{rules.name} rules, {games:,} games, players {levels}, seed {seed}",
        f"{'seat':<5}{'level':<8}{'wins':>8}{'win rate':>10}  {'95% CI':<17}{'points/turn':>12}",
    ]
    for r in results:
        low, high = r.interval()
        ci = f"[{low:.1%}, {high:.1%}]"
        lines.append(
            f"{r.seat:<5}{r.level:<8}{r.wins:>8,}{r.win_rate:>10.1%}  {ci:<17}{r.points_per_turn:>12.1f}"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.engine.simulate", description=__doc__.split("\n")[0])
    parser.add_argument("--rules", choices=PRESET_NAMES, default="classic")
    parser.add_argument("--players", default="expert,normal", help="a level per seat, e.g. expert,normal")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    levels = [level.strip() for level in args.players.split(",")]
    rules = Ruleset.preset(args.rules)
    if any(level not in LEVELS for level in levels):
        parser.error(f"players are levels among {', '.join(LEVELS)}, separated by commas")
    if not rules.min_players <= len(levels) <= rules.max_players:
        parser.error(f"{args.rules} rules take {rules.min_players} to {rules.max_players} players")
    if args.games < 1:
        parser.error("--games must be at least 1")
    for line in report(rules, simulate(rules, levels, args.games, args.seed), args.seed):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
