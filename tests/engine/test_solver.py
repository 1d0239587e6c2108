"""Turn solver: the published value, known decisions, brute-force recursion on capped turns."""

from collections import Counter
from collections.abc import Callable
from functools import cache
from itertools import combinations, product

import pytest

from bot.engine.rules import PRESET_NAMES, Ruleset
from bot.engine.scoring import score_dice
from bot.engine.solver import Decision, TurnPolicy, _solve, turn_expected_value
from tests.solved import policy_for

# Busche & Neller 2017: 1 = 100, 5 = 50, triples only (three 1s = 1000).
NO_STRAIGHT = Ruleset(straight=None)


def test_busche_neller_expected_turn() -> None:
    assert round(turn_expected_value(NO_STRAIGHT), 2) == 446.57
    assert turn_expected_value(
        Ruleset.preset("classic").model_copy(update={"straight": None})
    ) == pytest.approx(446.5714, abs=1e-4)


def test_opening_roll_keeps_only_the_one() -> None:
    decision = policy_for(NO_STRAIGHT).decide([1, 5, 2, 3, 4, 6], 0)
    assert decision.keep == (1,)
    assert not decision.bank


def test_three_dice_at_300_keep_both_and_bank() -> None:
    assert policy_for(NO_STRAIGHT).decide([1, 5, 2], 300) == Decision((1, 5), True, 450.0)


def test_entry_minimum_changes_decisions() -> None:
    rules = Ruleset(straight=None, entry_minimum=500)
    on, off = policy_for(rules, on_board=True), policy_for(rules, on_board=False)
    assert on.decide([1, 5, 2], 300).bank
    off_board = off.decide([1, 5, 2], 300)
    assert not off_board.bank  # 450 can't be banked before reaching 500
    assert off_board.expected < 450
    assert turn_expected_value(rules, on_board=False) < turn_expected_value(rules, on_board=True)
    assert turn_expected_value(rules, on_board=True) == turn_expected_value(NO_STRAIGHT)


def test_bank_minimum_and_forced_hot_dice() -> None:
    assert not policy_for(Ruleset(straight=None, bank_minimum=500)).decide([1, 5, 2], 300).bank
    assert policy_for(Ruleset()).decide([1, 1, 1], 30000) == Decision((1, 1, 1), True, 31000.0)
    forced = policy_for(Ruleset(hot_dice="forced"))
    hot = forced.expected_if_rolling(31000, 6)
    assert 30200 < hot < 31000  # worse than banking 31,000, better than banking two 1s
    assert forced.decide([1, 1, 1], 30000) == Decision((1, 1, 1), False, hot)


def test_farkle_and_penalty_rolls_have_no_keep() -> None:
    assert policy_for(NO_STRAIGHT).decide([2, 3, 4, 6], 500) == Decision((), False, 0.0)
    family = Ruleset.preset("family")
    assert policy_for(family).decide([6, 1, 6, 6, 6, 6], 0) == Decision((), False, -10000.0)


def test_solves_survive_json() -> None:
    doubling = Ruleset.preset("doubling")
    policy = policy_for(doubling, on_board=False)
    again = TurnPolicy.from_json(policy.to_json())
    assert again.rules == doubling and not again.on_board
    for total in range(0, 3001, 50):
        for dice in range(1, 7):
            for rolls in range(3):
                assert again.expected_if_rolling(total, dice, rolls) == policy.expected_if_rolling(
                    total, dice, rolls
                )
    for roll in ([1, 5, 2, 3, 4, 6], [2, 2, 2, 5, 6], [1, 1]):
        assert again.decide(roll, 350, rolls=2) == policy.decide(roll, 350, rolls=2)


@pytest.mark.parametrize("name", ["family", "box"])
def test_cap_is_far_beyond_real_turns(name: str) -> None:
    rules = Ruleset.preset(name)
    assert _solve(rules, True, cap=20000).expected_if_rolling(0, 6) == pytest.approx(
        turn_expected_value(rules), abs=1e-6
    )


# ---------------------------------------------------------------- independent brute force


@cache
def weighted_rolls(n: int) -> list[tuple[tuple[int, ...], float]]:
    """Every ordered outcome of n dice, folded into sorted rolls with their probabilities."""
    counts = Counter(tuple(sorted(roll)) for roll in product(range(1, 7), repeat=n))
    return [(roll, count / 6**n) for roll, count in counts.items()]


def brute_force(rules: Ruleset, cap: int, on_board: bool) -> Callable[[int, int, int], float]:
    """Expected turn points by plain recursion over every keep of every roll.

    Above `cap` the player keeps the best-scoring dice of one more roll then banks, or banks at once
    (the solver's tail past its cap); optional hot dice only.
    """
    threshold = max(rules.bank_minimum, 0 if on_board else rules.entry_minimum)
    limit = None if on_board else rules.entry_roll_limit

    @cache
    def keeps(roll: tuple[int, ...]) -> list[tuple[int, int]]:
        """(points, dice left) of every scoring selection of the roll."""
        chosen = {tuple(sorted(c)) for size in range(1, len(roll) + 1) for c in combinations(roll, size)}
        return [
            (points, len(roll) - len(keep))
            for keep in chosen
            if (points := score_dice(keep, rules)) is not None
        ]

    def counts_rolls(total: int) -> bool:
        return limit is not None and total < rules.entry_minimum

    @cache
    def rolling(total: int, n: int, done: int) -> float:
        outcomes = [
            max((after(total + p, left, done + 1) for p, left in keeps(roll)), default=0.0)
            for roll, _ in weighted_rolls(n)
        ]
        return sum(value * p for value, (_, p) in zip(outcomes, weighted_rolls(n), strict=True))

    def one_more_roll(total: int, n: int) -> float:
        return sum(
            p * (total + max(points for points, _ in keeps(roll)))
            for roll, p in weighted_rolls(n)
            if keeps(roll)
        )

    @cache
    def after(total: int, left: int, done: int) -> float:
        if counts_rolls(total) and limit is not None and done >= limit:
            return 0.0
        on = (
            rolling(total, left or 6, done if counts_rolls(total) else 0)
            if total <= cap
            else one_more_roll(total, left or 6)
        )
        return max(on, float(total)) if total >= threshold else on

    return rolling


@pytest.mark.parametrize(
    ("rules", "on_board", "cap"),
    [
        (NO_STRAIGHT, True, 600),
        (Ruleset(three_pairs=500, two_triplets=2500, bank_minimum=300), True, 600),
        (Ruleset(straight=None, entry_minimum=350), False, 600),
        (Ruleset.preset("doubling"), False, 600),  # entry 500 within 3 rolls
    ],
)
def test_matches_brute_force_on_capped_turns(rules: Ruleset, on_board: bool, cap: int) -> None:
    policy = _solve(rules, on_board, cap=cap, prune=False)
    rolling = brute_force(rules, cap, on_board)
    for total in range(0, cap + 1, 50):
        for n in range(1, 7):
            for done in range(rules.entry_roll_limit or 1) if not on_board else [0]:
                assert policy.expected_if_rolling(total, n, done) == pytest.approx(
                    rolling(total, n, done), abs=1e-9
                ), (total, n, done)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_best_keep_per_dice_count_loses_nothing(name: str) -> None:
    """Uncapped, more points with the same dice left never hurts: pruning other keeps is exact."""
    rules = Ruleset.preset(name)
    pruned, full = _solve(rules, False), _solve(rules, False, prune=False)
    for total in range(0, 6001, 50):
        for n in range(1, 7):
            assert pruned.expected_if_rolling(total, n) == pytest.approx(
                full.expected_if_rolling(total, n), abs=1e-9
            )
