"""Luck and skill apart: the parts add up to the outcome, best moves cost nothing, the turning point is the
biggest swing, and without tables the split is in turn points, turn by turn."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.engine.game import Game
from bot.engine.history import Banked
from bot.engine.luck import Moment, chances, split, turning_point
from bot.engine.review import GameReview, review
from bot.engine.rules import Ruleset
from tests.engine.test_review import SMALL, play, small_tables
from tests.solved import policies_for

EXACT = 1e-9


def reviewed_with_tables(levels: tuple[str, str], seed: int) -> tuple[Game, GameReview]:
    tables = small_tables()
    game, start = play(SMALL, levels, seed, tables)  # master plays by the tables
    return game, review(SMALL, [p.id for p in game.players], start, game.history, policies_for(SMALL), tables)


def outcome(game: Game, player: str) -> float:
    assert game.result is not None
    return 1.0 if game.result.winners == (player,) else 0.0


@pytest.mark.parametrize("seed", range(6))
def test_decisions_plus_dice_add_up_to_the_outcome_minus_the_starting_chance(seed: int) -> None:
    game, result = reviewed_with_tables(("easy", "normal"), seed)
    assert result.measure == "win" and result.moments
    first = result.moments[0].player
    start = result.moments[0].before
    for player in (p.id for p in game.players):
        seen_start = start if player == first else 1.0 - start
        mine = split("win", result.moments, player)
        theirs = split("win", result.moments, next(p.id for p in game.players if p.id != player))
        # your decisions, the other player's decisions (what they gave away you gained), and the dice
        assert mine.decisions - theirs.decisions + mine.dice == pytest.approx(
            outcome(game, player) - seen_start, abs=EXACT
        )
    line = chances(result.moments, first)
    assert line[0] == start and line[-1] == outcome(game, first)


def test_the_first_player_starts_above_even_and_the_dice_are_zero_sum() -> None:
    game, result = reviewed_with_tables(("normal", "normal"), 3)
    a, b = (p.id for p in game.players)
    assert 0.5 < result.moments[0].before < 0.65
    assert split("win", result.moments, a).dice == pytest.approx(-split("win", result.moments, b).dice)


@pytest.mark.parametrize("seed", range(4))
def test_best_moves_only_give_a_decision_part_of_zero(seed: int) -> None:
    game, result = reviewed_with_tables(("master", "master"), seed)
    for player in game.players:
        assert split("win", result.moments, player.id).decisions == pytest.approx(0.0, abs=EXACT)
    assert any(m.dice for m in result.moments)


def test_mistakes_give_chance_away_to_the_decision_part() -> None:
    game, result = reviewed_with_tables(("easy", "master"), 1)
    easy = game.players[0].id if result.players[0].mistakes else game.players[1].id
    lost = sum(d.loss for d in result.decisions if d.player == easy)
    assert lost > 0
    assert split("win", result.moments, easy).decisions == pytest.approx(-lost, abs=EXACT)


@pytest.mark.parametrize("seed", range(3))
def test_the_turning_point_is_the_argmax_of_the_swings(seed: int) -> None:
    _, result = reviewed_with_tables(("easy", "normal"), seed)
    turning = turning_point(result.moments)
    assert turning is not None
    moment, part = turning
    biggest = max(max(abs(m.decision), abs(m.dice)) for m in result.moments)
    assert abs(moment.part(part)) == biggest


def test_the_turning_point_is_the_first_of_equal_swings_and_none_without_one() -> None:
    flat = Moment("1", 1, 0, "roll", (), False, 0.5, 0.5, 0.5)
    roll = Moment("2", 2, 5, "roll", (1, 5), False, 0.5, 0.5, 0.2)
    slip = Moment("1", 3, 9, "bank", (), False, 0.5, 0.2, 0.2)
    assert turning_point([flat]) is None
    assert turning_point([flat, roll, slip]) == (roll, "dice")
    assert turning_point([flat, slip, roll]) == (slip, "decision")


def test_a_review_keeps_its_moments_through_json() -> None:
    game, result = reviewed_with_tables(("easy", "normal"), 2)
    again = GameReview.from_json(result.to_json(), [p.id for p in game.players])
    assert again.moments == result.moments


@pytest.mark.parametrize("seed", range(3))
def test_without_tables_the_split_is_in_turn_points_turn_by_turn(seed: int) -> None:
    rules = Ruleset.preset("classic")
    game, start = play(rules, ("easy", "normal", "expert"), seed)
    result = review(rules, [p.id for p in game.players], start, game.history, policies_for(rules), None)
    assert result.measure == "turn"
    turns = {(m.turn, m.player) for m in result.moments}
    for turn, player in turns:
        moments = [m for m in result.moments if (m.turn, m.player) == (turn, player)]
        points = moments[-1].after
        assert sum(m.decision + m.dice for m in moments) == pytest.approx(
            points - moments[0].before, abs=EXACT
        )
    for player in game.players:
        points = Counter(m.after for m in result.moments if m.player == player.id and m.kind == "bank")
        assert points and not points - _banked(game, player.id)  # each measured bank is one of theirs
    expert = game.players[2].id
    assert split("turn", result.moments, expert).decisions == pytest.approx(0.0, abs=EXACT)


def _banked(game: Game, player: str) -> Counter[float]:
    """The points of each of the player's banks, read from the game's own events."""
    return Counter(float(e.points) for e in game.events if isinstance(e, Banked) and e.player == player)
