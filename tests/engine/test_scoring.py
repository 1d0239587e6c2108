"""Scoring: worked examples, a table per preset, exact Farkle odds and brute-force cross-checks."""

from collections import Counter
from fractions import Fraction
from itertools import combinations, combinations_with_replacement, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.rules import PRESET_NAMES, Ruleset
from bot.engine.scoring import (
    ScoringOption,
    best_points,
    farkle_chance,
    is_penalty_roll,
    score_dice,
    scoring_options,
)

CLASSIC = Ruleset.preset("classic")

# ---------------------------------------------------------------- worked examples in RULES.md


@pytest.mark.parametrize(
    ("preset", "dice", "points"),
    [
        ("doubling", (4, 4, 4, 4, 4), 1600),  # 000: 400 x 2 x 2
        ("doubling", (5, 5, 5, 5, 5, 5), 4000),  # 000
        ("last-loses", (4, 4, 4), 400),  # 002
        ("last-loses", (1, 1), 200),
        ("last-loses", (1, 1, 1, 3, 3, 3), 2000),  # two triplets
        ("last-loses", (1, 1, 5, 5), 300),
        ("last-loses", (5, 5, 5, 1, 1), 700),
        ("box", (1,), 100),  # 003
        ("box", (4, 4, 4), 400),
        ("family", (1, 1, 1, 1), 2000),  # 004
        ("family", (6, 6, 6, 6, 6), 1800),
        ("family", (1, 2, 3, 4, 5, 6), 1500),
    ],
)
def test_worked_examples(preset: str, dice: tuple[int, ...], points: int) -> None:
    assert score_dice(dice, Ruleset.preset(preset)) == points


def test_sheet_001_roll_with_many_keeps() -> None:
    roll = (1, 3, 4, 4, 4, 5)
    # "Kept whole" = the best keep of the whole roll; the 3 itself never scores, so all six are refused.
    assert best_points(roll, CLASSIC) == 550
    assert score_dice(roll, CLASSIC) is None
    listed = {(1,): 100, (1, 5): 150, (4, 4, 4): 400, (1, 4, 4, 4): 500, (1, 4, 4, 4, 5): 550}
    for keep, points in listed.items():
        assert score_dice(keep, CLASSIC) == points
    options = {option.dice: option.points for option in scoring_options(roll, CLASSIC)}
    assert options == {**listed, (5,): 50, (4, 4, 4, 5): 450}


def test_sheet_003_box_turn_reaches_the_entry() -> None:
    box = Ruleset.preset("box")
    first = best_points((1, 3, 3, 4, 6, 6), box)
    second = score_dice((4, 4, 4), box)
    assert score_dice((2, 3, 4, 4, 4), box) is None
    assert (first, second) == (100, 400)
    assert first + second >= box.entry_minimum


# ---------------------------------------------------------------- a table per preset

