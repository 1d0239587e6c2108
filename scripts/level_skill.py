"""Each computer level's skill, measured as members' is (docs/LUCK_AND_SKILL.md): the mean chance to win
its decisions give away against the best move, over simulated two-player games against master under the
classic rules (whose win tables ship with the bot), turned into the friendly 0-100 skill.

    python scripts/level_skill.py [--games 2000] [--seed 1] [--levels easy,normal]
    # writes bot/assets/level_skill.json

Game g of a level seats it first when g is even, second when odd, so it starts half of its games; each
game has its own seed drawn from `--seed`, so a run is deterministic. The bot reads the file to show each
level's skill where a computer is added (`bot/render/levels.py`).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from bot.engine import simulate
from bot.engine.levels import LEVELS, strategy_for
from bot.engine.luck import skill
from bot.engine.policies import TurnPolicies
from bot.engine.review import review
from bot.engine.rules import Ruleset
from bot.sessions.win_tables import shipped_tables

OUT = Path(__file__).resolve().parents[1] / "bot" / "assets" / "level_skill.json"
OPPONENT = "master"


def measure(level: str, games: int, seed: int) -> dict[str, float | int]:
    """The level's decisions over `games` games against master: how many, and the chance given away."""
    rules = Ruleset.preset("classic")
    tables = shipped_tables(rules)
    if tables is None:
        raise SystemExit("the classic win tables are missing: run scripts/build_win_tables.py")
    policies = TurnPolicies.solve(rules)
    measured, other = f"cpu:{level}:measured", f"cpu:{OPPONENT}:other"
    strategies = {
        measured: strategy_for(level, rules, policies, tables),
        other: strategy_for(OPPONENT, rules, policies, tables),
    }
    seeds = random.Random(seed)
    decisions, given_away = 0, 0.0
    for g in range(games):
        players = [measured, other] if g % 2 == 0 else [other, measured]
        game_seed = seeds.randrange(2**32)
        game = simulate.play(rules, players, strategies, game_seed)
        start = simulate.first_dice(rules, players, game_seed).state()
        result = review(rules, players, start, game.history, policies, tables)
        mine = [d for d in result.decisions if d.player == measured]
        decisions += len(mine)
        given_away += sum(d.loss for d in mine)
    mean = given_away / decisions if decisions else 0.0
    return {"games": games, "decisions": decisions, "mean_loss": mean, "skill": round(skill(mean), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per level (the issue's 2,000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--levels", default=",".join(LEVELS), help="levels to measure, separated by commas")
    args = parser.parse_args()
    levels = {}
    for level in args.levels.split(","):
        began = time.process_time()
        levels[level] = measure(level, args.games, args.seed)
        print(level, levels[level], f"{time.process_time() - began:.1f} s CPU", flush=True)
        data = {"rules": "classic", "opponent": OPPONENT, "seed": args.seed, "levels": levels}
        args.out.write_text(json.dumps(data, indent=2) + "\n")  # level by level: a long run keeps its part


if __name__ == "__main__":
    main()
