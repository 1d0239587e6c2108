"""Each computer level's skill, measured as members' is (docs/LUCK_AND_SKILL.md): the mean chance to win
its decisions give away against the best move, over simulated two-player games against master under the
classic rules (whose win tables ship with the bot), turned into the friendly 0-100 skill.

    python scripts/level_skill.py [--games 2000] [--seed 1] [--levels easy,normal]
    # writes bot/assets/level_skill.json
    python scripts/level_skill.py --skills 20 --checked 20 [--fit-games 60] [--between 0.0002,0.05]
    python scripts/level_skill.py --skills 80 --checked 80 --fit-steps 4 --between 0.0007,0.0014
    # each adds its targets to bot/assets/skill_calibration.json (runs side by side share the table)

Game g of a level seats it first when g is even, second when odd, so it starts half of its games; each
game has its own seed drawn from `--seed`, so a run is deterministic. The bot reads the file to show each
level's skill where a computer is added (`bot/render/levels.py`).

`--skills` calibrates the computer at a chosen skill (`bot/engine/skilled.py`): for each target, weakest
first, the softmax temperature is found by bisection on its logarithm between `--between`'s bounds (a
later target below the earlier one's), `--fit-steps` tries of `--fit-games` games each (the same seed each
try, so tries differ by the temperature alone), then the targets in `--checked` are
measured again over `--games` games; the others keep their last try's measure. The table says, per
target, the temperature, how many games measured it and the skill measured.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from functools import cache
from pathlib import Path

from bot.engine import simulate
from bot.engine.levels import LEVELS, strategy_for
from bot.engine.luck import SKILL_HALF, skill
from bot.engine.policies import TurnPolicies
from bot.engine.review import review
from bot.engine.rules import Ruleset
from bot.engine.skilled import Skilled
from bot.engine.strategies import Strategy
from bot.engine.win.tables import WinTables
from bot.sessions.win_tables import shipped_tables

ASSETS = Path(__file__).resolve().parents[1] / "bot" / "assets"
OUT = ASSETS / "level_skill.json"
CALIBRATION = ASSETS / "skill_calibration.json"
OPPONENT = "master"
RULES = Ruleset.preset("classic")
COLDEST, HOTTEST = 2e-4, 0.05  # the temperatures the bisection searches between (chances to win)
FIT_STEPS = 6


@cache
def classic_tables() -> WinTables:
    tables = shipped_tables(RULES)
    if tables is None:
        raise SystemExit("the classic win tables are missing: run scripts/build_win_tables.py")
    return tables


@cache
def classic_policies() -> TurnPolicies:
    return TurnPolicies.solve(RULES)


def measure(strategy: Strategy, games: int, seed: int) -> dict[str, float | int]:
    """A player's decisions over `games` games against master: how many, and the chance given away."""
    tables = classic_tables()
    measured, other = "cpu:measured", f"cpu:{OPPONENT}:other"
    strategies = {measured: strategy, other: strategy_for(OPPONENT, RULES, classic_policies(), tables)}
    seeds = random.Random(seed)
    decisions, given_away = 0, 0.0
    for g in range(games):
        players = [measured, other] if g % 2 == 0 else [other, measured]
        game_seed = seeds.randrange(2**32)
        game = simulate.play(RULES, players, strategies, game_seed)
        start = simulate.first_dice(RULES, players, game_seed).state()
        result = review(RULES, players, start, game.history, classic_policies(), tables)
        mine = [d for d in result.decisions if d.player == measured]
        decisions += len(mine)
        given_away += sum(d.loss for d in mine)
    mean = given_away / decisions if decisions else 0.0
    return {"games": games, "decisions": decisions, "mean_loss": mean, "skill": round(skill(mean), 1)}


def at(temperature: float, games: int, seed: int) -> dict[str, float | int]:
    return {
        "temperature": temperature,
        **measure(Skilled(RULES, temperature, classic_policies(), classic_tables()), games, seed),
    }


def fit(
    target: float, games: int, seed: int, between: tuple[float, float], steps: int
) -> dict[str, float | int]:
    """The temperature whose measured skill is closest to `target`, by bisection on its logarithm."""
    wanted = SKILL_HALF * (100.0 / target - 1.0)  # the mean loss that is `target` on the skill scale
    low, high = math.log(between[0]), math.log(between[1])
    best: dict[str, float | int] | None = None
    for _ in range(steps):
        tried = at(math.exp((low + high) / 2), games, seed)
        print(f"  target {target}: {tried}", flush=True)
        if best is None or abs(float(tried["skill"]) - target) < abs(float(best["skill"]) - target):
            best = tried
        if float(tried["mean_loss"]) < wanted:
            low = (low + high) / 2
        else:
            high = (low + high) / 2
    assert best is not None
    return best


def calibrate(args: argparse.Namespace) -> None:
    targets = sorted(float(s) for s in args.skills.split(","))
    checked = {float(s) for s in args.checked.split(",")} if args.checked else set()
    coldest, hottest = (float(t) for t in args.between.split(","))
    for target in targets:  # weakest first: each fit's temperature bounds the next one's from above
        began = time.process_time()
        point = fit(target, args.fit_games, args.seed, (coldest, hottest), args.fit_steps)
        hottest = float(point["temperature"]) * 1.5
        if target in checked:
            point = at(float(point["temperature"]), args.games, args.seed)
        print(target, point, f"{time.process_time() - began:.1f} s CPU", flush=True)
        known = json.loads(args.calibration.read_text()) if args.calibration.exists() else {}
        points = {**known.get("targets", {}), f"{target:g}": point}  # target by target; runs may share
        ordered = dict(sorted(points.items(), key=lambda item: float(item[0])))
        data = {"rules": "classic", "opponent": OPPONENT, "seed": args.seed, "targets": ordered}
        args.calibration.write_text(json.dumps(data, indent=2) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per level (the issue's 2,000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--levels", default=",".join(LEVELS), help="levels to measure, separated by commas")
    parser.add_argument("--skills", help="calibrate the computer at these skills instead (commas)")
    parser.add_argument("--checked", default="", help="skills measured over --games after their fit")
    parser.add_argument("--fit-games", type=int, default=60, help="games per try while fitting")
    parser.add_argument("--calibration", type=Path, default=CALIBRATION)
    parser.add_argument("--between", default=f"{COLDEST},{HOTTEST}", help="temperatures to search between")
    parser.add_argument("--fit-steps", type=int, default=FIT_STEPS, help="bisection steps a target")
    args = parser.parse_args()
    if args.skills:
        calibrate(args)
        return
    levels = {}
    for level in args.levels.split(","):
        began = time.process_time()
        levels[level] = measure(
            strategy_for(level, RULES, classic_policies(), classic_tables()), args.games, args.seed
        )
        print(level, levels[level], f"{time.process_time() - began:.1f} s CPU", flush=True)
        data = {"rules": "classic", "opponent": OPPONENT, "seed": args.seed, "levels": levels}
        args.out.write_text(json.dumps(data, indent=2) + "\n")  # level by level: a long run keeps its part


if __name__ == "__main__":
    main()