TABLE: dict[str, list[tuple[tuple[int, ...], int | None]]] = {
    "classic": [
        ((1, 1, 1, 1), 1100),
        ((2, 2, 2, 2), None),
        ((5, 5, 5, 5), 550),
        ((2, 2, 2, 2, 2, 2), 400),  # two plain triples
        ((1, 1, 1, 1, 1, 1), 2000),
        ((6, 5, 4, 3, 2, 1), 1000),
        ((2, 2, 3, 3, 4, 4), None),
        ((1, 5), 150),
        ((3, 3, 3, 5), 350),
        ((2, 3), None),
    ],
    "box": [
        ((1, 1, 1), 300),
        ((2, 2, 2, 2), 1000),
        ((2, 2, 2, 2, 2), 2000),
        ((2, 2, 2, 2, 2, 2), 3000),
        ((1, 1, 1, 1, 1, 1), 3000),
        ((2, 2, 3, 3, 4, 4), 1500),
        ((2, 2, 2, 2, 3, 3), 1500),
        ((2, 2, 2, 3, 3, 3), 2500),
        ((1, 1, 1, 1, 5, 5), 1500),
        ((1, 2, 3, 4, 5, 6), 1500),
    ],
    "doubling": [
        ((2, 2, 2, 2), 400),
        ((1, 1, 1, 1), 2000),
        ((1, 1, 1, 1, 1, 1), 8000),
        ((2, 2, 3, 3, 4, 4), 300),
        ((1, 1, 5, 5, 6, 6), 300),
        ((1, 1, 1, 5, 5, 5), 1500),
        ((1, 2, 3, 4, 5, 6), 1000),
        ((3, 3, 3, 3, 3), 1200),
    ],
    "last-loses": [
        ((2, 2, 3, 3, 4, 4), 500),
        ((2, 2, 2, 2, 3, 3), 500),
        ((2, 2, 2, 3, 3, 3), 2000),
        ((1, 1, 1, 1, 1, 1), 2000),
        ((1, 1, 1, 1, 5, 5), 1200),
        ((2, 2, 2, 2), None),
        ((1, 2, 3, 4, 5, 6), 1500),
    ],
    "family": [
        ((6, 6, 6, 6, 6, 6), 10000),
        ((1, 1, 1, 1, 1, 1), 10000),
        ((2, 2, 2, 2), 400),
        ((1, 1, 1, 1, 1), 3000),
        ((2, 2, 3, 3, 4, 4), None),
        ((1, 6, 6, 6, 6, 6), 1900),  # a penalty roll still has keeps
    ],
}


@pytest.mark.parametrize(
    ("preset", "dice", "points"),
    [(name, dice, points) for name, rows in TABLE.items() for dice, points in rows],
)
def test_preset_table(preset: str, dice: tuple[int, ...], points: int | None) -> None:
    assert score_dice(dice, Ruleset.preset(preset)) == points
    assert score_dice(list(reversed(dice)), Ruleset.preset(preset)) == points


@pytest.mark.parametrize(
    ("rules", "dice", "points"),
    [
        (Ruleset(n_of_a_kind="high_multiples"), (3, 3, 3, 3), 1200),
        (Ruleset(n_of_a_kind="high_multiples"), (3, 3, 3, 3, 3), 1800),
        (Ruleset(n_of_a_kind="high_multiples"), (3, 3, 3, 3, 3, 3), 2400),
        (Ruleset(n_of_a_kind="multiples", six_ones=5000), (1, 1, 1, 1, 1, 1), 5000),
        (Ruleset(n_of_a_kind="multiples", six_ones=5000), (2, 2, 2, 2, 2, 2), 800),
        (Ruleset(three_pairs=750), (2, 2, 2, 2, 3, 3), 750),  # 4 + 2 are three pairs
        (Ruleset(three_pairs=1500), (2, 2, 2, 2, 2, 2), 1500),  # so is six of a kind
        (Ruleset(two_triplets=2500), (3, 3, 3, 3, 3, 3), 2500),  # and two triplets
        (Ruleset(four_and_pair=1500), (2, 2, 2, 2, 2, 2), 400),  # but not four and a pair
        (
            Ruleset(single_one=200, single_five=100, three_ones=300),
            (1, 1, 1, 1, 5),
            900,
        ),  # singles beat the triple
        (Ruleset(), (), None),
        (Ruleset(), (7,), None),
        (Ruleset(), (1, 1, 1, 1, 1, 1, 1), None),
    ],
)
def test_other_tables(rules: Ruleset, dice: tuple[int, ...], points: int | None) -> None:
    assert score_dice(dice, rules) == points


def test_options_are_sorted_distinct_and_consistent() -> None:
    for name in PRESET_NAMES:
        rules = Ruleset.preset(name)
        options = scoring_options([5, 1, 5, 1, 2, 2], rules)
        assert len({o.dice for o in options}) == len(options)
        assert [o.points for o in options] == sorted((o.points for o in options), reverse=True)
        assert all(score_dice(o.dice, rules) == o.points for o in options)
        assert all(isinstance(o, ScoringOption) and list(o.dice) == sorted(o.dice) for o in options)
    assert scoring_options((2, 3, 4, 6), CLASSIC) == ()
    assert best_points((2, 3, 4, 6), CLASSIC) == 0
    with pytest.raises(ValueError):
        scoring_options((0, 1), CLASSIC)


