"""Each player's chance to win with any number of players: Monte Carlo playouts of whole turns.

The two-player win tables solve the game exactly; for three to six players (and rules without tables) this
module estimates the chance that each player wins if everyone plays as the `expert` computer from here:
each turn banks by the turn solver's expected-points policy, and a last chance to pass the leader (the
final round) plays for passing them. A turn is drawn whole from the distribution of what that policy
banks (`turn_outcomes`, laid out once per ruleset from its turn policies: `TurnDraws`), so a playout
costs a few NumPy steps per round, for all playouts at once.

The estimate is taken at the start of the turn being played: banks, Farkle streaks and who is owed a turn
do not change during a turn, so one estimate serves the whole turn (the board caches it per turn). The
playouts draw from a generator seeded by the position, so the same position always gives the same
figures. `PLAYOUTS` is chosen so that the estimate stays within ±2 percentage points of a long run of the
same playouts (tests/engine/test_multi.py: `bench/multi_chances.py` measures its cost).

Not modelled (`estimable` says no): teams, the last-loses and exact-target endings, piggyback offers (a
chaser in the final round takes the previous player's points: 19 percentage points off on the doubling
preset, measured against expert games), and a playoff in progress. A chaser who passes the leader banks
just past them.
"""

from __future__ import annotations

import heapq
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from bot.engine.game import Game
from bot.engine.policies import TurnPolicies
from bot.engine.rules import Ruleset
from bot.engine.solver import TurnPolicy, roll_outcomes, score_unit

PLAYOUTS = 6000
_MAX_ROUNDS = 400  # a guard: classic games end within ~40 rounds; leftovers go to the leader
_FARKLES_FOR_PENALTY = 3
_QUANTILES = 1 << 16  # turns are drawn from this many quantiles: each outcome's chance within 1/65,536
_NEGLIGIBLE = 1e-12  # turn states less likely than this are dropped from the turn's distribution

FloatArray = np.ndarray[Any, np.dtype[np.float64]]
IntArray = np.ndarray[Any, np.dtype[np.int64]]
BoolArray = np.ndarray[Any, np.dtype[np.bool_]]


def estimable(rules: Ruleset) -> bool:
    """Whether the playouts model these rules (one winner by highest bank, no teams, no piggyback)."""
    return not rules.teams and rules.end_rule == "highest" and rules.piggyback == "off"


@dataclass(frozen=True)
class TurnDraws:
    """What the playouts of one ruleset draw from: its turns on and off the board as tables of equally
    likely outcomes (quantiles: a turn is drawn with one index), and the chance of passing a leader by
    gap. Made from the rules' `TurnPolicies` by their owner, once, off the event loop (about a second)."""

    rules: Ruleset
    on_board: IntArray
    off_board: IntArray
    reach: FloatArray  # by gap in units, up to twice the target

    @classmethod
    def of(cls, policies: TurnPolicies, rules: Ruleset) -> TurnDraws:
        policies.serve(rules)
        top = 2 * rules.target // policies.reach.unit + 1
        return cls(
            rules,
            _quantiles(policies.on_board),
            _quantiles(policies.off_board),
            policies.reach.rolling_upto(top, 6),
        )


