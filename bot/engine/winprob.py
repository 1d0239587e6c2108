"""Two-player win probabilities: the chance the player to move wins, for every pair of banks.

`W[i, j]` is the chance that the player about to start a turn with bank `i` (in score units, 50 points
under every sheet) wins against an opponent with bank `j`. Inside a turn the value of each (turn total,
dice left) follows from `W` by backward induction, because a turn's total only grows. Banking moves the
game to a larger sum of banks, so states are solved from the largest sum down; only a Farkle leads to the
same sum (the mirrored state), so each mirrored pair is solved together: with the turn policies fixed both
values are linear in each other, and the pair is re-solved until the policies stop changing (2-3 rounds).

The end of the game, with two players:
- `last_loses`: the first to reach the target wins;
- `highest`: the other player gets one last turn to pass the new bank; their chance of doing so is the
  exact chase probability of one turn (`strategies._ReachTable`), a tie counting as half a win (a play-off
  or a shared win). Banks past the target matter up to `margin` points above it.

Modelled approximately, and said so: a piggyback offer the opponent may take after a bank is not part of
the bank's value (the player offered one still compares both choices exactly); while off the board under
an entry roll limit the limit is ignored (master then plays as expert). Three Farkles in a row that reset
the bank add the streaks to the state (`_solve_streaks`). Not modelled (no tables: master plays as
expert): the 1,000-point three-Farkle penalty, penalty rolls, the exact-target end, six 1s winning at once.

Speed: each turn solve is ~300 turn totals x ~600 keep look-ups, for ~40,000 bank pairs, two or three
times: 10^10 simple steps, which NumPy can't vectorise well (a max over each roll's keeps, on a different
slice for every state), so the kernels are compiled with Numba (nogil: a worker thread doesn't block).
"""

from __future__ import annotations

import hashlib
import json
import struct
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from bot.engine.messages import Message
from bot.engine.rules import Ruleset
from bot.engine.solver import _outcomes, _unit

_VERSION = 1
_MAGIC = b"FWT1"
DEFAULT_MARGIN = 3000
_PAIR_ROUNDS = 60

FloatArray = np.ndarray[Any, np.dtype[np.float64]]
IntArray = np.ndarray[Any, np.dtype[np.int64]]


def unsupported(rules: Ruleset) -> Message | None:
    """Why these rules have no win tables (master plays as expert), or None."""
    if rules.teams:
        return Message("teams")
    if rules.three_farkles == "minus_1000":
        return Message("the three-Farkle penalty of 1,000")
    if rules.three_farkles == "reset" and rules.entry_minimum:
        return Message("three-Farkle resets with an entry minimum")
    if rules.penalty_roll is not None:
        return Message("the penalty roll")
    if rules.end_rule == "exact":
        return Message("the exact-target end")
    if rules.six_ones_instant_win:
        return Message("six 1s winning at once")
    return None