def test_penalty_roll() -> None:
    family = Ruleset.preset("family")
    assert is_penalty_roll((6, 6, 1, 6, 6, 6), family)
    assert not is_penalty_roll((6, 6, 1, 6, 6, 6), CLASSIC)
    assert not is_penalty_roll((6, 6, 1, 6, 6), family)
    assert not is_penalty_roll((6, 6, 6, 6, 6, 6), family)


# ---------------------------------------------------------------- independent slow scorer

KIND_FACTORS = {
    "doubling": {4: 2, 5: 4, 6: 8},
    "multiples": {4: 2, 5: 3, 6: 4},
    "high_multiples": {4: 4, 5: 6, 6: 8},
    "fixed": {4: 0, 5: 0, 6: 0},
    "none": {},
}
FIXED = {4: 1000, 5: 2000, 6: 3000}


def one_combination(dice: tuple[int, ...], rules: Ruleset) -> int | None:
    """Points if these dice, all together, form one combination of the sheet's tables."""
    candidates: list[int] = []
    counts = Counter(dice)
    if dice == (1,):
        candidates.append(rules.single_one)
    if dice == (5,):
        candidates.append(rules.single_five)
    if len(counts) == 1 and len(dice) >= 3:
        face, n = dice[0], len(dice)
        triple = rules.three_ones if face == 1 else face * 100
        if n == 3:
            candidates.append(triple)
        elif n == 6 and face == 1 and rules.six_ones is not None:
            candidates.append(rules.six_ones)
        elif n == 6 and rules.six_of_a_kind is not None:
            candidates.append(rules.six_of_a_kind)
        elif rules.n_of_a_kind == "fixed":
            candidates.append(FIXED[n])
        elif n in KIND_FACTORS[rules.n_of_a_kind]:
            candidates.append(triple * KIND_FACTORS[rules.n_of_a_kind][n])
    if len(dice) == 6:
        sizes = sorted(counts.values())
        if rules.straight is not None and sorted(dice) == [1, 2, 3, 4, 5, 6]:
            candidates.append(rules.straight)
        if rules.three_pairs is not None and sizes in ([2, 2, 2], [2, 4], [6]):
            candidates.append(rules.three_pairs)
        if rules.two_triplets is not None and sizes in ([3, 3], [6]):
            candidates.append(rules.two_triplets)
        if rules.four_and_pair is not None and sizes == [2, 4]:
            candidates.append(rules.four_and_pair)
    return max(candidates, default=None)


def slow_score(dice: tuple[int, ...], rules: Ruleset) -> int | None:
    """Best total over every partition of the dice into combinations (the first die picks its block)."""
    if not dice:
        return 0
    first, rest = dice[0], dice[1:]
    best: int | None = None
    for size in range(len(rest) + 1):
        for chosen in combinations(range(len(rest)), size):
            block = tuple(sorted((first, *(rest[i] for i in chosen))))
            block_points = one_combination(block, rules)
            if block_points is None:
                continue
            others = slow_score(tuple(d for i, d in enumerate(rest) if i not in chosen), rules)
            if others is not None and (best is None or block_points + others > best):
                best = block_points + others
    return best


@st.composite
def scoring_rules(draw: st.DrawFn) -> Ruleset:
    return Ruleset(
        single_one=draw(st.sampled_from([50, 100, 200])),
        single_five=draw(st.sampled_from([50, 100])),
        three_ones=draw(st.sampled_from([200, 300, 1000])),
        n_of_a_kind=draw(st.sampled_from(list(KIND_FACTORS))),
        six_of_a_kind=draw(st.sampled_from([None, 3000, 10000])),
        six_ones=draw(st.sampled_from([None, 5000])),
        straight=draw(st.sampled_from([None, 1000, 1500, 3000])),
        three_pairs=draw(st.sampled_from([None, 300, 500, 1500])),
        four_and_pair=draw(st.sampled_from([None, 1500])),
        two_triplets=draw(st.sampled_from([None, 2000, 2500])),
    )


