"""Scoring from tables built once per ruleset.

There are only 924 multisets of 0-6 dice, so every question about one roll (what a selection
scores, which keeps exist, the best keep, the Farkle chance) is answered once per ruleset and
then looked up: the key is the sorted tuple of faces.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import combinations_with_replacement, product
from math import factorial

from bot.engine.rules import Ruleset
from bot.engine.rules.fields import triple_factor

Faces = tuple[int, ...]  # sorted faces: the key of every table

PENALTY_DICE: Faces = (1, 6, 6, 6, 6, 6)
SIX_ONES: Faces = (1, 1, 1, 1, 1, 1)


@dataclass(frozen=True)
class ScoringOption:
    """A keep from one roll: sorted faces and the points of their best split."""

    dice: Faces
    points: int


def _counts(dice: Faces) -> tuple[int, ...]:
    return tuple(dice.count(face) for face in range(1, 7))


def _kind_points(rules: Ruleset, face: int, n: int) -> int | None:
    """Points for n (3-6) dice of one face taken as a single combination, or None if not one."""
    triple = rules.three_ones if face == 1 else 100 * face
    if n == 3:
        return triple
    if n == 6 and face == 1 and rules.six_ones is not None:
        return rules.six_ones
    if n == 6 and rules.six_of_a_kind is not None:
        return rules.six_of_a_kind
    mode = rules.n_of_a_kind
    if mode == "none":
        return None
    if mode == "fixed":
        return 1000 * (n - 3)
    return triple * triple_factor(mode, n)


def _six_dice_points(rules: Ruleset, counts: tuple[int, ...]) -> list[int]:
    """Points of each six-dice combination these counts form (straight, pairs, triplets, 4+2)."""
    found = [c for c in counts if c]
    points = []
    if rules.straight is not None and found == [1] * 6:
        points.append(rules.straight)
    if rules.three_pairs is not None and all(c % 2 == 0 for c in found):
        points.append(rules.three_pairs)
    if rules.two_triplets is not None and all(c % 3 == 0 for c in found):
        points.append(rules.two_triplets)
    if rules.four_and_pair is not None and sorted(found) == [2, 4]:
        points.append(rules.four_and_pair)
    return points


def _combinations(rules: Ruleset) -> dict[Faces, int]:
    """Every single combination of the ruleset (sorted faces -> points), the best when several apply."""
    combos: dict[Faces, int] = {(1,): rules.single_one, (5,): rules.single_five}
    for face in range(1, 7):
        for n in range(3, 7):
            points = _kind_points(rules, face, n)
            if points is not None:
                combos[(face,) * n] = points
    for dice in combinations_with_replacement(range(1, 7), 6):
        for points in _six_dice_points(rules, _counts(dice)):
            combos[dice] = max(points, combos.get(dice, points))
    return combos


@cache
def _multisets() -> tuple[tuple[Faces, tuple[Faces, ...]], ...]:
    """Every multiset of 0-6 dice, fewest dice first, with its sub-multisets in an order where the i-th
    from the end is what the i-th leaves (the counts run through `product`): the same for every
    ruleset, so built once per process."""
    faces = {_counts(dice): dice for n in range(7) for dice in combinations_with_replacement(range(1, 7), n)}
    return tuple(
        (dice, tuple(faces[sub] for sub in product(*(range(c + 1) for c in counts))))
        for counts, dice in faces.items()
    )


class ScoringTables:
    """All one-roll answers for a ruleset; reach them through `scoring_tables(rules)` (built once)."""

    __slots__ = ("best", "farkle", "options", "score")

    def __init__(self, rules: Ruleset) -> None:
        combos = _combinations(rules)
        best: dict[Faces, int | None] = {}  # best points of a partition into combinations
        for dice, subs in _multisets():
            best[dice] = _best_split(dice, subs, combos, best) if dice else 0
        self.score: dict[Faces, int] = {d: points for d, points in best.items() if points is not None and d}
        # One option per scoring keep, shared by every roll holding it; a roll lists them in this order.
        ranked = sorted(self.score.items(), key=lambda item: (-item[1], len(item[0]), item[0]))
        keep = {dice: ScoringOption(dice, points) for dice, points in ranked}
        rank = {dice: i for i, dice in enumerate(keep)}
        self.options: dict[Faces, tuple[ScoringOption, ...]] = {
            roll: tuple(keep[d] for d in sorted(filter(keep.__contains__, subs), key=rank.__getitem__))
            for roll, subs in _multisets()
        }
        self.best: dict[Faces, int] = {
            roll: opts[0].points if opts else 0 for roll, opts in self.options.items()
        }
        self.farkle: tuple[Fraction, ...] = tuple(self._farkle_chance(n) for n in range(7))

    def _farkle_chance(self, n: int) -> Fraction:
        """Ordered outcomes of n dice with no keep, over 6^n (each multiset weighs its permutations)."""
        misses = sum(
            outcome_count(roll)
            for roll in combinations_with_replacement(range(1, 7), n)
            if not self.options[roll]
        )
        return Fraction(misses, 6**n)


def outcome_count(roll: Sequence[int]) -> int:
    """How many ordered rolls show these faces (the multinomial weight of the multiset)."""
    return _weight(tuple(sorted(roll)))


@cache
def _weight(faces: Faces) -> int:
    result = factorial(len(faces))
    for face in set(faces):
        result //= factorial(faces.count(face))
    return result


def _best_split(
    dice: Faces, subs: tuple[Faces, ...], combos: dict[Faces, int], best: dict[Faces, int | None]
) -> int | None:
    """Best points of a partition of `dice` into combinations (smaller multisets already in `best`).
    Each partition is found once: through the block holding a die of the lowest face present."""
    result: int | None = None
    for i, block in enumerate(subs):
        points = combos.get(block)
        if points is None or block[0] != dice[0]:
            continue
        rest_points = best[subs[-1 - i]]
        if rest_points is not None and (result is None or points + rest_points > result):
            result = points + rest_points
    return result


@lru_cache(maxsize=64)
def scoring_tables(rules: Ruleset) -> ScoringTables:
    """The ruleset's tables, built on first use and kept for the most recently used rulesets."""
    return ScoringTables(rules)


