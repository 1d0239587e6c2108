"""The two-player game the win tables solve, as flat arrays: the rolls of a turn, the banks in play, what
banking at or past the target is worth, and where the rare events (a penalty roll, a third Farkle in a
row) move a bank. Built from the rules by the reader (`winprob`) and the solver (`winsolve`) alike; banks
are indices (bank units + `offset`), see `winprob` for the model.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bot.engine.reach import ReachTable
from bot.engine.rules import Ruleset
from bot.engine.scoring import PENALTY_DICE, SIX_ONES, outcome_count
from bot.engine.solver import roll_outcomes, score_unit

FloatArray = np.ndarray[Any, np.dtype[np.float64]]
IntArray = np.ndarray[Any, np.dtype[np.int64]]
Chances = np.ndarray[Any, np.dtype[np.floating[Any]]]  # tables' values: float64 solved, float32 stored

# The rolls of 1-6 dice as the compiled kernels read them (`TurnRolls.kernel_args`): dice, per number of
# dice the chances of a Farkle, a penalty roll and an instant win, the keep trie (`KeepTrie`: per number of
# dice where its nodes start and end, then each node's parent, units, dice left and chance), and the most
# units one keep adds.
KernelTurns = tuple[
    int, FloatArray, FloatArray, FloatArray, IntArray, IntArray, IntArray, IntArray, IntArray, FloatArray,
    int,
]  # fmt: skip

NEGATIVE_FLOOR = 2500
_FARKLE_PENALTY = 1000


@dataclass(frozen=True)
class TurnRolls:
    """The rolls of 1-6 dice as flat arrays the kernels read (see `kernels.solve_turn`)."""

    dice: int
    farkle: FloatArray  # [n]: chance that n dice score nothing
    penalty: FloatArray  # [n]: chance of the penalty roll (the turn ends, the bank falls)
    instant: FloatArray  # [n]: chance of a roll that wins at once
    group_lo: IntArray  # [n]: first group of n-dice rolls
    group_hi: IntArray
    group_p: FloatArray  # [g]: chance of a roll of this group
    keep_lo: IntArray  # [g]: first keep of the group
    keep_hi: IntArray
    keep_units: IntArray  # [k]: units the keep adds
    keep_left: IntArray  # [k]: dice left after it (0 = hot dice)
    reach: int  # most units one keep adds

    def kernel_args(self) -> KernelTurns:
        trie = KeepTrie.of(self)
        return (
            self.dice, self.farkle, self.penalty, self.instant, trie.node_lo, trie.node_hi, trie.parent,
            trie.units, trie.left, trie.chance, self.reach,
        )  # fmt: skip


@dataclass(frozen=True)
class KeepTrie:
    """The groups' keeps as a trie, so a best keep shared by many groups is found once.

    A group of rolls is worth its best keep: the max over a set of (units, dice left) cells. Many groups
    share most of their keeps (a 1 kept alone is in almost every roll of six dice), so each group's keeps
    are sorted, commonest first, into a path of the trie; a node holds the best of its path so far, one
    comparison with its parent's best, and the chance of the group whose path ends there (0 if none).
    Nodes are numbered depth first, per number of dice: a node's parent is mostly the node just before
    it. Classic: 268 nodes instead of 579 keeps.
    """

    node_lo: IntArray  # [n]: first node of n-dice rolls
    node_hi: IntArray
    parent: IntArray  # [node]: -1 at the root
    units: IntArray  # [node]: the keep the node adds to its path
    left: IntArray
    chance: FloatArray  # [node]: the chance of the rolls whose best keep is the node's

    @classmethod
    def of(cls, turns: TurnRolls) -> KeepTrie:
        keeps = [
            [(int(turns.keep_units[k]), int(turns.keep_left[k])) for k in range(lo, hi)]
            for lo, hi in zip(turns.keep_lo, turns.keep_hi, strict=True)
        ]
        node_lo, node_hi = [0] * (turns.dice + 1), [0] * (turns.dice + 1)
        parent: list[int] = []
        cells: list[tuple[int, int]] = []
        chance: list[float] = []
        for n in range(1, turns.dice + 1):
            groups = range(turns.group_lo[n], turns.group_hi[n])
            common = Counter(keep for g in groups for keep in keeps[g])
            paths = {g: tuple(sorted(keeps[g], key=lambda keep: (-common[keep], keep))) for g in groups}
            node_lo[n] = len(parent)
            node: dict[tuple[tuple[int, int], ...], int] = {}
            for path in sorted(set(paths.values())):  # sorted paths: a depth-first order of their prefixes
                for depth in range(1, len(path) + 1):
                    if path[:depth] not in node:
                        node[path[:depth]] = len(parent)
                        parent.append(node[path[: depth - 1]] if depth > 1 else -1)
                        cells.append(path[depth - 1])
                        chance.append(0.0)
            for g in groups:
                chance[node[paths[g]]] += float(turns.group_p[g])
            node_hi[n] = len(parent)
        units, left = zip(*cells, strict=True)
        return cls(_ints(node_lo), _ints(node_hi), _ints(parent), _ints(units), _ints(left), np.array(chance))


def _ints(numbers: Sequence[int]) -> IntArray:
    return np.array(numbers, dtype=np.int64)


Grouped = list[tuple[float, tuple[tuple[int, int], ...]]]


def turn_rolls(rules: Ruleset, unit: int) -> TurnRolls:
    by_dice = [roll_outcomes(rules, n, unit, prune=True, apart=True)[0] for n in range(1, 7)]
    penalty = [0.0] * 7
    instant = [0.0] * 7
    if rules.penalty_roll is not None:
        penalty[6] = outcome_count(PENALTY_DICE) / 6**6
    if rules.six_ones_instant_win:
        instant[6] = outcome_count(SIX_ONES) / 6**6
    return turn_rolls_from(by_dice, penalty, instant)


def turn_rolls_from(
    by_dice: list[Grouped], penalty: list[float] | None = None, instant: list[float] | None = None
) -> TurnRolls:
    """Flatten the rolls of 1..D dice: (chance, keeps as (units, dice left)) per group of rolls, and the
    chances of the penalty roll and of a roll that wins at once per number of dice (none if not given)."""
    dice = len(by_dice)
    penalty = penalty or [0.0] * (dice + 1)
    instant = instant or [0.0] * (dice + 1)
    groups: Grouped = []
    lo, hi, farkle = [0] * (dice + 1), [0] * (dice + 1), [0.0] * (dice + 1)
    for n, outcomes in enumerate(by_dice, start=1):
        lo[n] = len(groups)
        groups.extend(outcomes)
        hi[n] = len(groups)
        farkle[n] = 1.0 - sum(p for p, _ in outcomes) - penalty[n] - instant[n]
    keep_lo: list[int] = []
    keep_hi: list[int] = []
    units: list[int] = []
    left: list[int] = []
    for _, keeps in groups:
        keep_lo.append(len(units))
        for points, dice_left in keeps:
            units.append(points)
            left.append(dice_left)
        keep_hi.append(len(units))
    return TurnRolls(
        dice,
        np.array(farkle),
        np.array(penalty),
        np.array(instant),
        np.array(lo, dtype=np.int64),
        np.array(hi, dtype=np.int64),
        np.array([p for p, _ in groups]),
        np.array(keep_lo, dtype=np.int64),
        np.array(keep_hi, dtype=np.int64),
        np.array(units, dtype=np.int64),
        np.array(left, dtype=np.int64),
        max(units),
    )


@dataclass(frozen=True)
class WinGame:
    """Everything a solve needs besides the value table; banks are indices (bank units + `offset`)."""

    turns: TurnRolls
    size: int  # indices 0 .. size-1 are still playing; `size` is the target
    ending: FloatArray  # [opponent, bank index - size]: value of banking at or past the target
    bank_from: IntArray  # [own bank]: the smallest turn total (units) that may be banked
    forced: bool  # hot dice must be rolled
    penalty_to: IntArray  # [own bank]: the bank after a penalty roll
    reset_to: IntArray  # [own bank]: the bank after a third Farkle in a row
    offset: int = 0  # the index of a bank of 0

    @property
    def beyond(self) -> int:
        return int(self.ending.shape[1])


def bank_indices(rules: Ruleset) -> tuple[int, int]:
    """(index of a bank of 0, indices in play): below 0 only where three Farkles cost 1,000."""
    unit = score_unit(rules)
    offset = -(-NEGATIVE_FLOOR // unit) if rules.three_farkles == "minus_1000" else 0
    return offset, offset + -(-rules.target // unit)


def win_game(rules: Ruleset, margin: int) -> WinGame:
    unit = score_unit(rules)
    offset, size = bank_indices(rules)
    entry, minimum = -(-rules.entry_minimum // unit), -(-rules.bank_minimum // unit)
    bank_from = np.full(size, max(minimum, 1), dtype=np.int64)
    if entry:
        bank_from[offset] = max(entry, minimum, 1)  # a zero bank is off the board (banks never fall)
    banks = np.arange(size, dtype=np.int64) - offset
    fallen = np.maximum(banks + (rules.penalty_roll or 0) // unit, np.minimum(banks, 0))  # as `Game` does
    penalty_to = np.maximum(fallen + offset, 0)  # below the floor counts as the floor
    if rules.three_farkles == "minus_1000":
        reset_to = np.maximum(banks - _FARKLE_PENALTY // unit + offset, 0)
    else:
        reset_to = np.full(size, offset, dtype=np.int64)
    ending = _ending(rules, margin, unit, size, offset, bank_from)
    forced = rules.hot_dice == "forced"
    return WinGame(turn_rolls(rules, unit), size, ending, bank_from, forced, penalty_to, reset_to, offset)


def _ending(
    rules: Ruleset, margin: int, unit: int, size: int, offset: int, bank_from: IntArray
) -> FloatArray:
    """`[j, over]`: the chance to win after banking `over` units past the target against bank index j."""
    if rules.end_rule == "last_loses":
        return np.ones((size, 1))
    target = size - offset
    exact = rules.end_rule == "exact"
    beyond = size + 1 if exact else -(-margin // unit)
    banks = np.arange(size)[:, None]
    over = np.arange(beyond)[None, :]
    floor = bank_from[:, None]
    if exact:  # the points over go to the opponent, who may then tie by reaching the target
        gap = target - (banks - offset) - over
        tie = np.maximum(gap, floor)
        six = ReachTable(rules).rolling_upto(int(tie.max()), 6)
        ending: FloatArray = np.where(gap <= 0, 0.5, 1.0 - 0.5 * six[tie])
        return ending
    gap = size + over - banks  # the opponent ties by gaining `gap`, passes by one unit more
    tie, passing = np.maximum(gap, floor), np.maximum(gap + 1, floor)
    six = ReachTable(rules).rolling_upto(int(passing.max()), 6)
    passes: FloatArray = six[passing]
    ties: FloatArray = six[tie] - passes
    return 1.0 - passes - 0.5 * ties


def streak_count(rules: Ruleset) -> int:
    """Farkles in a row the tables tell apart: 0-2 when the third lowers the bank, else none."""
    return 1 if rules.three_farkles == "none" else 3