rolls = st.lists(st.integers(1, 6), min_size=1, max_size=6)
presets = st.sampled_from(PRESET_NAMES).map(Ruleset.preset)


ALL_SELECTIONS = [dice for n in range(1, 7) for dice in combinations_with_replacement(range(1, 7), n)]


def assert_matches_brute_force(rules: Ruleset) -> None:
    for dice in ALL_SELECTIONS:
        assert score_dice(dice, rules) == slow_score(dice, rules), dice


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_selection_matches_brute_force(name: str) -> None:
    assert_matches_brute_force(Ruleset.preset(name))


@settings(max_examples=25, deadline=None)
@given(scoring_rules())
def test_score_dice_equals_brute_force_partitions(rules: Ruleset) -> None:
    assert_matches_brute_force(rules)


def sub_selections(roll: list[int]) -> list[tuple[int, ...]]:
    return [
        tuple(roll[i] for i in chosen)
        for size in range(1, len(roll) + 1)
        for chosen in combinations(range(len(roll)), size)
    ]


@given(presets, rolls)
def test_no_kept_selection_beats_the_best_option(rules: Ruleset, roll: list[int]) -> None:
    best = best_points(roll, rules)
    for keep in sub_selections(roll):
        points = score_dice(keep, rules)
        assert points is None or points <= best
    options = scoring_options(roll, rules)
    assert not options or options[0].points == best


@given(presets, rolls)
def test_farkle_exactly_when_no_option(rules: Ruleset, roll: list[int]) -> None:
    some_keep_scores = any(score_dice(keep, rules) is not None for keep in sub_selections(roll))
    assert (scoring_options(roll, rules) == ()) == (not some_keep_scores)
    assert (best_points(roll, rules) == 0) == (not some_keep_scores)


# ---------------------------------------------------------------- exact Farkle chances


def brute_force_farkle(n: int, rules: Ruleset) -> Fraction:
    """Count ordered outcomes of n dice where no die, triple or six-dice combination scores."""

    def scores(roll: tuple[int, ...]) -> bool:
        counts = Counter(roll)
        if counts[1] or counts[5] or max(counts.values()) >= 3:
            return True
        return n == 6 and one_combination(tuple(sorted(roll)), rules) is not None

    misses = sum(1 for roll in product(range(1, 7), repeat=n) if not scores(roll))
    return Fraction(misses, 6**n)


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize("n", range(1, 7))
def test_farkle_chance_is_exact(name: str, n: int) -> None:
    rules = Ruleset.preset(name)
    assert farkle_chance(n, rules) == brute_force_farkle(n, rules)


def test_classic_farkle_chances_are_plain_fractions() -> None:
    # One die misses on 2, 3, 4, 6; two dice miss when both do.
    assert farkle_chance(1, CLASSIC) == Fraction(4, 6)
    assert farkle_chance(2, CLASSIC) == Fraction(16, 36)
    with pytest.raises(ValueError):
        farkle_chance(0, CLASSIC)


def test_sheet_000_printed_farkle_chances() -> None:
    """Sheet 000 prints 6: 2%, 5: 8%, 4: 16%, 3: 28%, 2: 37%, 1: 67% for its own (doubling) rules."""
    printed = {6: 2, 5: 8, 4: 16, 3: 28, 2: 37, 1: 67}
    doubling = Ruleset.preset("doubling")
    exact = {n: brute_force_farkle(n, doubling) for n in printed}
    assert all(farkle_chance(n, doubling) == exact[n] for n in printed)
    wrong = {n for n, percent in printed.items() if round(exact[n] * 100) != percent}
    # Two dice Farkle when both show 2, 3, 4 or 6: (4/6)^2 = 4/9 = 44.4%, not 37%.
    assert wrong == {2}
    assert exact[2] == Fraction(4, 6) ** 2