def _roll_key(roll: Sequence[int]) -> Faces:
    key = tuple(sorted(roll))
    if len(key) > 6 or (key and (key[0] < 1 or key[-1] > 6)):
        raise ValueError(f"A roll is at most six dice showing 1 to 6, not {list(roll)}.")
    return key


def score_dice(dice: Sequence[int], rules: Ruleset) -> int | None:
    """Points for keeping exactly these dice from one roll (best split); None if a die doesn't score."""
    return scoring_tables(rules).score.get(tuple(sorted(dice)))


def scoring_options(roll: Sequence[int], rules: Ruleset) -> tuple[ScoringOption, ...]:
    """Every distinct scoring keep of the roll, most points first (then fewest dice)."""
    return scoring_tables(rules).options[_roll_key(roll)]


def best_points(roll: Sequence[int], rules: Ruleset) -> int:
    """Points of the best keep of the roll; 0 for a Farkle."""
    return scoring_tables(rules).best[_roll_key(roll)]


def farkle_chance(n_dice: int, rules: Ruleset) -> Fraction:
    """Exact chance that n fair dice have no scoring keep (a penalty roll still has keeps)."""
    if not 1 <= n_dice <= 6:
        raise ValueError(f"Farkle rolls are of 1 to 6 dice, not {n_dice}.")
    return scoring_tables(rules).farkle[n_dice]


def is_penalty_roll(roll: Sequence[int], rules: Ruleset) -> bool:
    """Five 6s and a 1 on six dice, when the ruleset punishes it."""
    return rules.penalty_roll is not None and tuple(sorted(roll)) == PENALTY_DICE


def wins_at_once(roll: Sequence[int], rules: Ruleset) -> bool:
    """Six 1s from one roll, when the ruleset lets them win the game at once."""
    return rules.six_ones_instant_win and tuple(roll) == SIX_ONES
