"""The win-probability solver: exact on games small enough to solve by plain value iteration, and
tables that are probabilities everywhere and follow each end rule."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import numpy as np
import pytest

from bot.engine.rules import Ruleset
from bot.engine.win import kernels as winkernels
from bot.engine.win.game import WinGame, turn_rolls_from, win_game
from bot.engine.win.solve import settled, solve_game, solve_winprob
from bot.engine.win.tables import DEFAULT_MARGIN, WinTables
from tests.engine.win.solved import SMALL, tables

# Two dice; a 1 scores 2 units, a 5 scores 1; any scoring dice may be kept. With the special rolls, two
# 6s are a penalty roll and two 1s win at once.
TOY_DICE = 2
TOY_SCORE = {1: 2, 5: 1}
TOY_PENALTY, TOY_INSTANT = (6, 6), (1, 1)


def toy_outcomes(special: bool = False) -> list[list[tuple[float, tuple[tuple[int, int], ...]]]]:
    by_dice = []
    for n in range(1, TOY_DICE + 1):
        grouped: dict[tuple[tuple[int, int], ...], float] = {}
        for roll in product(range(1, 7), repeat=n):
            if special and roll in (TOY_PENALTY, TOY_INSTANT):
                continue
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


def toy_turns(special: bool) -> object:
    chance = [0.0] * TOY_DICE + [1 / 36 if special else 0.0]  # per number of dice: only two dice
    return turn_rolls_from(toy_outcomes(special), chance, chance)


@dataclass(frozen=True)
class Toy:
    """A toy game's end and the rare events that lower a bank, for the solver and for brute force."""

    size: int
    ending: np.ndarray
    bank_from: list[int]
    forced: bool = False
    streaks: int = 1
    special: bool = False  # penalty roll and instant win
    penalty_to: list[int] | None = None
    reset_to: list[int] | None = None

    def game(self) -> WinGame:
        return WinGame(
            toy_turns(self.special),  # type: ignore[arg-type]
            self.size,
            self.ending,
            np.array(self.bank_from),
            self.forced,
            penalty_to=np.array(self.penalty_to or range(self.size)),
            reset_to=np.array(self.reset_to or [0] * self.size),
        )

    def solved(self, tol: float) -> np.ndarray:
        return solve_game(self.game(), tol, self.streaks)


def brute_force(toy: Toy) -> np.ndarray:
    """Plain value iteration over every (Farkles in a row, banks, turn total, dice) until nothing moves.

    With three streaks the third Farkle in a row lowers the bank (to 0 unless `reset_to` says).
    """
    size, ending, streaks = toy.size, toy.ending, toy.streaks
    outcomes = toy_outcomes(toy.special)
    penalty_to = toy.penalty_to or list(range(size))
    reset_to = toy.reset_to or [0] * size
    special = 1 / 36 if toy.special else 0.0
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
        return 1.0 - (wins[b, a + 1, j, i] if a < 2 else wins[b, 0, j, reset_to[i]])

    def after(a: int, b: int, i: int, j: int, t: int, left: int) -> float:
        if t > size + beyond - 1 - i:
            return ending[j, beyond - 1]  # past the last distinct bank value, as the solver rules
        roll_on = rolling[a, b, i, j, t, left or TOY_DICE]
        if t >= toy.bank_from[i] and (left or not toy.forced):
            return max(banked(b, i, j, t), roll_on)
        return roll_on

    for _ in range(10_000):
        change = 0.0
        for a, b, i, j, t, n in list(rolling):
            if t > size + beyond - 1 - i:
                continue
            rare = special if n == TOY_DICE else 0.0
            farkle = 1.0 - sum(p for p, _ in outcomes[n - 1]) - 2 * rare
            value = farkle * farkled(a, b, i, j) + rare * (1.0 - wins[b, a, j, penalty_to[i]]) + rare
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
    toy = Toy(size, toy_ending(end, size), [max(entry, 1)] + [1] * (size - 1), forced)
    assert np.allclose(toy.solved(1e-12), brute_force(toy), atol=1e-9)


@pytest.mark.parametrize("end", ["first to the target", "last turn to pass"])
def test_three_farkles_resetting_the_bank_match_value_iteration(end: str) -> None:
    size = 4
    toy = Toy(size, toy_ending(end, size), [1] * size, streaks=3)
    solved = toy.solved(1e-13)
    assert np.allclose(solved, brute_force(toy), atol=1e-9)
    assert solved[2, 0, 3, 1] < solved[0, 0, 3, 1], "two Farkles in a row put a bank at risk"


@pytest.mark.parametrize("streaks", [1, 3], ids=["no streaks", "third Farkle costs 2 units"])
@pytest.mark.parametrize("end", ["first to the target", "last turn to pass"])
def test_penalty_rolls_and_instant_wins_match_value_iteration(end: str, streaks: int) -> None:
    """A penalty roll costs 3 units (not below 0), two 1s win at once; with streaks a third Farkle in a
    row costs 2 units, from banks that start 1 unit below 0 (index 0)."""
    size = 5
    lowered = [max(i - 2, 0) for i in range(size)] if streaks > 1 else None
    toy = Toy(size, toy_ending(end, size), [1] * size, streaks=streaks, special=True,
              penalty_to=[max(i - 3, 0) for i in range(size)], reset_to=lowered)  # fmt: skip
    solved = toy.solved(1e-13)
    assert np.allclose(solved, brute_force(toy), atol=1e-9)
    plain = Toy(size, toy.ending, toy.bank_from, streaks=streaks, reset_to=lowered).solved(1e-13)
    assert not np.allclose(solved, plain, atol=1e-4), "the special rolls change the chances"


