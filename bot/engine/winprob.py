"""Two-player win probabilities: the chance the player to move wins, for every pair of banks.

`values[a, b, i, j]` is the chance that the player about to start a turn with bank `i` (an index: banks
in score units, 50 points under every sheet, shifted by `offset` where banks can fall below 0) wins
against an opponent with bank `j`, with `a` and `b` Farkles in a row where a third one lowers a bank
(otherwise a single streak). Inside a turn the value of each (turn total, dice left) follows from these by
backward induction (`winkernels`).

The end of the game, with two players:
- `last_loses`: the first to reach the target wins;
- `highest`: the other player gets one last turn to pass the new bank; their chance of doing so is the
  exact chase probability of one turn (`strategies._ReachTable`), a tie counting as half a win (a play-off
  or a shared win). Banks past the target matter up to `margin` points above it;
- `exact`: a bank stops at the target and the points over it go to the other player, who then gets one
  last turn to reach the target too (a tie, half a win: nobody can pass it).

Modelled: an entry minimum and bank minimum, forced hot dice, three Farkles in a row that reset the bank
or cost 1,000 (banks down to -`NEGATIVE_FLOOR` kept apart, lower ones counted there, as Busche 2016), the
penalty roll, six 1s winning at once. Approximately, and said so: a piggyback offer the opponent may take
after a bank is not part of the bank's value (the player offered one still compares both choices
exactly); while off the board under an entry roll limit the limit is ignored (master then plays as
expert). Not modelled (no tables, master plays as expert): teams, and an entry minimum where a bank can
fall back to 0 (a bank of 0 would then be on or off the board).
"""

from __future__ import annotations

import hashlib
import json
import struct
import zlib
from dataclasses import dataclass

import numpy as np

from bot.engine import winkernels
from bot.engine.messages import Message
from bot.engine.rules import Ruleset
from bot.engine.scoring import PENALTY_DICE, SIX_ONES, outcome_count
from bot.engine.solver import _outcomes, _unit
from bot.engine.winkernels import FloatArray, IntArray, Turns

_VERSION = 1
_MAGIC = b"FWT1"
DEFAULT_MARGIN = 3000
NEGATIVE_FLOOR = 2500
_FARKLE_PENALTY = 1000


def unsupported(rules: Ruleset) -> Message | None:
    """Why these rules have no win tables (master plays as expert), or None."""
    if rules.teams:
        return Message("teams")
    if rules.entry_minimum and (rules.three_farkles != "none" or rules.penalty_roll is not None):
        return Message("an entry minimum with banks that can fall back")
    return None


