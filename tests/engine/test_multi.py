"""The playout estimate of each player's chance to win (`bot/engine/multi.py`)."""

from __future__ import annotations

import os
from functools import cache

import pytest

from bot.engine.dice import SeededDice
from bot.engine.game import Game
from bot.engine.multi import PLAYOUTS, TurnDraws, chances, estimable, turn_outcomes
from bot.engine.rules import Ruleset
from bot.engine.solver import turn_expected_value
from bot.engine.strategies import Expert
from tests.solved import policies_for

LONG_RUN = 100 * PLAYOUTS  # the long simulation: the same playouts, a hundred times as many
TOLERANCE = 0.02  # the bound: within 2 percentage points of the long simulation
RULESETS = {
    "classic": Ruleset.preset("classic"),
    "box": Ruleset.preset("box"),
    "entry roll limit": Ruleset(
        n_of_a_kind="doubling", three_pairs=300, entry_minimum=500, entry_roll_limit=3
    ),
    "three farkles": Ruleset(three_farkles="minus_1000", target=5000),
}


def prepared(index: int) -> Game:
    """Position `index`: a seeded expert game of 3-6 players stopped at the start of a turn early, midway,
    late or in its final round (the seed and the stage follow from the index)."""
    name = list(RULESETS)[index % len(RULESETS)]
    rules = RULESETS[name]
    players = [f"p{n}" for n in range(3 + index % 4)]
    game = Game.new(rules, players, SeededDice(1000 + index))
    expert = Expert(rules, policies_for(rules))
    stage = (index // 4) % 4  # 0 early, 1 midway, 2 late, 3 the final round
    lead = (0.0, 0.4, 0.75, 1.0)[stage] * rules.target
    while game.phase != "over":
        leader = max(p.bank for p in game.players)
        if game.phase == "turn_start" and (game.final_round if stage == 3 else leader >= lead):
            return game
        game.apply(expert.choose(game))
    return prepared(index + 97)  # it ended before that stage: another game


@cache
def draws_for(rules: Ruleset) -> TurnDraws:
    return TurnDraws.of(policies_for(rules), rules)


def chances_of(game: Game, playouts: int = PLAYOUTS) -> dict[str, float] | None:
    return chances(game, draws_for(game.rules), playouts)


POSITIONS = range(52)
QUICK = (0, 5, 14, 23, 47)


def errors(index: int) -> dict[str, float]:
    game = prepared(index)
    estimate, long_run = chances_of(game), chances_of(game, LONG_RUN)
    assert estimate is not None and long_run is not None
    return {player: abs(estimate[player] - long_run[player]) for player in estimate}


@pytest.mark.parametrize("index", QUICK)
def test_the_estimate_is_near_a_long_simulation(index: int) -> None:
    assert max(errors(index).values()) <= TOLERANCE


@pytest.mark.slow
@pytest.mark.skipif(
    os.environ.get("FARKLE_SLOW") != "1",
    reason="slow (52 positions, 600,000 playouts each: about a minute of CPU); FARKLE_SLOW=1 runs it",
)
def test_the_estimate_is_near_a_long_simulation_on_every_prepared_position() -> None:
    worst = max(max(errors(index).values()) for index in POSITIONS)
    assert worst <= TOLERANCE, f"worst error {worst:.2%}"


@pytest.mark.parametrize("name", list(RULESETS))
def test_a_turn_banks_what_the_solver_expects(name: str) -> None:
    """The drawn turns are the solver's policy played out: their mean is its expected turn."""
    rules = RULESETS[name]
    points, cumulative = turn_outcomes(policies_for(rules).on_board)
    chances_of = [cumulative[0], *(cumulative[1:] - cumulative[:-1])]
    assert sum(p * c for p, c in zip(points, chances_of, strict=True)) == pytest.approx(
        turn_expected_value(rules), rel=1e-6
    )


def test_the_same_position_gives_the_same_figures_and_they_sum_to_one() -> None:
    game = prepared(6)
    first, again = chances_of(game), chances_of(prepared(6))
    assert first == again
    assert first is not None and sum(first.values()) == pytest.approx(1.0)
    assert len(first) == len(game.players)


def test_the_leader_late_in_the_game_is_the_favourite() -> None:
    game = prepared(10)
    estimate = chances_of(game)
    assert estimate is not None
    leader = max(game.players, key=lambda p: p.bank)
    assert max(estimate, key=lambda player: estimate[player]) == leader.id


def test_endings_it_does_not_model_get_no_estimate() -> None:
    for rules in (Ruleset.preset(name) for name in ("doubling", "last-loses", "family")):
        assert not estimable(rules)
    for rules in (Ruleset(teams=2), Ruleset(piggyback="bonus")):
        assert not estimable(rules)
    game = Game.new(Ruleset.preset("family"), ["a", "b", "c"], SeededDice(1))
    assert chances(game, draws_for(Ruleset.preset("classic"))) is None
