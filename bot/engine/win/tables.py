"""Two-player win probabilities: the chance the player to move wins, for every pair of banks.

`values[a, b, i, j]` is the chance that the player about to start a turn with bank `i` (an index: banks
in score units, 50 points under every sheet, shifted by `offset` where banks can fall below 0) wins
against an opponent with bank `j`, with `a` and `b` Farkles in a row where a third one lowers a bank
(otherwise a single streak). Inside a turn the value of each (turn total, dice left) follows from these by
backward induction (`winturn` here, `winkernels` compiled for the solver in `winsolve`).

The end of the game, with two players:
- `last_loses`: the first to reach the target wins;
- `highest`: the other player gets one last turn to pass the new bank; their chance of doing so is the
  exact chase probability of one turn (`reach.ReachTable`), a tie counting as half a win (a play-off
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
import math
import struct
import threading
import zlib
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

import numpy as np

from bot.engine.messages import Message
from bot.engine.reach import ReachTable
from bot.engine.rules import Ruleset
from bot.engine.solver import score_unit
from bot.engine.win.game import Chances, WinGame, bank_indices, streak_count, win_game
from bot.engine.win.turn import TurnSolver

_VERSION = 1
_MAGIC = b"FWT1"
_ALIGN = 16  # a raw body starts at a multiple of this, so its float32 values are read in place
DEFAULT_MARGIN = 3000
# Solved turns kept per ruleset, as float32 (the precision of the tables they are solved from). More than
# the two-player games in play at once: their rolls interleave, and once the games outnumber the least
# recently used turns kept, every roll in each of them solves its turn again (1-2 ms).
RECENT_TURNS = 512
# A kept turn holds its values up to this turn total (units: 2,400 points under every sheet), 1.5 KB
# instead of up to 6.6 KB for the whole turn: a restarted bot's games each keep a turn of their own. A turn
# that runs past it reads the whole turn, solved again and kept among the few `LONG_TURNS`.
KEPT_TOTALS = 48
LONG_TURNS = 16


def unsupported(rules: Ruleset) -> Message | None:
    """Why these rules have no win tables (master plays as expert), or None."""
    if rules.teams:
        return Message("teams")
    if rules.entry_minimum and (rules.three_farkles != "none" or rules.penalty_roll is not None):
        return Message("an entry minimum with banks that can fall back")
    return None


@lru_cache(maxsize=256)
def table_key(rules: Ruleset) -> str:
    """What the tables depend on: the turn (scoring and turn options) and the end of the game.

    Kept per ruleset: every board drawn with live chances asks it three times (a JSON text and a sha256
    each, 25 µs; the ruleset's hash is 3 µs)."""
    ending = json.dumps([rules.key(), rules.target, rules.end_rule, rules.tie_rule, rules.entry_minimum])
    return hashlib.sha256(ending.encode()).hexdigest()[:32]


class WinTables:
    """Solved win probabilities for one ruleset, and the turn values they imply."""

    def __init__(self, rules: Ruleset, margin: int, values: Chances) -> None:
        self.rules = rules
        self.margin = margin
        self.key = table_key(rules)
        self._values = values
        self._size = int(values.shape[2])  # banks in play, from the values themselves
        self._laid_out: tuple[WinGame, TurnSolver] | None = None
        self._laying_out = threading.Lock()
        self._recent_turns = lru_cache(maxsize=RECENT_TURNS)(self._solve_turn)
        self._long_turns = lru_cache(maxsize=LONG_TURNS)(self._solve_whole_turn)

    @cached_property
    def unit(self) -> int:
        """The points a bank index steps by, read when a game of these rules is first valued: it needs
        the ruleset's scoring tables (about 120 KB), and most presets loaded at start-up are never played."""
        return score_unit(self.rules)

    @cached_property
    def reach(self) -> ReachTable:
        """The chase of a leader under these rules (a last chance, where the tables' values stop)."""
        return ReachTable(self.rules)

    @cached_property
    def _offset(self) -> int:
        """The index of a bank of 0 (banks can fall below 0 under some rules), with the unit."""
        offset, size = bank_indices(self.rules)
        if size != self._size:
            raise ValueError("These win tables are damaged (wrong size for their rules).")
        return offset

    def _layout(self) -> tuple[WinGame, TurnSolver]:
        """The rolls, banks and ending the values are read with, laid out at the first turn or bank asked
        (10-40 ms, up to 1 MB a ruleset): every preset's tables load at start-up, few are played."""
        laid_out = self._laid_out
        if laid_out is not None:  # every later call: no lock on the way of each decision
            return laid_out
        with self._laying_out:  # the Hint on the event loop and a review on a worker may both ask first
            if self._laid_out is None:
                game = win_game(self.rules, self.margin)
                self._laid_out = game, TurnSolver(game)
            return self._laid_out

    @property
    def first_player_win(self) -> float:
        """The chance the first player wins when both play these tables."""
        return float(self._values[0, 0, self._offset, self._offset])

    def covers(self, bank: int) -> bool:
        """Whether a bank (points) is a state of the tables: on the grid, under the target, not too low."""
        return bank % self.unit == 0 and 0 <= self._index(bank) < self._size

    def value(self, bank: int, other: int, mine: int = 0, theirs: int = 0) -> float:
        """Chance the player about to start a turn with `bank` points wins against `other` points
        (`mine`, `theirs`: Farkles in a row, where three of them lower a bank)."""
        a, b = self._streak(mine), self._streak(theirs)
        return float(self._values[a, b, self._index(bank), self._index(other)])

    def turn(self, bank: int, other: int, mine: int = 0, theirs: int = 0) -> TurnValues:
        """Values inside the turn of a player with `bank` against `other` (points, below the target).

        A turn solve takes a millisecond or two: the recent ones are kept, so every later choice of the
        same turn (and the Hint's) reads them.
        """
        return self._recent_turns(bank, other, mine, theirs)

    def _solve_turn(self, bank: int, other: int, mine: int, theirs: int) -> TurnValues:
        whole = self._solve_whole_turn(bank, other, mine, theirs)
        return replace(whole, _rolling=whole._rolling[:KEPT_TOTALS].copy())

    def long_turn(self, bank: int, other: int, mine: int, theirs: int) -> TurnValues:
        """The whole turn, for a turn total past the kept ones (`TurnValues.rolling`)."""
        return self._long_turns(bank, other, mine, theirs)

    def _solve_whole_turn(self, bank: int, other: int, mine: int, theirs: int) -> TurnValues:
        values = self._values
        game, turns = self._layout()
        i, j = self._index(bank), self._index(other)
        a, b = self._streak(mine), self._streak(theirs)
        if values.shape[0] == 1:
            farkled = 1.0 - float(values[0, 0, j, i])
        elif a < 2:
            farkled = 1.0 - float(values[b, a + 1, j, i])
        else:
            farkled = 1.0 - float(values[b, 0, j, game.reset_to[i]])
        penalized = 1.0 - float(values[b, a, j, game.penalty_to[i]])
        rolling, top = turns.rolling(i, j, farkled, penalized, values[b, 0])
        return TurnValues(self, bank, other, mine, theirs, rolling.astype(np.float32), top)

    def bank_value(self, bank: int, other: int, turn_total: int, theirs: int = 0) -> float:
        """Chance to win after banking `turn_total` now (a bank ends one's own Farkle streak)."""
        game, _ = self._layout()
        s, j = self._index(bank + turn_total), self._index(other)
        if s < game.size:
            return 1.0 - float(self._values[self._streak(theirs), 0, j, s])
        return float(game.ending[j, min(s - game.size, game.beyond - 1)])

    def _index(self, bank: int) -> int:
        return bank // self.unit + self._offset

    def _streak(self, farkles: int) -> int:
        return min(farkles, int(self._values.shape[0]) - 1)

    def to_bytes(self, *, compress: bool = True) -> bytes:
        """Compact: the turn-start values as float32 (turns are recomputed from them), compressed for the
        database; raw for the tables shipped in the package, which are read in place (`from_bytes`)."""
        fields = {"version": _VERSION, "rules": self.rules.model_dump(mode="json"), "margin": self.margin}
        header = json.dumps(fields | ({} if compress else {"body": "raw"})).encode()
        values = self._values.astype(np.float32).tobytes()
        if compress:
            return _MAGIC + struct.pack("<I", len(header)) + header + zlib.compress(values, 6)
        header += b" " * (-(len(_MAGIC) + 4 + len(header)) % _ALIGN)
        return _MAGIC + struct.pack("<I", len(header)) + header + values

    @classmethod
    def from_bytes(cls, data: bytes | memoryview) -> WinTables:
        """Tables saved by `to_bytes`; anything else (other version, damage) is a `ValueError`.

        A raw body is not copied: given a memory-mapped file, the values stay in the page cache, read
        only where a game looks (and shared by every shard process on the host).
        """
        if bytes(data[: len(_MAGIC)]) != _MAGIC:
            raise ValueError("These are not win tables.")
        try:
            (length,) = struct.unpack_from("<I", data, len(_MAGIC))
            start = len(_MAGIC) + 4
            header = json.loads(bytes(data[start : start + length]))
            version, margin = header.get("version"), int(header["margin"])
            rules = Ruleset.model_validate(header["rules"])
            if header.get("body") == "raw":
                raw = np.frombuffer(data, dtype=np.float32, offset=start + length)
            else:
                raw = np.frombuffer(zlib.decompress(data[start + length :]), dtype=np.float32)
        except (struct.error, zlib.error, KeyError, TypeError, AttributeError, ValueError) as error:
            raise ValueError(f"These win tables are damaged ({error}).") from error
        if version != _VERSION:
            raise ValueError("These win tables were made by another solver version; solve again.")
        # The banks in play are checked against the rules when a game first reads them (`_offset`): the
        # rules' bank grid needs their scoring tables, built only for rules someone plays.
        streaks = streak_count(rules)
        size = math.isqrt(raw.size // (streaks * streaks))
        if raw.size != streaks * streaks * size * size:
            raise ValueError("These win tables are damaged (wrong size).")
        return cls(rules, margin, raw.reshape(streaks, streaks, size, size))  # float32: half the memory


@dataclass(frozen=True)
class TurnValues:
    """One state's turn: the chance to win from each (turn total, dice left), in points."""

    tables: WinTables
    own: int  # banks in points
    other: int
    mine: int  # Farkles in a row
    theirs: int
    _rolling: Chances  # float32, as kept: the turn totals from 0 (all of them, or the first `KEPT_TOTALS`)
    _top: int

    def rolling(self, turn_total: int, dice: int) -> float:
        """Chance to win when rolling `dice` dice (0 = six) at `turn_total`, playing on optimally."""
        t = min(turn_total // self.tables.unit, self._top)
        if t >= len(self._rolling):
            whole = self.tables.long_turn(self.own, self.other, self.mine, self.theirs)
            return whole.rolling(turn_total, dice)
        return float(self._rolling[t, dice % 6])

    def bank(self, turn_total: int) -> float:
        return self.tables.bank_value(self.own, self.other, turn_total, self.theirs)
