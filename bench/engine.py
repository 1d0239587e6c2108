"""Engine benchmark, one core: score_dice and scoring_options calls/s, and complete 2-player games/s.

Games use random legal play, seeded: keep a uniformly random scoring option of the roll, then roll on or bank
with equal odds (rolling instead when the bank is refused, any legal move when the keep is refused), roll
hot dice or bank them at random, take a piggyback offer half of the time. Each rate is the best of a few
runs, so a busy machine shows less noise.

Run: .venv/bin/python bench/engine.py
"""

import random
import time
from collections.abc import Callable

from bot.engine import (
    PRESET_NAMES,
    Action,
    Game,
    IllegalAction,
    Ruleset,
    SeededDice,
    score_dice,
    scoring_options,
)

REPEATS = 3


def best_rate(run: Callable[[], int]) -> float:
    """Items per second of the fastest of a few runs (`run` returns how many items it did)."""
    rates = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        count = run()
        rates.append(count / (time.perf_counter() - start))
    return max(rates)


def random_rolls(count: int, seed: int) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.randint(1, 6) for _ in range(rng.randint(1, 6))) for _ in range(count)]


def random_move(game: Game, rng: random.Random) -> Action:
    player = str(game.current_player)
    turn = game.turn
    if not turn.roll:
        if turn.piggyback_dice is not None and rng.random() < 0.5:
            return Action("piggyback", player)
        return Action("bank" if turn.hot_dice and rng.random() < 0.5 else "roll", player)
    option = rng.choice(scoring_options(turn.roll, game.rules))
    keep, free = [], list(range(len(turn.roll)))
    for face in option.dice:
        position = next(p for p in free if turn.roll[p] == face)
        free.remove(position)
        keep.append(position)
    return Action("bank" if rng.random() < 0.5 else "roll", player, tuple(keep))


def play(rules: Ruleset, seed: int) -> int:
    """One complete random game; returns the number of actions played."""
    rng = random.Random(seed)
    game = Game.new(rules, ["p1", "p2"], SeededDice(seed))
    actions = 0
    while game.result is None:
        move = random_move(game, rng)
        try:
            game.apply(move)
        except IllegalAction:
            fallback = Action("roll", move.player, move.keep)
            legal = game.legal_actions()
            game.apply(fallback if fallback in legal else rng.choice(legal))
        actions += 1
    return actions


def calls(
    function: Callable[[tuple[int, ...], Ruleset], object], inputs: list[tuple[int, ...]], rules: Ruleset
) -> Callable[[], int]:
    def run() -> int:
        for dice in inputs:
            function(dice, rules)
        return len(inputs)

    return run


def complete_games(rules: Ruleset, games: int) -> Callable[[], int]:
    def run() -> int:
        for seed in range(games):
            play(rules, seed)
        return games

    return run


def main() -> None:
    keeps = [roll for roll in random_rolls(20_000, 1) if roll]
    rolls = random_rolls(20_000, 2)
    games = 200
    print(f"{'preset':<12} {'score_dice/s':>13} {'options/s':>11} {'games/s':>8} {'actions/game':>13}")
    for name in PRESET_NAMES:
        rules = Ruleset.preset(name)
        score_dice((1,), rules)  # build the tables outside the timings
        score_rate = best_rate(calls(score_dice, keeps, rules))
        options_rate = best_rate(calls(scoring_options, rolls, rules))
        actions = [play(rules, seed) for seed in range(games)]
        games_rate = best_rate(complete_games(rules, games))
        per_game = sum(actions) / games
        print(f"{name:<12} {score_rate:>13,.0f} {options_rate:>11,.0f} {games_rate:>8,.0f} {per_game:>13.0f}")


if __name__ == "__main__":
    main()