def turn_outcomes(policy: TurnPolicy) -> tuple[IntArray, FloatArray]:
    """`(points, cumulative)`: what a turn banks under the expected-points policy (0 = a Farkle, a negative
    number = a penalty roll) and the cumulative chances."""
    rules, on_board = policy.rules, policy.on_board
    unit = score_unit(rules)
    outcomes = {n: roll_outcomes(rules, n, unit, prune=True) for n in range(1, 7)}
    limit = None if on_board else rules.entry_roll_limit
    banked: dict[int, float] = {}
    # States (turn total in units, dice to roll, rolls done) by mass, swept in order of the turn total:
    # a keep always adds points, so every state is complete before it is swept.
    mass: dict[tuple[int, int, int], float] = {(0, 6, 0): 1.0}
    queue = [(0, 6, 0)]
    while queue:
        state = heapq.heappop(queue)
        total, dice, rolls = state
        p_state = mass.pop(state)
        groups, penalty = outcomes[dice]
        if penalty:
            banked[rules.penalty_roll or 0] = banked.get(rules.penalty_roll or 0, 0.0) + p_state * penalty / (
                rules.penalty_roll or 1
            )
        for p, keeps in groups:
            best = max(
                keeps, key=lambda keep: policy.after_keep((total + keep[0]) * unit, keep[1], rolls + 1)[0]
            )
            after = (total + best[0]) * unit
            bank = policy.after_keep(after, best[1], rolls + 1)[1]
            short = limit is not None and rolls + 1 >= limit and after < rules.entry_minimum
            if bank or short:  # short of the entry on the last roll it allows: the turn is lost
                gained = 0 if short else after
                banked[gained] = banked.get(gained, 0.0) + p_state * p
                continue
            nxt = (total + best[0], best[1] or 6, rolls + 1 if limit is not None else 0)
            if nxt not in mass:
                if p_state * p < _NEGLIGIBLE:
                    continue
                heapq.heappush(queue, nxt)
            mass[nxt] = mass.get(nxt, 0.0) + p_state * p
    kept = sum(banked.values())
    points = np.array(sorted(banked), dtype=np.int64)
    chances = np.array([banked[int(b)] for b in points])
    chances = np.append(chances, 1.0 - kept)  # the Farkles, last: drawn with the top of the range
    points = np.append(points, 0)
    return points, np.cumsum(chances) / np.sum(chances)


@dataclass(frozen=True)
class Position:
    """What the chances depend on, read off a game at once: the active players in turn order from the one
    to move (their banks, whether they are on the board, their Farkle streaks) and, in the final round,
    which of them are still owed a turn. Immutable, so another thread can estimate it while the game goes
    on, and hashable, so the board can cache the estimate of the position it shows."""

    rules: Ruleset
    players: tuple[str, ...]
    banks: tuple[int, ...]
    on_board: tuple[bool, ...]
    streaks: tuple[int, ...]
    owed: tuple[int, ...] | None  # columns owed a last turn, the mover first; None before the final round


def position(game: Game) -> Position | None:
    """The game's position as of the start of the turn being played; None where the playouts do not model
    it (`estimable`, a playoff) or it is over."""
    rules = game.rules
    mover = game.current_player
    if mover is None or game.phase == "over" or game.playoff or not estimable(rules):
        return None
    players = game.players
    start = next(seat for seat, p in enumerate(players) if p.id == mover)
    seats = [s for s in (*range(start, len(players)), *range(start)) if players[s].active]
    table = [players[s] for s in seats]
    owed = None
    if game.final_round:
        pending = game.state(events=False)["pending"]
        later = [int(s) for s in pending] if isinstance(pending, list) else []  # type: ignore[arg-type]
        owed = (0, *(seats.index(s) for s in later if s in seats))
    return Position(
        rules,
        tuple(p.id for p in table),
        tuple(p.bank for p in table),
        tuple(p.on_board for p in table),
        tuple(p.farkle_streak for p in table),
        owed,
    )


def estimate(at: Position, draws: TurnDraws, playouts: int = PLAYOUTS) -> dict[str, float]:
    """Each active player's chance to win from this position (the playouts seeded by it)."""
    if draws.rules != at.rules:
        raise ValueError(f"These turn draws are not for the {at.rules.name} rules.")
    seed = zlib.crc32(repr((at.rules.key(), at.banks, at.on_board, at.streaks, at.owed)).encode())
    wins = _play_out(
        draws,
        np.array(at.banks, dtype=np.int64),
        np.array(at.on_board),
        np.array(at.streaks, dtype=np.int64),
        list(at.owed) if at.owed is not None else None,
        np.random.default_rng(seed),
        playouts,
    )
    return {player: float(won) for player, won in zip(at.players, wins, strict=True)}


def chances(game: Game, draws: TurnDraws, playouts: int = PLAYOUTS) -> dict[str, float] | None:
    """`estimate` of the game's `position`; None where it has none."""
    at = position(game)
    return estimate(at, draws, playouts) if at is not None else None


