"""The computer at a chosen skill: master at temperature 0, only legal and never absurd moves, the human
slips more often as it warms, the same moves for the same seed, and the calibration read in between."""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest

from bot.engine import Action, Game, Ruleset, ScriptedDice, strategy_for
from bot.engine.master import Master, win_chances
from bot.engine.skilled import (
    ABSURD,
    Calibration,
    Skilled,
    drawn,
    skill_level,
    skill_of_level,
)
from bot.engine.strategies import Expert, Strategy
from bot.engine.win.tables import WinTables
from bot.sessions.win_tables import shipped_tables
from tests.solved import policies_for

CLASSIC = Ruleset.preset("classic")
THREE_PLAYERS = Ruleset(target=3000, piggyback="bonus")


@cache
def tables() -> WinTables:
    shipped = shipped_tables(CLASSIC)
    assert shipped is not None, "the classic tables ship with the bot"
    return shipped


def played(rules: Ruleset, players: dict[str, Strategy], seed: int, turns: int = 60) -> Game:
    """A game of these players from a seed, `turns` turns at most; every move checked legal."""
    game = Game.new(rules, list(players), ScriptedDice([], seed=seed))
    while game.result is None and game.turn_number <= turns:
        player = game.current_player
        assert player is not None
        action = players[player].choose(game)
        assert action in game.legal_actions(), (action, game.turn)
        game.apply(action)
    return game


def test_at_temperature_zero_it_is_master() -> None:
    master, cold = (
        Master(Expert(CLASSIC, policies_for(CLASSIC)), tables()),
        Skilled(CLASSIC, 0.0, policies_for(CLASSIC), tables()),
    )
    game = Game.new(CLASSIC, ["a", "b"], ScriptedDice([], seed=3))
    for _ in range(150):
        if game.result is not None:
            break
        action = master.choose(game)
        assert cold.choose(game) == action
        game.apply(action)


def test_its_slips_are_legal_never_absurd_and_lean_the_human_way() -> None:
    """Every move is legal; none gives away more than `ABSURD`; warmer play slips more, and its slips are
    mostly banking with three dice or more to roll, or rolling one or two."""
    slips: Counter[str] = Counter()
    costs = {}
    for temperature in (0.001, 0.004):
        skilled = Skilled(CLASSIC, temperature, policies_for(CLASSIC), tables())
        given_away, decisions = 0.0, 0
        for seed in range(3):
            game = Game.new(CLASSIC, ["a", "b"], ScriptedDice([], seed=seed))
            while game.result is None and game.turn_number <= 40:
                advice = win_chances(game, tables())
                action = skilled.choose(game)
                assert action in game.legal_actions()
                if advice is not None and len(advice.choices) > 1:
                    chance = next(c.chance for c in advice.choices if c.action == action)
                    loss = advice.best.chance - chance
                    assert loss <= ABSURD + 1e-12
                    given_away, decisions = given_away + loss, decisions + 1
                    if loss > 1e-9 and temperature == 0.004:
                        left = (len(game.turn.roll) - len(action.keep)) or 6
                        human = (action.kind == "bank" and left >= 3) or (action.kind == "roll" and left <= 2)
                        slips["human" if human else "other"] += 1
                game.apply(action)
        costs[temperature] = given_away / decisions
    assert costs[0.001] < costs[0.004], costs
    assert slips["human"] > slips["other"], slips


def test_a_seeded_game_against_your_level_replays_the_same() -> None:
    calibration = Calibration(((20.0, 0.03), (50.0, 0.002), (80.0, 0.001)))
    histories = []
    for _ in range(2):
        players: dict[str, Strategy] = {
            "cpu:skill:62": strategy_for(skill_level(62), CLASSIC, policies_for(CLASSIC), None, calibration),
            "cpu:expert": strategy_for("expert", CLASSIC, policies_for(CLASSIC), None),
        }
        histories.append(played(CLASSIC, players, seed=11).history)
    assert histories[0] == histories[1] and len(histories[0]) > 20
    other = {
        "cpu:skill:62": strategy_for(skill_level(62), CLASSIC, policies_for(CLASSIC), None, calibration),
        "cpu:expert": Expert(CLASSIC, policies_for(CLASSIC)),
    }
    assert played(CLASSIC, other, seed=12).history != histories[0]


def test_without_tables_it_plays_by_points_with_three_players() -> None:
    players: dict[str, Strategy] = {
        f"p{seat}": Skilled(THREE_PLAYERS, 0.004, policies_for(THREE_PLAYERS), None) for seat in range(3)
    }
    game = played(THREE_PLAYERS, players, seed=5, turns=200)
    assert game.result is not None, "it ends its turns and the game"


def test_the_draw_is_the_best_when_cold_and_follows_the_weights_when_warm() -> None:
    bank, roll, absurd = Action("bank", "a", (0,)), Action("roll", "a", (0,)), Action("roll", "a", (0, 1))
    choices = [(0.50, 0.50, bank), (0.49, 0.49, roll), (0.10, 0.10, absurd)]
    assert drawn(choices, 0.0, 0.99) == bank
    draws = Counter(drawn(choices, 0.01, u / 1000) for u in range(1000))
    assert draws[absurd] == 0 and 0.6 < draws[bank] / 1000 < 0.8  # e^0 : e^-1 → 73 %


def test_levels_by_skill_and_the_calibration_between_its_points() -> None:
    assert skill_of_level(skill_level(72)) == 72 and skill_of_level("expert") is None
    assert skill_of_level("skill:7") is None and skill_of_level("skill:x") is None
    with pytest.raises(ValueError, match="from 20 to 100"):
        skill_level(101)
    calibration = Calibration(((40.0, 0.004), (20.0, 0.04), (80.0, 0.001)))
    assert calibration.temperature(20) == pytest.approx(0.04)
    assert calibration.temperature(30) == pytest.approx(0.04**0.5 * 0.004**0.5)  # log-linear
    assert calibration.temperature(90) == pytest.approx(0.0005)  # linear to master's 0
    assert calibration.temperature(100) == 0.0
    temperatures = [calibration.temperature(skill) for skill in range(20, 101)]
    assert temperatures == sorted(temperatures, reverse=True)
    with pytest.raises(ValueError, match="needs the skill calibration"):
        strategy_for(skill_level(50), CLASSIC, policies_for(CLASSIC), None)
