"""The compiled inner loops of `winprob`: one turn solved backward, and the sweeps over every bank pair.

Banks are indices here (`winprob` maps points to them): index `i` is a bank of `i - offset` units, and
indices `size` and up have reached the target. A turn's total only grows, so a turn is solved backward
from its largest total once the turn-start values it can lead to are fixed. Banking leads to a larger sum
of banks; a Farkle leads to the mirrored state (same sum: the pair is solved together) or, with Farkle
streaks, to the other player's turn with a longer streak (the pair's states are solved in that order).
Only rare events lower a bank: a penalty roll, a third Farkle in a row. Their targets are valued from
the previous sweep, and sweeps repeat until settled (`winsolve.settled`).

Speed: a turn solve is ~100-400 turn totals x 6 numbers of dice x each roll's best keep: ~600 keeps,
found by walking a trie of ~300 nodes (`wingame.KeepTrie`), for each of 40,000 states (360,000 with
Farkle streaks), once or twice per sweep: 10^10 simple steps, which NumPy can't vectorise well (a max
over each roll's keeps, on a different slice for every state), so the kernels are compiled with Numba
(nogil: a worker thread doesn't block).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bot.engine.win.game import FloatArray, IntArray
from bot.engine.win.game import KernelTurns as Turns

PAIR_ROUNDS = 60


@njit(cache=True, nogil=True)
def distinct(ending: FloatArray, j: int) -> int:
    """How many of the values of banking past the target differ against bank j (the rest equal the last:
    under an exact target, every bank that lifts the opponent to the target is a tie)."""
    beyond: int = ending.shape[1]
    while beyond > 1 and ending[j, beyond - 2] == ending[j, beyond - 1]:
        beyond -= 1
    return beyond


Scratch = tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, IntArray]


@njit(cache=True, nogil=True)
def solve_turn(
    i: int,
    j: int,
    farkled: float,
    penalized: float,
    penalty_slope: float,
    values: FloatArray,
    size: int,
    ending: FloatArray,
    bank_from: int,
    forced: bool,
    turns: Turns,
    work: Scratch,
    sloped: bool = True,
) -> tuple[float, float]:
    """Solve the turn of bank index i against j: a Farkle is worth `farkled` to the roller, a penalty
    roll `penalized` (which moves with `farkled` by `penalty_slope`), a roll in `instant` wins at once.
    Returns the turn's value and its slope in `farkled` (the chance of ending the turn in a Farkle), or
    0 without `sloped` (a third less work: the streak sweeps need no slopes).

    `cells[(t * dice + left) * 2]` is the value once dice are kept at turn total t with `left` dice left
    (bank or roll on), the next cell its slope; `best` holds each keep-trie node's best cell. Past the
    last bank value that differs, a bank is worth that last value.
    """
    (
        dice, farkle, penalty, instant, node_lo, node_hi, parent, _, _, chance, reach,
    ) = turns  # fmt: skip
    cells, best, best_slope, rolling, rolling_slope, node_cell = work
    beyond = distinct(ending, j)
    top = size + beyond - 1 - i  # largest turn total with its own bank value
    last = ending[j, beyond - 1]
    for c in range((top + 1) * dice, (top + reach + 1) * dice):
        cells[2 * c] = last
        cells[2 * c + 1] = 0.0
    for t in range(top, -1, -1):
        at = 2 * dice * t
        for n in range(1, dice + 1):
            # the Farkle, the penalty roll, the instant win, then each group of rolls' best keep
            value = farkle[n] * farkled + penalty[n] * penalized + instant[n]
            slope = farkle[n] + penalty[n] * penalty_slope if sloped else 0.0
            run, run_slope = -1.0, 0.0  # the previous node's best: mostly the parent's
            if sloped:
                for node in range(node_lo[n], node_hi[n]):
                    c = at + node_cell[node]
                    kept, kept_slope = cells[c], cells[c + 1]
                    up = parent[node]
                    if up >= 0:
                        if up != node - 1:
                            run, run_slope = best[up], best_slope[up]
                        better = kept > run
                        kept = kept if better else run
                        kept_slope = kept_slope if better else run_slope
                    best[node] = run = kept
                    best_slope[node] = run_slope = kept_slope
                    value += chance[node] * kept
                    slope += chance[node] * kept_slope
            else:
                for node in range(node_lo[n], node_hi[n]):
                    kept = cells[at + node_cell[node]]
                    up = parent[node]
                    if up >= 0:
                        if up != node - 1:
                            run = best[up]
                        kept = max(kept, run)
                    best[node] = run = kept
                    value += chance[node] * kept
            rolling[n] = value
            rolling_slope[n] = slope
        bank = i + t
        banked = 1.0 - values[j, bank] if bank < size else ending[j, bank - size]
        for left in range(dice):
            n = left if left else dice
            c = at + 2 * left
            if t >= bank_from and (left or not forced) and banked >= rolling[n]:
                cells[c] = banked
                cells[c + 1] = 0.0
            else:
                cells[c] = rolling[n]
                cells[c + 1] = rolling_slope[n]
    return rolling[dice], rolling_slope[dice]


@njit(cache=True, nogil=True)
def scratch(size: int, ending: FloatArray, turns: Turns) -> Scratch:
    """The arrays `solve_turn` fills: the cells, the trie nodes' best and its slope, rolling n dice at the
    current total and its slope; and where each node's cell is from a turn total's first cell."""
    dice, parent, units, left, reach = turns[0], turns[6], turns[7], turns[8], turns[10]
    width = size + ending.shape[1] + reach + 1
    nodes = len(parent)
    return (
        np.zeros(2 * dice * width),
        np.zeros(nodes),
        np.zeros(nodes),
        np.zeros(dice + 1),
        np.zeros(dice + 1),
        2 * (units * dice + left),
    )


@njit(cache=True, nogil=True)
def solved_change(values: FloatArray, previous: FloatArray, i: int, j: int, first: bool) -> float:
    """How far this sweep moved `values[i, j]` (the first sweep: from nothing)."""
    was: float = 0.0 if first else previous[i, j]
    now: float = values[i, j]
    return now - was


@njit(cache=True, nogil=True)
def guess(values: FloatArray, previous: FloatArray, size: int, i: int, j: int, first: bool) -> float:
    """Where to start the pair's rounds for `values[i, j]`: the last sweep's value, moved as the plane
    through the three neighbours one unit up (solved this sweep) moved, or as the one neighbour there is.
    In the first sweep that plane is the neighbours' values themselves; later sweeps mostly move a value
    as its neighbours moved, to within `tol` of where it settles (one round, none to confirm).

    The nearer the start, the likelier its policies are the answer's, and the pair settles in two rounds.
    """
    if i + 1 < size and j + 1 < size:
        moved = (
            solved_change(values, previous, i, j + 1, first)
            + solved_change(values, previous, i + 1, j, first)
            - solved_change(values, previous, i + 1, j + 1, first)
        )
    elif j + 1 < size:
        moved = solved_change(values, previous, i, j + 1, first)
    elif i + 1 < size:
        moved = solved_change(values, previous, i + 1, j, first)
    else:
        moved = 0.5 if first else 0.0
    start: float = 0.0 if first else previous[i, j]
    return start + moved


@njit(cache=True, nogil=True)
def sweep_pairs(
    values: FloatArray,
    previous: FloatArray,
    size: int,
    ending: FloatArray,
    bank_from: IntArray,
    forced: bool,
    penalty_to: IntArray,
    turns: Turns,
    tol: float,
    first: bool,
) -> float:
    """One sweep: `values[i, j]` from the largest sum of banks down, each mirrored pair together (with the
    turn policies fixed both values are linear in each other: re-solved until the policies settle, from
    a `guess`). A penalty roll that lowers a bank is valued as the last sweep left it (`previous`: a copy
    of `values` from before the sweep, the even chances it starts from before the first); returns the
    largest change."""
    work = scratch(size, ending, turns)
    moved = 0.0
    for total in range(2 * size - 2, -1, -1):
        for i in range(max(0, total - size + 1), total // 2 + 1):
            j = total - i
            x = guess(values, previous, size, i, j, first)
            y = guess(values, previous, size, j, i, first)
            for _ in range(PAIR_ROUNDS):
                # a penalty roll that leaves the bank as it is leads to the mirrored state, like a Farkle
                px, spx = (1.0 - y, 1.0) if penalty_to[i] == i else (1.0 - previous[j, penalty_to[i]], 0.0)
                vx, sx = solve_turn(
                    i, j, 1.0 - y, px, spx, values, size, ending, bank_from[i], forced, turns, work
                )
                if i == j:
                    # x = a + s (1 - x) with a = vx - s (1 - y) at the current policy
                    a = vx - sx * (1.0 - y)
                    nx = (a + sx) / (1.0 + sx)
                    ny = nx
                else:
                    py, spy = (
                        (1.0 - x, 1.0) if penalty_to[j] == j else (1.0 - previous[i, penalty_to[j]], 0.0)
                    )
                    vy, sy = solve_turn(
                        j, i, 1.0 - x, py, spy, values, size, ending, bank_from[j], forced, turns, work
                    )
                    ax = vx - sx * (1.0 - y)
                    ay = vy - sy * (1.0 - x)
                    nx = (ax + sx - sx * ay - sx * sy) / (1.0 - sx * sy)
                    ny = ay + sy * (1.0 - nx)
                done = abs(nx - x) < tol and abs(ny - y) < tol
                x = nx
                y = ny
                if done:
                    break
            moved = max(moved, abs(x - previous[i, j]), abs(y - previous[j, i]))
            values[i, j] = x
            values[j, i] = y
    return moved


@njit(cache=True, nogil=True)
def streak_order(
    i: int, j: int, penalty_to: IntArray, reset_to: IntArray, penalties: bool
) -> tuple[IntArray, bool]:
    """The states of banks i and j, numbered `side * 9 + a * 3 + b` (side 0: bank i to move, side 1: bank
    j; a and b the Farkles in a row of the player to move and the other), ordered so that each comes after
    the states of the same banks that a Farkle or a penalty roll leads to; and whether those lead round in
    a circle (only where both banks are at their floor), to be iterated.

    A Farkle below the third hands the turn over with one more Farkle in a row; the third, or a penalty
    roll, keeps the banks as they are only at the floor, where a bank can't fall.
    """
    count = 9 if i == j else 18
    depth = np.zeros(count, dtype=np.int64)
    for _ in range(count + 1):
        changed = False
        for state in range(count):
            side, a, b = state // 9, state // 3 % 3, state % 3
            p = j if side else i
            other = 0 if i == j else 9 * (1 - side)  # the state's successors: the other player to move
            deeper = 0
            if a < 2:
                deeper = depth[other + b * 3 + a + 1] + 1
            elif reset_to[p] == p:
                deeper = depth[other + b * 3] + 1
            if penalties and penalty_to[p] == p:
                deeper = max(deeper, depth[other + b * 3 + a] + 1)
            if deeper > depth[state]:
                depth[state] = min(deeper, count)
                changed = True
        if not changed:
            break
    return np.argsort(depth, kind="mergesort"), depth.max() >= count


@njit(cache=True, nogil=True)
def sweep_streaks(
    values: FloatArray,
    size: int,
    ending: FloatArray,
    bank_from: IntArray,
    forced: bool,
    penalty_to: IntArray,
    reset_to: IntArray,
    turns: Turns,
    tol: float,
) -> float:
    """One sweep where three Farkles in a row lower the bank (to `reset_to`): `values[a, b, i, j]`, a and
    b the Farkles in a row of the player to move and the other.

    The states of a pair of banks are solved together, each after those a Farkle leads to (`streak_order`;
    round again until still where they form a circle). A third Farkle or a penalty roll that lowers a bank
    is valued as the last sweep left it. Returns the largest change.
    """
    work = scratch(size, ending, turns)
    penalties = turns[2].max() > 0.0
    start = np.empty(18)
    moved = 0.0
    for total in range(2 * size - 2, -1, -1):
        for i in range(max(0, total - size + 1), total // 2 + 1):
            j = total - i
            order, circle = streak_order(i, j, penalty_to, reset_to, penalties)
            for state in order:
                side, a, b = state // 9, state // 3 % 3, state % 3
                start[state] = values[a, b, j, i] if side else values[a, b, i, j]
            for _ in range(PAIR_ROUNDS):
                still = True
                for state in order:
                    side, a, b = state // 9, state // 3 % 3, state % 3
                    p, q = (j, i) if side else (i, j)
                    farkled = 1.0 - (values[b, a + 1, q, p] if a < 2 else values[b, 0, q, reset_to[p]])
                    penalized = 1.0 - values[b, a, q, penalty_to[p]]
                    v, _ = solve_turn(
                        p, q, farkled, penalized, 0.0, values[b, 0], size, ending, bank_from[p], forced,
                        turns, work, False,
                    )  # fmt: skip
                    still = still and abs(v - values[a, b, p, q]) < tol
                    values[a, b, p, q] = v
                if still or not circle:
                    break
            for state in order:
                side, a, b = state // 9, state // 3 % 3, state % 3
                now = values[a, b, j, i] if side else values[a, b, i, j]
                moved = max(moved, abs(now - start[state]))
    return moved