def _play_out(
    draws: TurnDraws,
    banks: IntArray,
    on_board: BoolArray,
    streaks: IntArray,
    owed: list[int] | None,
    rng: np.random.Generator,
    playouts: int,
) -> FloatArray:
    """Each column's share of the wins over `playouts` games from these banks, column 0 to play."""
    rules = draws.rules
    count = len(banks)
    wins = np.zeros(count)
    bank = np.tile(banks, (playouts, 1))
    if owed is not None:  # the final round is on: the owed turns are all that is left
        order = np.tile(np.array(owed, dtype=np.int64), (playouts, 1))
        wins += _final_round(draws, bank, np.tile(on_board, (playouts, 1)), order, rng)
        return wins / playouts
    board = np.tile(on_board, (playouts, 1))
    streak = np.tile(streaks, (playouts, 1))
    on_turns, off_turns = draws.on_board, draws.off_board
    columns = np.arange(count)
    for _ in range(_MAX_ROUNDS):
        if not len(bank):
            break
        drawn = rng.integers(0, _QUANTILES, bank.shape, dtype=np.int32)
        points = on_turns[drawn] if board.all() else np.where(board, on_turns[drawn], off_turns[drawn])
        if rules.three_farkles != "none":
            streak = np.where(points == 0, streak + 1, 0)
            penalised = streak >= _FARKLES_FOR_PENALTY
            points = np.where(penalised, -1000 if rules.three_farkles == "minus_1000" else -bank, points)
            streak[penalised] = 0
        after = bank + points
        reached = after >= rules.target  # only a bank reaches it: below it before, so points > 0
        ends: BoolArray = np.any(reached, axis=1)
        if not ends.any():
            bank = after
            board |= points > 0
            continue
        first = np.argmax(reached, axis=1)
        played = ~ends[:, None] | (columns[None, :] <= first[:, None])  # nobody plays after the trigger
        bank = np.where(played, after, bank)
        board |= played & (points > 0)
        order = (first[ends, None] + columns[None, 1:]) % count  # everyone else, once, in turn order
        wins += _final_round(draws, bank[ends], board[ends], order, rng)
        bank, board, streak = bank[~ends], board[~ends], streak[~ends]
    if len(bank):  # past the guard: the leader takes it
        wins += np.bincount(np.argmax(bank, axis=1), minlength=count)
    return wins / playouts


def _final_round(
    draws: TurnDraws,
    bank: IntArray,
    board: BoolArray,
    order: IntArray,
    rng: np.random.Generator,
) -> FloatArray:
    """Wins per column once the target is reached: each owed turn (`order`, columns per game) plays for
    passing the leader (or tying them where ties share) and banks just enough; ties share the win."""
    rules, reach = draws.rules, draws.reach
    unit = score_unit(rules)
    tie = 0 if rules.tie_rule == "share" else 1
    rows = np.arange(len(bank))
    for step in range(order.shape[1]):
        column = order[:, step]
        mine = bank[rows, column]
        floor = np.where(
            board[rows, column], rules.bank_minimum, max(rules.bank_minimum, rules.entry_minimum)
        )
        need = np.maximum(bank.max(axis=1) + tie - mine, floor)
        gap = np.minimum(-(-need // unit), len(reach) - 1)
        passed = rng.random(len(bank)) < reach[gap]
        bank[rows, column] = np.where(passed, mine + gap * unit, mine)
    top = bank == bank.max(axis=1, keepdims=True)
    shares: FloatArray = (top / top.sum(axis=1, keepdims=True)).sum(axis=0)
    return shares


def _quantiles(policy: TurnPolicy) -> IntArray:
    """`turn_outcomes` as a table of equally likely turns: each outcome's chance within 1/65,536."""
    points, cumulative = turn_outcomes(policy)
    middles = (np.arange(_QUANTILES) + 0.5) / _QUANTILES
    drawn: IntArray = points[np.minimum(np.searchsorted(cumulative, middles), len(points) - 1)]
    return drawn