def test_farkles_that_keep_the_banks_are_solved_within_one_sweep() -> None:
    """When a third Farkle doesn't lower the bank, every Farkle leads among the states of the same two
    banks: one sweep solves them in the order the Farkles lead through them (round and round where they
    form a circle), and leaves nothing for a next sweep."""
    size = 4
    toy = Toy(size, toy_ending("last turn to pass", size), [1] * size, streaks=3, reset_to=list(range(size)))
    game = toy.game()
    values = np.full((3, 3, size, size), 0.5)
    winkernels.sweep_streaks(
        values, size, game.ending, game.bank_from, game.forced, game.penalty_to, game.reset_to,
        game.turns.kernel_args(), 1e-13,
    )  # fmt: skip
    assert np.allclose(values, brute_force(toy), atol=1e-9)


def test_sweeps_stop_once_what_is_left_to_move_is_bounded_under_tol() -> None:
    tol = 1e-8
    assert settled([0.5, 1e-9], tol), "a sweep that moves nothing by tol"
    assert not settled([0.5, 1e-5], tol), "one ratio of changes tells no rate yet"
    assert settled([1e-1, 1e-4, 1e-7], tol), "shrinking a thousand times a sweep: 4e-10 left"
    assert not settled([1e-2, 1e-5, 1e-6], tol), "the rate is the larger of the last two ratios"
    assert not settled([1e-4, 5e-5, 2.5e-5, 1.25e-5], tol), "slow sweeps run until one moves under tol"


def test_stopping_early_stays_within_tol_of_sweeping_until_still(monkeypatch: pytest.MonkeyPatch) -> None:
    """Last-loses to 3,000: the fourth sweep still moves ~5e-7, but the changes shrink ~50 times a sweep;
    the sweeps stop there, and the values are within tol of those of sweeping on until nothing moves."""
    rules = Ruleset(target=3000, three_farkles="reset", end_rule="last_loses")
    game = win_game(rules, DEFAULT_MARGIN)
    changes: list[float] = []
    sweep = winkernels.sweep_streaks

    def recorded(*args: object) -> float:
        changes.append(sweep(*args))  # type: ignore[arg-type]
        return changes[-1]

    monkeypatch.setattr(winkernels, "sweep_streaks", recorded)
    tol = 1e-7
    early = solve_game(game, tol, streaks=3)
    assert changes[-1] > tol and settled(changes, tol), "stopped by the bound, not by a still sweep"
    swept = len(changes)
    still = solve_game(game, 1e-12, streaks=3)
    assert len(changes) > 2 * swept, "sweeping until still takes more sweeps"
    assert np.abs(early - still).max() < tol


def all_values(solved: WinTables) -> np.ndarray:
    unit, top = solved.unit, solved.rules.target
    return np.array([[solved.value(i, j) for j in range(0, top, unit)] for i in range(0, top, unit)])


@pytest.mark.parametrize("name", sorted(SMALL))
def test_values_are_probabilities_and_moving_first_helps(name: str) -> None:
    solved = tables(name)
    values = all_values(solved)
    assert ((values >= 0) & (values <= 1)).all()
    if solved.rules.end_rule != "exact":  # where an opponent near the target hands over what passes it
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


def test_an_exact_target_gives_the_points_over_it_to_the_opponent() -> None:
    solved = tables("family")
    assert solved.bank_value(1200, 1300, 500) == 0.5, "200 over lift the opponent to the target: a tie"
    far, near = solved.bank_value(1200, 0, 300), solved.bank_value(1200, 1000, 300)
    assert 0.5 < near < far < 1, "the opponent's last turn can only tie, likelier from nearer"
    assert solved.bank_value(1200, 0, 300) > solved.bank_value(1200, 0, 800), "points over help them"


def test_three_farkles_costing_1000_reach_below_zero() -> None:
    solved = tables("minus 1000")
    assert solved.covers(-2500) and not solved.covers(-2550) and not solved.covers(1500)
    assert solved.value(-1000, 0) < solved.value(0, 0) < solved.value(0, -1000)
    assert solved.value(500, 500, mine=2) < solved.value(500, 500), "two Farkles in a row put 1,000 at risk"
    loaded = WinTables.from_bytes(solved.to_bytes())
    assert loaded.value(-1000, 0, theirs=1) == pytest.approx(solved.value(-1000, 0, theirs=1), abs=1e-6)


def test_penalty_rolls_and_instant_wins_change_the_chances() -> None:
    six_ones, plain = tables("six ones"), solve_winprob(Ruleset(target=3000))
    assert six_ones.value(0, 2500) > plain.value(0, 2500), "far behind, six 1s may still win at once"
    family = tables("family")
    no_penalty = solve_winprob(SMALL["family"].model_copy(update={"penalty_roll": None}))
    assert family.value(1000, 1000) < no_penalty.value(1000, 1000), "a penalty roll can cost the bank"
