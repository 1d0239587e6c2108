"""Win-probability tables: exact on games small enough to solve by plain value iteration, probabilities
everywhere, and a master that plays legally and better than expert."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.dice import ScriptedDice, SeededDice
from bot.engine.game import Game
from bot.engine.master import Master, win_chances
from bot.engine.rules import Ruleset
from bot.engine.strategies import Expert, strategy_for
from bot.engine.winprob import (
    WinTables,
    _Game,
    _solve_game,
    _turns_from,
    adopt,
    forget,
    solve_winprob,
    table_key,
    tables_for,
    unsupported,
)

SMALL = {
    "plain": Ruleset(target=1000),
    "entry": Ruleset(target=1500, entry_minimum=500, bank_minimum=300),
    "first wins": Ruleset(target=1500, end_rule="last_loses", straight=2500, three_pairs=1500),
    "piggyback": Ruleset(target=1500, piggyback="previous_points", hot_dice="forced", tie_rule="share"),
    "roll limit": Ruleset(target=1500, entry_minimum=500, entry_roll_limit=2, n_of_a_kind="doubling"),
    "three farkles": Ruleset(target=1000, three_farkles="reset", piggyback="previous_points"),
}


@cache
def tables(name: str) -> WinTables:
    return solve_winprob(SMALL[name])


@pytest.fixture(autouse=True)
def no_tables() -> Iterator[None]:
    """Adopted tables are process-wide: leave none behind for other tests."""
    yield
    forget()


# ---------------------------------------------------------------- a toy game, solved two ways

# Two dice; a 1 scores 2 units, a 5 scores 1; any scoring dice may be kept.
TOY_DICE = 2
TOY_SCORE = {1: 2, 5: 1}


def toy_outcomes() -> list[list[tuple[float, tuple[tuple[int, int], ...]]]]:
    by_dice = []
    for n in range(1, TOY_DICE + 1):
        grouped: dict[tuple[tuple[int, int], ...], float] = {}
        for roll in product(range(1, 7), repeat=n):
            scoring = [TOY_SCORE[face] for face in roll if face in TOY_SCORE]
            keeps = set()
            for mask in range(1, 2 ** len(scoring)):
                kept = [s for bit, s in enumerate(scoring) if mask >> bit & 1]
                keeps.add((sum(kept), n - len(kept)))
            if keeps:
                key = tuple(sorted(keeps))
                grouped[key] = grouped.get(key, 0.0) + 6.0**-n
        by_dice.append(list(grouped.items()))
    return [[(p, keeps) for keeps, p in outcomes] for outcomes in by_dice]


def brute_force(
    size: int, ending: np.ndarray, bank_from: list[int], forced: bool, streaks: int
) -> np.ndarray:
    """Plain value iteration over every (Farkles in a row, banks, turn total, dice) until nothing moves.

    With three streaks the third Farkle in a row resets the bank to 0.
    """
    outcomes = toy_outcomes()
    reach = max(s for by_n in outcomes for _, keeps in by_n for s, _ in keeps)
    beyond = ending.shape[1]
    top = size + beyond + reach
    wins = np.full((streaks, streaks, size, size), 0.5)
    counts = (range(streaks), range(streaks), range(size), range(size), range(top), range(1, TOY_DICE + 1))
    rolling = dict.fromkeys(product(*counts), 0.5)

    def banked(b: int, i: int, j: int, t: int) -> float:
        s = i + t
        return 1.0 - wins[b, 0, j, s] if s < size else ending[j, min(s - size, beyond - 1)]

    def farkled(a: int, b: int, i: int, j: int) -> float:
        if streaks == 1:
            return 1.0 - wins[0, 0, j, i]
        return 1.0 - (wins[b, a + 1, j, i] if a < 2 else wins[b, 0, j, 0])

    def after(a: int, b: int, i: int, j: int, t: int, left: int) -> float:
        if t > size + beyond - 1 - i:
            return ending[j, beyond - 1]  # past the last distinct bank value, as the solver rules
        roll_on = rolling[a, b, i, j, t, left or TOY_DICE]
        if t >= bank_from[i] and (left or not forced):
            return max(banked(b, i, j, t), roll_on)
        return roll_on

    for _ in range(10_000):
        change = 0.0
        for a, b, i, j, t, n in list(rolling):
            if t > size + beyond - 1 - i:
                continue
            farkle = 1.0 - sum(p for p, _ in outcomes[n - 1])
            value = farkle * farkled(a, b, i, j)
            for p, keeps in outcomes[n - 1]:
                value += p * max(after(a, b, i, j, t + s, left) for s, left in keeps)
            change = max(change, abs(value - rolling[a, b, i, j, t, n]))
            rolling[a, b, i, j, t, n] = value
        for a, b, i, j in product(range(streaks), range(streaks), range(size), range(size)):
            change = max(change, abs(rolling[a, b, i, j, 0, TOY_DICE] - wins[a, b, i, j]))
            wins[a, b, i, j] = rolling[a, b, i, j, 0, TOY_DICE]
        if change < 1e-13:
            return wins
    raise AssertionError("value iteration did not converge")


def toy_ending(end: str, size: int) -> np.ndarray:
    if end == "first to the target":
        return np.ones((size, 1))
    # a made-up chance that the opponent fails to pass: falls with their bank, rises with ours
    return np.array([[0.9 - 0.1 * j + 0.02 * over for over in range(3)] for j in range(size)])


@pytest.mark.parametrize("forced", [False, True], ids=["optional hot dice", "forced hot dice"])
@pytest.mark.parametrize("end", ["first to the target", "last turn to pass"])
@pytest.mark.parametrize("entry", [0, 2])
def test_solver_matches_value_iteration_on_a_toy_game(end: str, forced: bool, entry: int) -> None:
    size = 6  # the target is 6 units (300 points)
    ending = toy_ending(end, size)
    bank_from = [max(entry, 1)] + [1] * (size - 1)
    game = _Game(_turns_from(toy_outcomes()), size, ending.shape[1], ending, np.array(bank_from), forced)
    solved = _solve_game(game, 1e-12)
    assert np.allclose(solved, brute_force(size, ending, bank_from, forced, 1), atol=1e-9)


@pytest.mark.parametrize("end", ["first to the target", "last turn to pass"])
def test_three_farkles_resetting_the_bank_match_value_iteration(end: str) -> None:
    size = 4
    ending = toy_ending(end, size)
    bank_from = [1] * size
    game = _Game(_turns_from(toy_outcomes()), size, ending.shape[1], ending, np.array(bank_from), False)
    solved = _solve_game(game, 1e-13, streaks=3)
    assert np.allclose(solved, brute_force(size, ending, bank_from, False, 3), atol=1e-9)
    assert solved[2, 0, 3, 1] < solved[0, 0, 3, 1], "two Farkles in a row put a bank at risk"


# ---------------------------------------------------------------- real rules, small targets


def all_values(solved: WinTables) -> np.ndarray:
    unit, top = solved.unit, solved.size * solved.unit
    return np.array([[solved.value(i, j) for j in range(0, top, unit)] for i in range(0, top, unit)])


@pytest.mark.parametrize("name", sorted(SMALL))
def test_values_are_probabilities_and_moving_first_helps(name: str) -> None:
    solved = tables(name)
    values = all_values(solved)
    assert ((values >= 0) & (values <= 1)).all()
    assert (np.diff(values, axis=1) <= 1e-9).all(), "a larger opposing bank never raises the chance"
    assert 0.5 < solved.first_player_win < 0.6


def test_when_the_first_to_the_target_wins_more_bank_is_better() -> None:
    """Under a last turn to pass, a bank just under the target can be worth less than one further off
    (any bank then ends the game with a small lead); when the first to arrive wins, it never is."""
    values = all_values(tables("first wins"))
    assert (np.diff(values, axis=0) >= -1e-9).all()


def test_reaching_the_target_first_wins_under_last_loses() -> None:
    solved = tables("first wins")
    assert solved.bank_value(1000, 1400, 500) == 1.0
    assert solved.bank_value(1000, 1400, 450) == pytest.approx(1 - solved.value(1400, 1450))


def test_past_the_target_the_opponent_gets_one_last_turn() -> None:
    solved = tables("plain")
    close, far = solved.bank_value(900, 950, 150), solved.bank_value(900, 0, 150)
    assert 0 < close < far < 1, "the nearer the opponent, the likelier they pass on their last turn"
    assert solved.bank_value(900, 950, 1000) > close, "a bigger lead is safer"


def test_tables_round_trip_through_bytes() -> None:
    solved = tables("entry")
    data = solved.to_bytes()
    loaded = WinTables.from_bytes(data)
    assert loaded.key == solved.key == table_key(SMALL["entry"])
    assert loaded.value(500, 1000) == pytest.approx(solved.value(500, 1000), abs=1e-6)
    assert len(data) < 8 * solved.size**2, "stored compactly (float32 turn-start values)"
    with pytest.raises(ValueError, match="not win tables"):
        WinTables.from_bytes(b"garbage")
    with pytest.raises(ValueError):
        WinTables.from_bytes(data[:-10])


def test_rules_the_tables_do_not_model_are_refused() -> None:
    assert str(unsupported(Ruleset.preset("family"))) == "the penalty roll"
    assert unsupported(Ruleset.preset("classic")) is None
    assert unsupported(Ruleset.preset("last-loses")) is None, "three Farkles reset the bank: modelled"
    with pytest.raises(ValueError, match="don't model the three-Farkle penalty of 1,000"):
        solve_winprob(Ruleset(three_farkles="minus_1000"))


# ---------------------------------------------------------------- master and the hint


def _games(name: str, seed: int, levels: tuple[str, str]) -> Game:
    rules = SMALL[name]
    adopt(tables(name))
    strategies = {level: strategy_for(level, rules) for level in levels if level != "random"}
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
    adopt(tables("plain"))
    game = Game.new(rules, ["a", "b"], ScriptedDice([(6, 1), (1, 5, 2, 3, 3, 4)], seed=1))
    advice = win_chances(game)
    assert advice is not None and advice.best.kind == "roll" and advice.best.dice == 6
    game.apply(advice.best.action)
    advice = win_chances(game)
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
    forget(rules)
    assert tables_for(rules) is None
    game = Game.new(rules, ["a", "b"], SeededDice(11))
    master, expert = strategy_for("master", rules), Expert(rules)
    for _ in range(30):
        if game.result is not None:
            break
        assert master.choose(game) == expert.choose(game)
        game.apply(expert.choose(game))
    assert win_chances(game) is None
    assert isinstance(master, Master)
