"""What the daily challenge and achievements cost (issue 29): numbers, no assertions.

- expert's score on a day's dice: the first call solves the classic turn (once per process), later days
  only play ten turns; the bot runs it in a thread, once per day.
- loading an attempt: every press reads the attempt's row and replays its actions (the dice depend only on
  the day), so a press's engine cost grows with the moves made: measured on a finished attempt, the most.
- judging a finished game's achievements: its archive is replayed on the event loop by the subscriber.

Run: .venv/bin/python bench/daily.py
"""

from __future__ import annotations

import json
import statistics
import time

from bot.core.records import GameRecord, PlayerRecord
from bot.engine import Game, Ruleset, SeededDice, TurnPolicies, strategy_for
from bot.engine.daily import RULES, DailyGame, expert_score
from bot.sessions.achievements import game_achievements

DAY = 20_417


def best_of(runs: int, work: object) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def finished_attempt() -> str:
    """A whole attempt played as a careful member: keep the best, bank with two dice or fewer left."""
    game = DailyGame(DAY)
    while not game.finished:
        turn = len(game.turns)
        game.roll_dice()
        while len(game.turns) == turn:
            keep = [i for i, face in enumerate(game.roll) if face in (1, 5)] or [0]
            (game.bank if game.dice_left - len(keep) <= 2 else game.roll_dice)(keep)
    return game.to_json()


def archived_game() -> GameRecord:
    rules = Ruleset.preset("classic")
    dice = SeededDice(7)
    start = dice.state()
    game = Game.new(rules, ["1", "2"], dice)
    expert = strategy_for("expert", rules, TurnPolicies.solve(rules), None)
    while game.result is None:
        game.apply(expert.choose(game))
    players = tuple(
        PlayerRecord(seat, seat + 1, f"p{seat}", None, None, 1, seat == 0, 0, 0, 0, 0, 0, 0)
        for seat in range(2)
    )
    actions = json.dumps([action.to_dict() for action in game.history])
    return GameRecord("g", 1, 1, rules.model_dump_json(), json.dumps(start), actions, 0, 1, "target", players)


def main() -> None:
    start = time.perf_counter()
    policy = TurnPolicies.solve(RULES).on_board
    expert_score(DAY, policy)
    first = 1000 * (time.perf_counter() - start)
    print(f"expert's score, first day in a process (solves the turn): {first:.0f} ms")
    later = [best_of(1, lambda day=day: expert_score(day, policy)) for day in range(DAY + 1, DAY + 31)]
    print(f"expert's score, each later day (median of 30 days): {1000 * statistics.median(later):.1f} ms")
    text = finished_attempt()
    moves, load = len(json.loads(text)["actions"]), best_of(200, lambda: DailyGame.from_json(text))
    print(f"loading a finished attempt ({moves} moves, {len(text)} bytes): {1e6 * load:.0f} µs")
    record = archived_game()
    judge = best_of(20, lambda: game_achievements(record))
    print(f"judging a finished 2-player game's achievements: {1000 * judge:.2f} ms")


if __name__ == "__main__":
    main()
