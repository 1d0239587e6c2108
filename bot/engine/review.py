"""Game review: every decision of a finished game valued against the best one, and live win chances.

A decision is a moment a player had a real choice (keeps, bank or roll on, take a piggyback offer).
Each legal move is valued in one measure for the whole game:
- `win`: the chance to win the game (two sides, win tables for the rules): `winprob`'s turn values, and on
  a last chance to pass the leader (final round, playoff) the exact chance of passing them, which is then
  the chance to win;
- `turn`: the expected final points of the turn by the turn solver (more sides, or no tables yet). A last
  chance to pass a leader is not about points, so those decisions are left out of this measure.
A decision's loss is best − played; its available value is best − worst (what the choice could change).
A player's accuracy is 1 − Σ loss / Σ available over their decisions: the share of the available value
they kept (docs/REVIEW.md). Rolls that win at once and timed-out or abandoned turns are no decisions.

The same replay notes every move's value before and after for the split of luck and skill (`luck.py`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, astuple, dataclass
from typing import Any, Literal

from bot.engine.dice import dice_from_state
from bot.engine.game import Action, Game
from bot.engine.history import Event, Farkled, Rolled
from bot.engine.luck import Measure, Moment, Step, linked
from bot.engine.master import chance_to_win, modelled
from bot.engine.messages import Message
from bot.engine.moves import offered_points, turn_view
from bot.engine.policies import TurnPolicies
from bot.engine.reach import ReachTable
from bot.engine.rules import Ruleset
from bot.engine.saved import JSON
from bot.engine.scoring import wins_at_once
from bot.engine.strategies import last_chance, points_to_beat
from bot.engine.win.tables import WinTables, table_key

MoveKind = Literal["roll", "bank", "piggyback"]
REVIEW_VERSION = 2  # 2: with the moments of the luck and skill split
# A decision costing at least this much is a costly mistake: 2 percentage points of the chance to win,
# or 50 expected points of the turn (a tenth of what an optimal turn is worth under the presets).
COSTLY: dict[Measure, float] = {"win": 0.02, "turn": 50.0}
COSTLIEST_SHOWN = 3
# Flawless play: at least this accuracy and no costly mistake (the review's top verdict).
FLAWLESS_ACCURACY = 0.995
_SAME = 1e-9  # values closer than this are one value (float noise)


@dataclass(frozen=True)
class Move:
    """A move as the review tells it: dice kept, then roll `dice` dice, bank `total`, or piggyback."""

    kind: MoveKind
    keep: tuple[int, ...]  # faces set aside first (empty at turn start or on hot dice)
    total: int  # the turn total after the keep (a piggyback: the points inherited)
    dice: int  # dice the roll throws (0 when banking)


@dataclass(frozen=True)
class Decision:
    player: str
    turn: int  # the game's turn number
    event: int  # index in the game's events of the first event the move caused (for replays)
    roll: tuple[int, ...]  # dice on the table (empty at turn start and on hot dice)
    played: Move
    best: Move
    value: float  # of the move played, in the review's measure
    best_value: float
    worst_value: float

    @property
    def loss(self) -> float:
        return max(self.best_value - self.value, 0.0)

    @property
    def available(self) -> float:
        return self.best_value - self.worst_value


@dataclass(frozen=True)
class PlayerReview:
    player: str
    decisions: int
    accuracy: float | None  # 0..1; None without a single decision that mattered
    mistakes: int  # decisions costing at least `COSTLY[measure]`
    costliest: tuple[Decision, ...]  # at most `COSTLIEST_SHOWN`, costliest first, each costing something

    @property
    def flawless(self) -> bool:
        """Every decision was the best one (to float noise and within the review's tolerance)."""
        return self.accuracy is not None and self.accuracy >= FLAWLESS_ACCURACY and not self.mistakes

    @property
    def verdict(self) -> Message:
        """One line on how the player did, by accuracy; it speaks of costly choices only when there were
        some (`COSTLY`), so it never contradicts the count of costly mistakes beside it."""
        if self.accuracy is None:
            return Message("No decision that mattered.")
        if self.flawless:
            return Message("Flawless: every decision was the best one.")
        if self.accuracy >= 0.95:
            return Message("Sharp play, close to the solver's.")
        if self.accuracy >= 0.85:
            return Message("Solid, with a few slips.")
        if self.accuracy >= 0.7:
            if self.mistakes:
                return Message("Shaky: some costly choices.")
            return Message("Shaky: no single costly choice, but many small slips.")
        return Message("Reckless: the dice deserved better.")


@dataclass(frozen=True)
class GameReview:
    measure: Measure
    players: tuple[PlayerReview, ...]  # in seat order
    decisions: tuple[Decision, ...]  # in game order
    moments: tuple[Moment, ...] = ()  # every valued move, in game order (`luck.py`)
    version: int = REVIEW_VERSION

    def of(self, player: str) -> PlayerReview | None:
        return next((p for p in self.players if p.player == player), None)

    def to_json(self) -> str:
        return json.dumps(
            {
                "version": self.version,
                "measure": self.measure,
                "decisions": [asdict(d) for d in self.decisions],
                "moments": [astuple(m) for m in self.moments],
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str, players: Sequence[str]) -> GameReview:
        """A stored review (`ValueError` if another version wrote it: review again)."""
        data: dict[str, Any] = json.loads(text)
        if data.get("version") != REVIEW_VERSION or data.get("measure") not in COSTLY:
            raise ValueError("This review was made by another version; review again.")
        decisions = tuple(_decision(d) for d in data["decisions"])
        moments = tuple(_moment(*m) for m in data["moments"])
        return _summed(data["measure"], players, decisions, moments)


def _move(data: dict[str, Any]) -> Move:
    return Move(data["kind"], tuple(data["keep"]), int(data["total"]), int(data["dice"]))


def _decision(data: dict[str, Any]) -> Decision:
    return Decision(
        data["player"],
        int(data["turn"]),
        int(data["event"]),
        tuple(data["roll"]),
        _move(data["played"]),
        _move(data["best"]),
        float(data["value"]),
        float(data["best_value"]),
        float(data["worst_value"]),
    )


def _moment(
    player: str,
    turn: int,
    event: int,
    kind: str,
    rolled: list[int],
    farkled: bool,
    before: float,
    played: float,
    after: float,
) -> Moment:
    return Moment(player, turn, event, kind, tuple(rolled), farkled, before, played, after)


def _summed(
    measure: Measure,
    players: Sequence[str],
    decisions: tuple[Decision, ...],
    moments: tuple[Moment, ...],
) -> GameReview:
    reviews = []
    for player in players:
        mine = [d for d in decisions if d.player == player]
        available = sum(d.available for d in mine)
        accuracy = 1.0 - sum(d.loss for d in mine) / available if available > _SAME else None
        costly = sorted((d for d in mine if d.loss > _SAME), key=lambda d: -d.loss)
        mistakes = sum(1 for d in mine if d.loss >= COSTLY[measure])
        reviews.append(PlayerReview(player, len(mine), accuracy, mistakes, tuple(costly[:COSTLIEST_SHOWN])))
    return GameReview(measure, tuple(reviews), decisions, moments)


def measure_for(game: Game, tables: WinTables | None) -> Measure:
    """Chance to win where the tables reach the game (two sides, tables for its rules), else turn points."""
    rules = game.rules
    two_sides = not rules.teams and len(game.sides) == 2
    return "win" if tables is not None and tables.key == table_key(rules) and two_sides else "turn"


Valuer = Callable[[Move], float]


def _win_valuer(game: Game, tables: WinTables) -> Valuer | None:
    view = turn_view(game)
    if modelled(game, tables):
        me, other = view.me, view.others[0]
        turn = tables.turn(me.bank, other.bank, me.farkle_streak, other.farkle_streak)  # kept per turn
        return lambda move: (
            turn.bank(move.total) if move.kind == "bank" else turn.rolling(move.total, move.dice)
        )
    return _chase_valuer(game, tables.reach)


def _chase_valuer(game: Game, reach: ReachTable) -> Valuer | None:
    """The chance of passing the leader on a last chance (final round, playoff), else None."""
    chase = last_chance(game, turn_view(game), reach)
    if chase is None:
        return None
    return lambda move: (
        float(move.total >= chase.goal)
        if move.kind == "bank"
        else chase.expected_if_rolling(move.total, move.dice)
    )


def _turn_valuer(game: Game, policies: TurnPolicies) -> Valuer | None:
    view = turn_view(game)
    if points_to_beat(game, view) is not None:
        return None  # a last chance to pass a leader: points are not the goal
    policy = policies.policy(view.me.on_board)
    rolls = 0 if game.phase == "turn_start" else game.turn_rolls
    return lambda move: (
        float(move.total) if move.kind == "bank" else policy.expected_if_rolling(move.total, move.dice, rolls)
    )


def _as_move(game: Game, action: Action) -> Move:
    t = game.turn
    if game.phase == "turn_start":
        if action.kind == "piggyback":
            return Move("piggyback", (), offered_points(game), t.piggyback_dice or 6)
        return Move("roll", (), 0, 6)
    # A legal keep scores: its total and the dice it leaves are read off the roll, not previewed (a
    # preview judges the keep again, and the live chances value every legal move of every roll).
    faces = tuple(sorted(t.roll[p] for p in action.keep))
    total = t.total + game.points_of(faces)
    if action.kind == "bank":
        return Move("bank", faces, total, 0)
    return Move("roll", faces, total, len(t.roll) - len(faces) or 6)


def _preference(move: Move) -> tuple[int, int]:
    """Among equal values: bank first, then keep fewer dice (as expert and master do)."""
    return (0 if move.kind == "bank" else 1, len(move.keep))


def _valued(game: Game, value: Valuer) -> list[tuple[float, Move]]:
    """Each distinct legal move and its value, best first."""
    moves = {_as_move(game, legal) for legal in game.legal_actions()}
    return sorted(((value(m), m) for m in moves), key=lambda vm: (-vm[0], _preference(vm[1])))


def review(
    rules: Ruleset,
    players: Sequence[str],
    dice_start: dict[str, JSON],
    actions: Sequence[Action],
    policies: TurnPolicies,
    tables: WinTables | None,
    teams: Sequence[int] | None = None,
) -> GameReview:
    """Review a finished game: replay it from its starting dice state, judging each move before it (by
    the turn `policies` of `rules`, and by `tables` where they reach)."""
    game = Game.new(rules, players, dice_from_state(dice_start), teams)
    measure = measure_for(game, tables)
    decisions: list[Decision] = []
    steps: list[Step] = []
    for action in actions:
        before = played = None
        valuer = _valuer(game, measure, policies, tables)
        if valuer is not None:
            valued = _valued(game, valuer)
            before = valued[0][0]
            if action.kind in ("roll", "bank", "piggyback"):
                move = _as_move(game, action)
                played = valuer(move)
                if len(valued) > 1:
                    decisions.append(
                        Decision(
                            action.player,
                            game.turn_number,
                            len(game.events),
                            game.turn.roll,
                            move,
                            valued[0][1],
                            played,
                            before,
                            valued[-1][0],
                        )
                    )
        elif measure == "win" and game.phase != "over" and wins_at_once(game.turn.roll, rules):
            before = 1.0  # the mover keeps the dice that win
        if before is not None and action.player != game.current_player:
            before = 1.0 - before if measure == "win" else None  # a player leaving out of turn
        steps.append(_step(game, action, before, played))
    outcome = {p: _outcome(game, p) for p in players}
    return _summed(measure, players, tuple(decisions), linked(measure, steps, outcome))


def _step(game: Game, action: Action, before: float | None, played: float | None) -> Step:
    """Play the action, noting what it rolled and what it changed the mover's bank by."""
    turn, event, bank = game.turn_number, len(game.events), _bank(game, action.player)
    events: list[Event] = game.apply(action)
    rolled = next((e.dice for e in events if isinstance(e, Rolled)), ())
    farkled = any(isinstance(e, Farkled) for e in events)
    banked = _bank(game, action.player) - bank
    return Step(action.player, turn, event, action.kind, rolled, farkled, before, played, banked)


def _bank(game: Game, player: str) -> int:
    return next(p.bank for p in game.players if p.id == player)


def _outcome(game: Game, player: str) -> float:
    """1 for a win, 0 for a loss, shared between tied winners."""
    winners = game.result.winners if game.result is not None else ()
    return 1.0 / len(winners) if player in winners else 0.0


def _valuer(game: Game, measure: Measure, policies: TurnPolicies, tables: WinTables | None) -> Valuer | None:
    """How the measure values the moves of the position, or None where it can't (an instant win)."""
    if game.phase == "over" or wins_at_once(game.turn.roll, game.rules):
        return None
    if measure == "win" and tables is not None:
        return _win_valuer(game, tables)
    return _turn_valuer(game, policies.serve(game.rules))


def live_chances(game: Game, tables: WinTables | None) -> dict[str, float] | None:
    """Each side's chance to win now, the player to move playing on optimally: the tables' value of the
    best move, or on a last chance to pass the leader the chance of passing them; None where neither says."""
    if tables is None or game.phase == "over" or measure_for(game, tables) != "win":
        return None
    if game.phase == "turn_start" and modelled(game, tables):
        # A fresh turn's chance is in the table, as the Hint reads it: the turn the Bank or Farkle before
        # it passed to is solved later (`solve_next_roll`), not in that press's answer.
        chance = chance_to_win(game, tables)
    else:
        value = _win_valuer(game, tables)
        chance = max(value(_as_move(game, action)) for action in game.legal_actions()) if value else None
    if chance is None:
        return None
    mover = turn_view(game)
    return {mover.player: chance, mover.others[0].id: 1.0 - chance}


def solve_next_roll(game: Game, tables: WinTables | None) -> None:
    """Solve (and keep, in `tables`) the turn a fresh turn's first roll values its moves by (1-2 ms):
    called at a quiet moment after the press that passed the turn, so no answer waits for it."""
    if tables is not None and game.phase == "turn_start" and modelled(game, tables):
        view = turn_view(game)
        me, other = view.me, view.others[0]
        tables.turn(me.bank, other.bank, me.farkle_streak, other.farkle_streak)