def table_key(rules: Ruleset) -> str:
    """What the tables depend on: the turn (scoring and turn options) and the end of the game."""
    ending = json.dumps([rules.key(), rules.target, rules.end_rule, rules.tie_rule, rules.entry_minimum])
    return hashlib.sha256(ending.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class _Turns:
    """The rolls of 1-6 dice as flat arrays the kernels read (see `_turn`)."""

    dice: int
    farkle: FloatArray  # [n]: chance that n dice score nothing
    group_lo: IntArray  # [n]: first group of n-dice rolls
    group_hi: IntArray
    group_p: FloatArray  # [g]: chance of a roll of this group
    keep_lo: IntArray  # [g]: first keep of the group
    keep_hi: IntArray
    keep_units: IntArray  # [k]: units the keep adds
    keep_left: IntArray  # [k]: dice left after it (0 = hot dice)
    reach: int  # most units one keep adds


Grouped = list[tuple[float, tuple[tuple[int, int], ...]]]


def _turns(rules: Ruleset, unit: int) -> _Turns:
    return _turns_from([_outcomes(rules, n, unit, prune=True)[0] for n in range(1, 7)])


def _turns_from(by_dice: list[Grouped]) -> _Turns:
    """Flatten the rolls of 1..D dice: (chance, keeps as (units, dice left)) per group of rolls."""
    dice = len(by_dice)
    groups: Grouped = []
    lo, hi, farkle = [0] * (dice + 1), [0] * (dice + 1), [0.0] * (dice + 1)
    for n, outcomes in enumerate(by_dice, start=1):
        lo[n] = len(groups)
        groups.extend(outcomes)
        hi[n] = len(groups)
        farkle[n] = 1.0 - sum(p for p, _ in outcomes)
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
    return _Turns(
        dice,
        np.array(farkle),
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
class _Game:
    """Everything a turn solve needs besides the value table."""

    turns: _Turns
    size: int  # target in units: banks 0 .. size-1 are still playing
    beyond: int  # bank values past the target that differ (1 under last-loses)
    ending: FloatArray  # [opponent bank, bank - size]: value of banking past the target
    bank_from: IntArray  # [own bank]: the smallest turn total (units) that may be banked
    forced: bool  # hot dice must be rolled


def _game(rules: Ruleset, margin: int) -> _Game:
    unit = _unit(rules)
    size = -(-rules.target // unit)
    turns = _turns(rules, unit)
    entry, minimum = -(-rules.entry_minimum // unit), -(-rules.bank_minimum // unit)
    bank_from = np.full(size, max(minimum, 1), dtype=np.int64)
    if entry:
        bank_from[0] = max(entry, minimum, 1)  # a zero bank is off the board (banks only grow)
    if rules.end_rule == "last_loses":
        ending = np.ones((size, 1))
    else:
        from bot.engine.strategies import _reach_table  # strategies plays master: imported when solving

        reach = _reach_table(rules)
        beyond = -(-margin // unit)
        ending = np.empty((size, beyond))
        for j in range(size):
            floor = int(bank_from[j])
            for over in range(beyond):
                gap = size + over - j  # the opponent ties by gaining `gap`, passes by one unit more
                passes = reach.rolling(max(gap + 1, floor), 6)
                ties = reach.rolling(max(gap, floor), 6) - passes
                ending[j, over] = 1.0 - passes - 0.5 * ties
    return _Game(turns, size, ending.shape[1], ending, bank_from, rules.hot_dice == "forced")


@njit(cache=True, nogil=True)
def _turn(
    i: int,
    j: int,
    farkled: float,
    values: FloatArray,
    size: int,
    ending: FloatArray,
    bank_from: int,
    forced: bool,
    dice: int,
    farkle: FloatArray,
    group_lo: IntArray,
    group_hi: IntArray,
    group_p: FloatArray,
    keep_lo: IntArray,
    keep_hi: IntArray,
    keep_units: IntArray,
    keep_left: IntArray,
    reach: int,
    after: FloatArray,
    after_slope: FloatArray,
    rolling: FloatArray,
    rolling_slope: FloatArray,
) -> tuple[float, float]:
    """Solve the turn of a player with bank i against j, a Farkle being worth `farkled` to them.

    Fills `after[left, t]` (value once dice are kept: bank or roll on) and `rolling[n, t]` (value of
    rolling n dice at turn total t), with their slopes in `farkled`; returns the turn's value and slope.
    Past the last bank value that differs, a bank is worth that last value.
    """
    beyond = ending.shape[1]
    top = size + beyond - 1 - i  # largest turn total with its own bank value
    last = ending[j, beyond - 1]
    for t in range(top + reach, -1, -1):
        if t > top:
            for left in range(dice):
                after[left, t] = last
                after_slope[left, t] = 0.0
            continue
        for n in range(1, dice + 1):
            value = farkle[n] * farkled
            slope = farkle[n]
            for g in range(group_lo[n], group_hi[n]):
                best = -1.0
                best_slope = 0.0
                for k in range(keep_lo[g], keep_hi[g]):
                    c = after[keep_left[k], t + keep_units[k]]
                    if c > best:
                        best = c
                        best_slope = after_slope[keep_left[k], t + keep_units[k]]
                value += group_p[g] * best
                slope += group_p[g] * best_slope
            rolling[n, t] = value
            rolling_slope[n, t] = slope
        bank = i + t
        banked = 1.0 - values[j, bank] if bank < size else ending[j, bank - size]
        for left in range(dice):
            n = left if left else dice
            if t >= bank_from and (left or not forced) and banked >= rolling[n, t]:
                after[left, t] = banked
                after_slope[left, t] = 0.0
            else:
                after[left, t] = rolling[n, t]
                after_slope[left, t] = rolling_slope[n, t]
    return rolling[dice, 0], rolling_slope[dice, 0]


@njit(cache=True, nogil=True)
def _solve_all(
    values: FloatArray,
    size: int,
    ending: FloatArray,
    bank_from: IntArray,
    forced: bool,
    dice: int,
    farkle: FloatArray,
    group_lo: IntArray,
    group_hi: IntArray,
    group_p: FloatArray,
    keep_lo: IntArray,
    keep_hi: IntArray,
    keep_units: IntArray,
    keep_left: IntArray,
    reach: int,
    tol: float,
) -> int:
    """Fill `values` from the largest sum of banks down; returns the most rounds a pair needed."""
    width = size + ending.shape[1] + reach + 1
    after = np.zeros((dice, width))
    after_slope = np.zeros((dice, width))
    rolling = np.zeros((dice + 1, width))
    rolling_slope = np.zeros((dice + 1, width))
    most = 0
    for total in range(2 * size - 2, -1, -1):
        for i in range(max(0, total - size + 1), total // 2 + 1):
            j = total - i
            # start from the neighbours one bank unit up (solved): usually the same policies
            x = values[i, j + 1] if j + 1 < size else 0.5
            y = values[j, i + 1] if i + 1 < size else 0.5
            for rounds in range(1, _PAIR_ROUNDS + 1):
                most = max(most, rounds)
                vx, sx = _turn(i, j, 1.0 - y, values, size, ending, bank_from[i], forced, dice, farkle,
                               group_lo, group_hi, group_p, keep_lo, keep_hi, keep_units, keep_left, reach,
                               after, after_slope, rolling, rolling_slope)  # fmt: skip
                if i == j:
                    # x = a + s (1 - x) with a = vx - s (1 - y) at the current policy
                    a = vx - sx * (1.0 - y)
                    nx = (a + sx) / (1.0 + sx)
                    ny = nx
                else:
                    vy, sy = _turn(j, i, 1.0 - x, values, size, ending, bank_from[j], forced, dice, farkle,
                                   group_lo, group_hi, group_p, keep_lo, keep_hi, keep_units, keep_left,
                                   reach, after, after_slope, rolling, rolling_slope)  # fmt: skip
                    ax = vx - sx * (1.0 - y)
                    ay = vy - sy * (1.0 - x)
                    nx = (ax + sx - sx * ay - sx * sy) / (1.0 - sx * sy)
                    ny = ay + sy * (1.0 - nx)
                done = abs(nx - x) < tol and abs(ny - y) < tol
                x = nx
                y = ny
                if done:
                    break
            values[i, j] = x
            values[j, i] = y
    return most


@njit(cache=True, nogil=True)
def _solve_streaks(
    values: FloatArray,
    size: int,
    ending: FloatArray,
    bank_from: IntArray,
    forced: bool,
    dice: int,
    farkle: FloatArray,
    group_lo: IntArray,
    group_hi: IntArray,
    group_p: FloatArray,
    keep_lo: IntArray,
    keep_hi: IntArray,
    keep_units: IntArray,
    keep_left: IntArray,
    reach: int,
    tol: float,
) -> int:
    """Three Farkles in a row reset the bank: `values[a, b, i, j]` with a, b the Farkles in a row.

    A Farkle below the third raises a streak (same sum of banks, larger sum of streaks: solved first);
    the third resets the bank to a smaller sum, valued from the previous sweep: sweeps repeat until no
    value moves by `tol`. Returns the number of sweeps.
    """
    width = size + ending.shape[1] + reach + 1
    after = np.zeros((dice, width))
    after_slope = np.zeros((dice, width))
    rolling = np.zeros((dice + 1, width))
    rolling_slope = np.zeros((dice + 1, width))
    sweeps = 0
    while True:
        sweeps += 1
        moved = 0.0
        for total in range(2 * size - 2, -1, -1):
            for streaks in range(4, -1, -1):
                for i in range(max(0, total - size + 1), min(total, size - 1) + 1):
                    j = total - i
                    for a in range(max(0, streaks - 2), min(streaks, 2) + 1):
                        b = streaks - a
                        farkled = 1.0 - (values[b, a + 1, j, i] if a < 2 else values[b, 0, j, 0])
                        v, _ = _turn(i, j, farkled, values[b, 0], size, ending, bank_from[i], forced,
                                     dice, farkle, group_lo, group_hi, group_p, keep_lo, keep_hi,
                                     keep_units, keep_left, reach, after, after_slope, rolling,
                                     rolling_slope)  # fmt: skip
                        moved = max(moved, abs(v - values[a, b, i, j]))
                        values[a, b, i, j] = v
        if moved < tol:
            return sweeps


class WinTables:
    """Solved win probabilities for one ruleset, and the turn values they imply."""

    def __init__(self, rules: Ruleset, margin: int, values: FloatArray) -> None:
        self.rules = rules
        self.margin = margin
        self.key = table_key(rules)
        self._values = values
        self._game = _game(rules, margin)
        self.unit = _unit(rules)

    @property
    def size(self) -> int:
        """Banks below this many units are still in play."""
        return self._game.size

    @property
    def first_player_win(self) -> float:
        """The chance the first player wins when both play these tables."""
        return float(self._values[0, 0, 0, 0])

    def value(self, bank: int, other: int, mine: int = 0, theirs: int = 0) -> float:
        """Chance the player about to start a turn with `bank` points wins against `other` points
        (`mine`, `theirs`: Farkles in a row, where three of them reset a bank)."""
        return float(
            self._values[self._streak(mine), self._streak(theirs), bank // self.unit, other // self.unit]
        )

    def turn(self, bank: int, other: int, mine: int = 0, theirs: int = 0) -> TurnValues:
        """Values inside the turn of a player with `bank` against `other` (points, below the target)."""
        game, turns = self._game, self._game.turns
        i, j = bank // self.unit, other // self.unit
        mine, theirs = self._streak(mine), self._streak(theirs)
        if self._values.shape[0] == 1:
            farkled = 1.0 - float(self._values[0, 0, j, i])
        elif mine < 2:
            farkled = 1.0 - float(self._values[theirs, mine + 1, j, i])
        else:
            farkled = 1.0 - float(self._values[theirs, 0, j, 0])
        width = game.size + game.beyond + turns.reach + 1
        after = np.zeros((turns.dice, width))
        rolling = np.zeros((turns.dice + 1, width))
        _turn(i, j, farkled, self._values[theirs, 0], game.size, game.ending,
              int(game.bank_from[i]), game.forced, turns.dice, turns.farkle, turns.group_lo, turns.group_hi,
              turns.group_p, turns.keep_lo, turns.keep_hi, turns.keep_units, turns.keep_left, turns.reach,
              after, np.zeros_like(after), rolling, np.zeros_like(rolling))  # fmt: skip
        top = game.size + game.beyond - 1 - i
        return TurnValues(self, i, j, theirs, after, rolling, top)

    def bank_value(self, bank: int, other: int, turn_total: int, theirs: int = 0) -> float:
        """Chance to win after banking `turn_total` now (a bank ends one's own Farkle streak)."""
        game = self._game
        s, j = (bank + turn_total) // self.unit, other // self.unit
        if s < game.size:
            return 1.0 - float(self._values[self._streak(theirs), 0, j, s])
        return float(game.ending[j, min(s - game.size, game.beyond - 1)])

    def _streak(self, farkles: int) -> int:
        return min(farkles, int(self._values.shape[0]) - 1)

    def to_bytes(self) -> bytes:
        """Compact: the turn-start values as float32 (turns are recomputed from them), compressed."""
        header = json.dumps(
            {"version": _VERSION, "rules": self.rules.model_dump(mode="json"), "margin": self.margin}
        ).encode()
        body = zlib.compress(self._values.astype(np.float32).tobytes(), 6)
        return _MAGIC + struct.pack("<I", len(header)) + header + body

    @classmethod
    def from_bytes(cls, data: bytes) -> WinTables:
        """Tables saved by `to_bytes`; anything else (other version, damage) is a `ValueError`."""
        if not data.startswith(_MAGIC):
            raise ValueError("These are not win tables.")
        try:
            (length,) = struct.unpack_from("<I", data, len(_MAGIC))
            start = len(_MAGIC) + 4
            header = json.loads(data[start : start + length])
            version, margin = header.get("version"), int(header["margin"])
            rules = Ruleset.model_validate(header["rules"])
            raw = np.frombuffer(zlib.decompress(data[start + length :]), dtype=np.float32)
        except (struct.error, zlib.error, KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"These win tables are damaged ({error}).") from error
        if version != _VERSION:
            raise ValueError("These win tables were made by another solver version; solve again.")
        size, streaks = -(-rules.target // _unit(rules)), _streaks(rules)
        if raw.size != streaks * streaks * size * size:
            raise ValueError("These win tables are damaged (wrong size).")
        return cls(rules, margin, raw.reshape(streaks, streaks, size, size).astype(np.float64))


@dataclass(frozen=True)
class TurnValues:
    """One state's turn: the chance to win from each (turn total, dice left), in points."""

    tables: WinTables
    i: int
    j: int
    theirs: int
    _after: FloatArray
    _rolling: FloatArray
    _top: int

    def rolling(self, turn_total: int, dice: int) -> float:
        """Chance to win when rolling `dice` dice (0 = six) at `turn_total`, playing on optimally."""
        t = min(turn_total // self.tables.unit, self._top)
        return float(self._rolling[dice or 6, t])

    def bank(self, turn_total: int) -> float:
        unit = self.tables.unit
        return self.tables.bank_value(self.i * unit, self.j * unit, turn_total, self.theirs)


def solve_winprob(rules: Ruleset, margin: int = DEFAULT_MARGIN, tol: float = 1e-9) -> WinTables:
    """Solve these rules' two-player win probabilities (CPU-bound: seconds to minutes; no GIL held)."""
    reason = unsupported(rules)
    if reason is not None:
        raise ValueError(f"Win tables don't model {reason}.")
    return WinTables(rules, margin, _solve_game(_game(rules, margin), tol, _streaks(rules)))


def _streaks(rules: Ruleset) -> int:
    """Farkles in a row the tables tell apart: 0-2 when the third resets the bank, else none."""
    return 3 if rules.three_farkles == "reset" else 1


def _solve_game(game: _Game, tol: float, streaks: int = 1) -> FloatArray:
    """`values[a, b, i, j]`: the turn-start chances, by Farkles in a row (a, b) and banks (i, j)."""
    turns = game.turns
    values = np.zeros((streaks, streaks, game.size, game.size))
    solve = _solve_all if streaks == 1 else _solve_streaks
    table = values[0, 0] if streaks == 1 else values
    solve(table, game.size, game.ending, game.bank_from, game.forced, turns.dice, turns.farkle,
          turns.group_lo, turns.group_hi, turns.group_p, turns.keep_lo, turns.keep_hi, turns.keep_units,
          turns.keep_left, turns.reach, tol)  # fmt: skip
    return values


_ADOPTED: dict[str, WinTables] = {}


def adopt(tables: WinTables) -> None:
    """Use these tables for their rules from now on (solved in a worker, or loaded from the database)."""
    _ADOPTED[tables.key] = tables


def tables_for(rules: Ruleset) -> WinTables | None:
    return _ADOPTED.get(table_key(rules))


def forget(rules: Ruleset | None = None) -> None:
    """Drop adopted tables (all, or these rules'): tests start from a bot that has none."""
    if rules is None:
        _ADOPTED.clear()
    else:
        _ADOPTED.pop(table_key(rules), None)
