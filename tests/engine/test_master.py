"""Master and the Hint: legal moves, better than expert, each choice with its chance to win, and expert's
play without tables."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.dice import ScriptedDice, SeededDice
from bot.engine.game import Action, Game
from bot.engine.levels import strategy_for
from bot.engine.master import Master, chance_to_win, win_chances
from bot.engine.strategies import Expert
from tests.engine.win.solved import SMALL, tables
from tests.solved import policies_for


def _games(name: str, seed: int, levels: tuple[str, str]) -> Game:
    rules = SMALL[name]
    computers = [level for level in levels if level != "random"]
    strategies = {level: strategy_for(level, rules, policies_for(rules), tables(name)) for level in computers}
    game = Game.new(rules, list(levels), SeededDice(seed))
    picker = random.Random(seed)
    while game.result is None:
        player = game.current_player
        assert player is not None
        if player == "random":
            game.apply(picker.choice(game.legal_actions()))
        else:
            game.apply(strategies[player].choose(game))  # an illegal move raises IllegalAction
    return game


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(sorted(SMALL)), st.integers(0, 2**32))
def test_master_only_makes_legal_moves(name: str, seed: int) -> None:
    game = _games(name, seed, ("master", "random"))
    assert game.result is not None


def test_master_beats_expert_at_a_short_target() -> None:
    wins = 0
    games = 600
    for seed in range(games):
        seats = ("master", "expert") if seed % 2 else ("expert", "master")
        game = _games("plain", seed, seats)
        assert game.result is not None
        wins += "master" in game.result.winners
    assert wins / games > 0.5


def test_hint_lists_each_choice_with_its_chance_to_win() -> None:
    rules = SMALL["plain"]
    game = Game.new(rules, ["a", "b"], ScriptedDice([(6, 1), (1, 5, 2, 3, 3, 4)], seed=1))
    advice = win_chances(game, tables("plain"))
    assert advice is not None and advice.best.kind == "roll" and advice.best.dice == 6
    game.apply(advice.best.action)
    advice = win_chances(game, tables("plain"))
    assert advice is not None
    # keep the 1 (100) or the 1 and the 5 (150), then bank or roll on: four choices
    assert {(c.kind, c.keep, c.turn_total, c.dice) for c in advice.choices} == {
        ("bank", (1,), 100, 0),
        ("roll", (1,), 100, 5),
        ("bank", (1, 5), 150, 0),
        ("roll", (1, 5), 150, 4),
    }
    chances = [choice.chance for choice in advice.choices]
    assert chances == sorted(chances, reverse=True) and all(0 < c < 1 for c in chances)
    assert advice.best.kind == "roll", "nobody banks 100 at the start of a game"


def test_master_plays_as_expert_without_tables() -> None:
    rules = SMALL["plain"]
    game = Game.new(rules, ["a", "b"], SeededDice(11))
    master = strategy_for("master", rules, policies_for(rules), None)
    expert = Expert(rules, policies_for(rules))
    for _ in range(30):
        if game.result is not None:
            break
        assert master.choose(game) == expert.choose(game)
        game.apply(expert.choose(game))
    assert win_chances(game, None) is None
    assert isinstance(master, Master)


def test_the_chance_to_win_is_the_tables_at_a_turn_start_and_the_best_choice_inside_one() -> None:
    solved = tables("plain")
    game = Game.new(SMALL["plain"], ["a", "b"], ScriptedDice([(6, 1), (1, 5, 2, 3, 4, 6)]))
    assert chance_to_win(game, solved) == pytest.approx(solved.value(0, 0))
    game.apply(Action("roll", "a"))
    advice = win_chances(game, solved)
    assert advice is not None and chance_to_win(game, solved) == advice.best.chance
    assert advice.best.chance > solved.value(0, 0), "a straight on the first roll is a good start"