def table_key(rules: Ruleset) -> str:
    """What the tables depend on: the turn (scoring and turn options) and the end of the game."""
    ending = json.dumps([rules.key(), rules.target, rules.end_rule, rules.tie_rule, rules.entry_minimum])
    return hashlib.sha256(ending.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class _Turns:
    """The rolls of 1-6 dice as flat arrays the kernels read (see `winkernels.solve_turn`)."""

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

    def kernel_args(self) -> Turns:
        return (
            self.dice, self.farkle, self.penalty, self.instant, self.group_lo, self.group_hi, self.group_p,
            self.keep_lo, self.keep_hi, self.keep_units, self.keep_left, self.reach,
        )  # fmt: skip


Grouped = list[tuple[float, tuple[tuple[int, int], ...]]]


def _turns(rules: Ruleset, unit: int) -> _Turns:
    by_dice = [_outcomes(rules, n, unit, prune=True, apart=True)[0] for n in range(1, 7)]
    penalty = [0.0] * 7
    instant = [0.0] * 7
    if rules.penalty_roll is not None:
        penalty[6] = outcome_count(PENALTY_DICE) / 6**6
    if rules.six_ones_instant_win:
        instant[6] = outcome_count(SIX_ONES) / 6**6
    return _turns_from(by_dice, penalty, instant)


def _turns_from(
    by_dice: list[Grouped], penalty: list[float] | None = None, instant: list[float] | None = None
) -> _Turns:
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
    return _Turns(
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
class _Game:
    """Everything a solve needs besides the value table; banks are indices (bank units + `offset`)."""

    turns: _Turns
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


def _banks(rules: Ruleset) -> tuple[int, int]:
    """(index of a bank of 0, indices in play): below 0 only where three Farkles cost 1,000."""
    unit = _unit(rules)
    offset = -(-NEGATIVE_FLOOR // unit) if rules.three_farkles == "minus_1000" else 0
    return offset, offset + -(-rules.target // unit)


def _game(rules: Ruleset, margin: int) -> _Game:
    unit = _unit(rules)
    offset, size = _banks(rules)
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
    return _Game(_turns(rules, unit), size, ending, bank_from, forced, penalty_to, reset_to, offset)


def _ending(
    rules: Ruleset, margin: int, unit: int, size: int, offset: int, bank_from: IntArray
) -> FloatArray:
    """`[j, over]`: the chance to win after banking `over` units past the target against bank index j."""
    if rules.end_rule == "last_loses":
        return np.ones((size, 1))
    from bot.engine.strategies import _reach_table  # strategies plays master: imported when solving

    reach = _reach_table(rules)
    target = size - offset
    exact = rules.end_rule == "exact"
    beyond = size + 1 if exact else -(-margin // unit)
    ending = np.empty((size, beyond))
    for j in range(size):
        floor = int(bank_from[j])
        for over in range(beyond):
            if exact:  # the points over go to the opponent, who may then tie by reaching the target
                gap = target - (j - offset) - over
                ending[j, over] = 0.5 if gap <= 0 else 1.0 - 0.5 * reach.rolling(max(gap, floor), 6)
                continue
            gap = size + over - j  # the opponent ties by gaining `gap`, passes by one unit more
            passes = reach.rolling(max(gap + 1, floor), 6)
            ties = reach.rolling(max(gap, floor), 6) - passes
            ending[j, over] = 1.0 - passes - 0.5 * ties
    return ending


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
    def first_player_win(self) -> float:
        """The chance the first player wins when both play these tables."""
        start = self._game.offset
        return float(self._values[0, 0, start, start])

    def covers(self, bank: int) -> bool:
        """Whether a bank (points) is a state of the tables: on the grid, under the target, not too low."""
        return bank % self.unit == 0 and 0 <= self._index(bank) < self._game.size

    def value(self, bank: int, other: int, mine: int = 0, theirs: int = 0) -> float:
        """Chance the player about to start a turn with `bank` points wins against `other` points
        (`mine`, `theirs`: Farkles in a row, where three of them lower a bank)."""
        a, b = self._streak(mine), self._streak(theirs)
        return float(self._values[a, b, self._index(bank), self._index(other)])

    def turn(self, bank: int, other: int, mine: int = 0, theirs: int = 0) -> TurnValues:
        """Values inside the turn of a player with `bank` against `other` (points, below the target)."""
        game, turns, values = self._game, self._game.turns, self._values
        i, j = self._index(bank), self._index(other)
        a, b = self._streak(mine), self._streak(theirs)
        if values.shape[0] == 1:
            farkled = 1.0 - float(values[0, 0, j, i])
        elif a < 2:
            farkled = 1.0 - float(values[b, a + 1, j, i])
        else:
            farkled = 1.0 - float(values[b, 0, j, self._game.reset_to[i]])
        penalized = 1.0 - float(values[b, a, j, self._game.penalty_to[i]])
        after, after_slope, rolling, rolling_slope = winkernels.scratch(
            game.size, game.ending, turns.kernel_args()
        )
        winkernels.solve_turn(i, j, farkled, penalized, 0.0, values[b, 0], game.size, game.ending,
                              int(game.bank_from[i]), game.forced, turns.kernel_args(), after, after_slope,
                              rolling, rolling_slope)  # fmt: skip
        top = game.size + winkernels.distinct(game.ending, j) - 1 - i
        return TurnValues(self, bank, other, theirs, rolling, top)

    def bank_value(self, bank: int, other: int, turn_total: int, theirs: int = 0) -> float:
        """Chance to win after banking `turn_total` now (a bank ends one's own Farkle streak)."""
        game = self._game
        s, j = self._index(bank + turn_total), self._index(other)
        if s < game.size:
            return 1.0 - float(self._values[self._streak(theirs), 0, j, s])
        return float(game.ending[j, min(s - game.size, game.beyond - 1)])

    def _index(self, bank: int) -> int:
        return bank // self.unit + self._game.offset

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
        size, streaks = _banks(rules)[1], _streaks(rules)
        if raw.size != streaks * streaks * size * size:
            raise ValueError("These win tables are damaged (wrong size).")
        return cls(rules, margin, raw.reshape(streaks, streaks, size, size).astype(np.float64))


@dataclass(frozen=True)
class TurnValues:
    """One state's turn: the chance to win from each (turn total, dice left), in points."""

    tables: WinTables
    own: int  # banks in points
    other: int
    theirs: int
    _rolling: FloatArray
    _top: int

    def rolling(self, turn_total: int, dice: int) -> float:
        """Chance to win when rolling `dice` dice (0 = six) at `turn_total`, playing on optimally."""
        t = min(turn_total // self.tables.unit, self._top)
        return float(self._rolling[dice or 6, t])

    def bank(self, turn_total: int) -> float:
        return self.tables.bank_value(self.own, self.other, turn_total, self.theirs)


def solve_winprob(rules: Ruleset, margin: int = DEFAULT_MARGIN, tol: float = 1e-8) -> WinTables:
    """Solve these rules' two-player win probabilities (CPU-bound: seconds to minutes; no GIL held).

    `tol` is finer than the float32 the tables are stored in."""
    reason = unsupported(rules)
    if reason is not None:
        raise ValueError(f"Win tables don't model {reason}.")
    return WinTables(rules, margin, _solve_game(_game(rules, margin), tol, _streaks(rules)))


def _streaks(rules: Ruleset) -> int:
    """Farkles in a row the tables tell apart: 0-2 when the third lowers the bank, else none."""
    return 1 if rules.three_farkles == "none" else 3


def _solve_game(game: _Game, tol: float, streaks: int = 1) -> FloatArray:
    """`values[a, b, i, j]`: the turn-start chances, by Farkles in a row (a, b) and banks (i, j).

    Where a rare event lowers a bank, sweeps repeat until no value moves by `tol`. With Farkle streaks
    the first sweep starts from the game without them (two sweeps fewer than from even chances).
    """
    values = np.full((streaks, streaks, game.size, game.size), 0.5)
    if streaks > 1:
        values[:, :] = _solve_game(game, tol)[0, 0]
    size, ending, bank_from, forced = game.size, game.ending, game.bank_from, game.forced
    penalty_to, reset_to = game.penalty_to, game.reset_to
    turns = game.turns.kernel_args()
    first = True
    while True:
        if streaks == 1:
            moved = winkernels.sweep_pairs(
                values[0, 0], size, ending, bank_from, forced, penalty_to, turns, tol, first
            )
        else:
            moved = winkernels.sweep_streaks(
                values, size, ending, bank_from, forced, penalty_to, reset_to, turns
            )
        first = False
        if moved < tol or (streaks == 1 and not game.turns.penalty.any()):
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
