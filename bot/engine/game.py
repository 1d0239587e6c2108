"""The Farkle game state machine: every turn and end-of-game rule of a `Ruleset`, one action at a time.

`Game.apply` validates an action completely before changing anything, so a refused action (an
`IllegalAction` whose message can be shown to the player as is) leaves the game exactly as it was, and the
state never has to be copied. Rolls come from a `DiceSource` whose state is saved with the game: the same
seed and the same actions always replay to the same game.

Scores belong to *sides*: a side is one player, or one team whose members share a bank and take the
side's turns in rotation.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal, TypeAlias, cast

from bot.engine.dice import DiceSource, dice_from_state
from bot.engine.errors import UserFacingError
from bot.engine.events import (
    Banked,
    EntryFailed,
    Event,
    Farkled,
    FinalRound,
    GameOver,
    HotDice,
    Kept,
    Left,
    Overflow,
    PenaltyRoll,
    Piggybacked,
    Playoff,
    Removed,
    Rolled,
    RollOff,
    Safe,
    ThreeFarkles,
    TimedOut,
    TurnStarted,
    event_from_row,
    event_row,
)
from bot.engine.messages import Listing, Message
from bot.engine.rules import Ruleset
from bot.engine.saved import JSON, json_int, json_ints, json_list
from bot.engine.scoring import is_penalty_roll, scoring_tables, wins_at_once

Phase: TypeAlias = Literal["turn_start", "choosing", "over"]
ActionKind: TypeAlias = Literal["roll", "bank", "piggyback", "leave", "timeout"]
EndReason: TypeAlias = Literal["target", "instant_win", "last_loses", "players_left"]

_POSITIONS = tuple(frozenset(range(n)) for n in range(7))
_FARKLES_FOR_PENALTY = 3
_STRIKES_FOR_REMOVAL = 3
_JSON_VERSION = 1
_GAME_OVER = Message("The game is over.")
_ROLL_FIRST = Message("Roll the dice first.")
_ROLL_BEFORE_KEEPING = Message("Roll the dice before keeping any.")


class IllegalAction(UserFacingError):
    """A refused action; its `message` is a message id and parameters fit to show the player."""


@dataclass(frozen=True, slots=True)
class Action:
    """One move. `keep` holds positions in the roll on the table (not faces), as the dice buttons do."""

    kind: ActionKind
    player: str
    keep: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, JSON]:
        return {"kind": self.kind, "player": self.player, "keep": list(self.keep)}

    @classmethod
    def from_dict(cls, data: dict[str, JSON]) -> Action:
        return cls(cast(ActionKind, data["kind"]), str(data["player"]), tuple(json_ints(data["keep"])))


@dataclass(frozen=True, slots=True)
class KeepPreview:
    """What the Roll and Bank buttons would do with this selection (a pure read of the game)."""

    points: int | None
    error: Message | None
    dice_to_roll: int
    turn_total: int
    can_roll: bool
    can_bank: bool
    bank_blocked: Message | None


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One seat as the board shows it; bank, on_board, farkle_streak and safe are the seat's side's."""

    id: str
    bank: int
    on_board: bool
    farkle_streak: int
    idle_strikes: int
    team: int | None
    active: bool
    safe: bool


@dataclass(slots=True)
class TurnState:
    """The turn in progress. `game.turn` hands out a copy, so changing it never changes the game."""

    total: int = 0
    roll: tuple[int, ...] = ()
    set_aside: tuple[int, ...] = ()
    dice_left: int = 6
    rolls: int = 0
    hot_dice: bool = False
    piggyback_dice: int | None = None
    piggybacked: bool = False


@dataclass(frozen=True)
class GameResult:
    """How the game ended: placements are groups of tied ids, best first; players who left come last."""

    winners: tuple[str, ...]
    placements: tuple[tuple[str, ...], ...]
    banks: dict[str, int] = field(hash=False)
    reason: EndReason


@dataclass(slots=True)
class _Side:
    """A scoring unit: one player, or a team sharing one bank."""

    members: tuple[int, ...]
    bank: int = 0
    on_board: bool = False
    farkle_streak: int = 0
    safe: bool = False
    active: bool = True
    up: int = 0  # index in members of the next to play


@lru_cache(maxsize=256)
def _interned(rules: Ruleset) -> Ruleset:
    """One instance per distinct ruleset, so a reloaded game reuses the scoring tables built for it."""
    return rules


class Game:
    """A game of Farkle under one ruleset; create with `Game.new`, restore with `Game.from_json`."""

    def __init__(self, rules: Ruleset, players: Sequence[str], teams: Sequence[int] | None, dice: DiceSource):
        """Seats and sides only; `new` plays the roll-off and `from_json` restores the rest."""
        self._rules = _interned(rules)
        self._tables = scoring_tables(self._rules)
        self._entry_limit = self._rules.entry_roll_limit
        self._ids = tuple(players)
        self._seat_of = {pid: seat for seat, pid in enumerate(self._ids)}
        self._teams = tuple(teams) if teams is not None else None
        if self._teams is None:
            self._side_of: tuple[int, ...] = tuple(range(len(self._ids)))
        else:
            self._side_of = self._teams
        count = max(self._side_of) + 1
        self._sides = [
            _Side(tuple(s for s, side in enumerate(self._side_of) if side == index)) for index in range(count)
        ]
        for side in self._sides:
            side.on_board = self._rules.entry_minimum == 0
        self._strikes = [0] * len(self._ids)
        self._active = [True] * len(self._ids)
        self._dice = dice
        self._phase: Phase = "turn_start"
        self._side = 0
        self._seat: int | None = None
        self._pid = ""  # id of the seat to play, kept beside it for the hot path
        self._turn = TurnState()
        self._offer_points = 0
        self._final_round = False
        self._pending: list[int] | None = None  # sides still owed a turn (final round, playoff)
        self._reached: list[int] = []  # sides in the order they reached the target
        self._playoff: list[int] | None = None
        self._playoff_scores: dict[int, int] = {}
        self._result: GameResult | None = None
        self._turn_number = 0
        self._history: list[Action] = []
        self._events: list[Event] = []

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(
        cls, rules: Ruleset, players: Sequence[str], dice: DiceSource, teams: Sequence[int] | None = None
    ) -> Game:
        """A new game: seats in the given order, then the roll-off picks who starts."""
        _check_seating(rules, players, teams)
        if rules.teams and teams is None:
            teams = [seat % rules.teams for seat in range(len(players))]  # teammates sit apart
        game = cls(rules, players, teams, dice)
        game._start_turn(game._roll_off(), None)
        return game

    @classmethod
    def replay(
        cls,
        rules: Ruleset,
        players: Sequence[str],
        dice_state: dict[str, JSON],
        actions: Sequence[Action],
        teams: Sequence[int] | None = None,
    ) -> Game:
        """The game these actions produce from this dice state (taken before `new`)."""
        game = cls.new(rules, players, dice_from_state(dice_state), teams)
        for action in actions:
            game.apply(action)
        return game

    def _roll_off(self) -> int:
        """Each side rolls one die; the highest starts, ties re-roll among the tied."""
        contenders = list(range(len(self._sides)))
        while True:
            faces = self._dice.roll(len(contenders))
            top = max(faces)
            leaders = [side for side, face in zip(contenders, faces, strict=True) if face == top]
            if len(leaders) == 1:
                break
            contenders = leaders
        self._events.append(RollOff(self._ids[self._sides[leaders[0]].members[0]], faces))
        return leaders[0]

    # ------------------------------------------------------------------ read-only state

    @property
    def rules(self) -> Ruleset:
        return self._rules

    @property
    def players(self) -> tuple[PlayerState, ...]:
        return tuple(self._player_state(seat) for seat in range(len(self._ids)))

    def _player_state(self, seat: int) -> PlayerState:
        side = self._sides[self._side_of[seat]]
        team = self._teams[seat] if self._teams is not None else None
        return PlayerState(
            self._ids[seat],
            side.bank,
            side.on_board,
            side.farkle_streak,
            self._strikes[seat],
            team,
            self._active[seat],
            side.safe,
        )

    @property
    def sides(self) -> tuple[int, ...]:
        """Banks per team when playing in teams, else per player (in seat order)."""
        return tuple(side.bank for side in self._sides)

    @property
    def current_player(self) -> str | None:
        return None if self._seat is None else self._ids[self._seat]

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def turn(self) -> TurnState:
        t = self._turn  # a positional copy: dataclasses.replace is several times slower
        return TurnState(
            t.total, t.roll, t.set_aside, t.dice_left, t.rolls, t.hot_dice, t.piggyback_dice, t.piggybacked
        )

    @property
    def final_round(self) -> bool:
        return self._final_round

    @property
    def playoff(self) -> tuple[str, ...]:
        """Players of the sides in the current playoff, in playing order (empty when there is none)."""
        return tuple(pid for side in self._playoff or () for pid in self._member_ids(side))

    @property
    def result(self) -> GameResult | None:
        return self._result

    @property
    def history(self) -> tuple[Action, ...]:
        return tuple(self._history)

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event since the roll-off, in order."""
        return tuple(self._events)

    @property
    def turn_number(self) -> int:
        return self._turn_number

    @property
    def turn_rolls(self) -> int:
        """Rolls so far this turn (what `turn.rolls` says, without copying the turn)."""
        return self._turn.rolls

    def preview(self, keep: Sequence[int]) -> KeepPreview:
        """What keeping these positions would mean, for enabling and labelling the buttons."""
        t = self._turn
        if self._result is not None:
            return KeepPreview(None, _GAME_OVER, 0, t.total, False, False, None)
        if self._phase == "turn_start":
            error = _ROLL_BEFORE_KEEPING if keep else None
            return KeepPreview(None, error, 6, 0, error is None, False, _ROLL_FIRST)
        try:
            faces, points = self._judge_keep(tuple(keep))
        except IllegalAction as refused:
            return KeepPreview(None, refused.message, t.dice_left, t.total, False, False, None)
        hot = len(faces) == len(t.roll)
        blocked = self._bank_blocked(t.total + points, hot) if not wins_at_once(faces, self._rules) else None
        dice_to_roll = 6 if hot else len(t.roll) - len(faces)
        return KeepPreview(
            points if faces else None, None, dice_to_roll, t.total + points, True, blocked is None, blocked
        )

    def legal_actions(self) -> tuple[Action, ...]:
        """The current player's moves, one keep per distinct scoring selection (leave/timeout not listed)."""
        if self._seat is None or self._result is not None:
            return ()
        player, t = self._ids[self._seat], self._turn
        if self._phase == "turn_start":
            pig = (Action("piggyback", player),) if t.piggyback_dice is not None else ()
            return (Action("roll", player), *pig)
        if not t.roll:
            blocked = self._bank_blocked(t.total, True)
            return (Action("roll", player),) + (() if blocked else (Action("bank", player),))
        moves: list[Action] = []
        for option in self._tables.options[tuple(sorted(t.roll))]:
            if self._entry_short(t.total + option.points):
                continue
            keep = _positions(t.roll, option.dice)
            moves.append(Action("roll", player, keep))
            hot = len(keep) == len(t.roll)
            if wins_at_once(option.dice, self._rules) or not self._bank_blocked(t.total + option.points, hot):
                moves.append(Action("bank", player, keep))
        return tuple(moves)

    # ------------------------------------------------------------------ actions

    def roll(self, player: str, keep: Sequence[int] = ()) -> list[Event]:
        return self.apply(Action("roll", player, tuple(keep)))

    def bank(self, player: str, keep: Sequence[int] = ()) -> list[Event]:
        return self.apply(Action("bank", player, tuple(keep)))

    def piggyback(self, player: str) -> list[Event]:
        return self.apply(Action("piggyback", player))

    def leave(self, player: str) -> list[Event]:
        return self.apply(Action("leave", player))

    def timeout(self, player: str) -> list[Event]:
        return self.apply(Action("timeout", player))

    def apply(self, action: Action) -> list[Event]:
        """Play one action and return its events; refused actions raise `IllegalAction` and change nothing."""
        seat = self._actor(action)
        start = len(self._events)
        _HANDLERS[action.kind](self, seat, action.keep)
        self._history.append(action)
        return self._events[start:]

    def _actor(self, action: Action) -> int:
        """The acting seat, once the action is known to come from someone allowed to make it now."""
        if self._result is not None:
            raise IllegalAction(_GAME_OVER)
        seat = self._seat_of.get(action.player)
        if seat is None or not self._active[seat]:
            raise IllegalAction(Message("You're not playing in this game."))
        if action.kind not in _HANDLERS:
            raise IllegalAction(Message("There is no '{move}' move.", move=action.kind))
        if action.kind != "leave" and seat != self._seat:
            raise IllegalAction(Message("It's not your turn."))
        if action.keep and action.kind not in ("roll", "bank"):
            raise IllegalAction(Message("Only rolling or banking keeps dice."))
        return seat

    def _do_roll(self, seat: int, keep: tuple[int, ...]) -> None:
        if self._phase == "turn_start":
            if keep:
                raise IllegalAction(_ROLL_BEFORE_KEEPING)
            self._strikes[seat] = 0
            self._roll_dice(6)
            return
        faces, points = self._judge_keep(keep)
        self._strikes[seat] = 0
        if wins_at_once(faces, self._rules):
            self._win_at_once(faces, points)
            return
        if faces:
            self._take(faces, points)
        self._roll_dice(self._turn.dice_left)

    def _do_bank(self, seat: int, keep: tuple[int, ...]) -> None:
        if self._phase == "turn_start":
            raise IllegalAction(_ROLL_FIRST)
        t = self._turn
        faces, points = self._judge_keep(keep)
        if wins_at_once(faces, self._rules):
            self._strikes[seat] = 0
            self._win_at_once(faces, points)
            return
        blocked = self._bank_blocked(t.total + points, len(faces) == len(t.roll))
        if blocked:
            raise IllegalAction(blocked)
        self._strikes[seat] = 0
        if faces:
            self._take(faces, points)
        self._bank()

    def _do_piggyback(self, seat: int, keep: tuple[int, ...]) -> None:
        t = self._turn
        if self._phase != "turn_start" or t.piggyback_dice is None:
            raise IllegalAction(Message("There are no dice to piggyback on."))
        self._strikes[seat] = 0
        t.piggybacked = True
        self._events.append(Piggybacked(self._ids[seat], self._offer_points, t.piggyback_dice))
        self._roll_dice(t.piggyback_dice, inherit=self._offer_points)

    def _do_leave(self, seat: int, keep: tuple[int, ...]) -> None:
        self._remove(seat, Left)

    def _do_timeout(self, seat: int, keep: tuple[int, ...]) -> None:
        self._strikes[seat] += 1
        self._events.append(TimedOut(self._ids[seat], self._strikes[seat]))
        if self._strikes[seat] >= _STRIKES_FOR_REMOVAL:
            self._remove(seat, Removed)
        else:
            self._end_turn()

    # ------------------------------------------------------------------ validation (never mutates)

    def _judge_keep(self, keep: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
        """Sorted faces and points of keeping these positions now, or the player's reason why not."""
        t = self._turn
        if not t.roll:
            if keep:
                raise IllegalAction(Message("There are no dice to keep: roll all six again."))
            return (), 0
        if not keep:
            raise IllegalAction(Message("Keep at least one scoring die."))
        chosen = set(keep)
        if len(chosen) != len(keep):
            raise IllegalAction(Message("Each die can be kept only once."))
        if not chosen <= _POSITIONS[len(t.roll)]:
            raise IllegalAction(Message("That die isn't on the table."))
        faces = tuple(sorted([t.roll[pos] for pos in keep]))
        points = self._tables.score.get(faces)
        if points is None:
            raise IllegalAction(self._no_score_message(faces))
        if self._entry_short(t.total + points):
            raise IllegalAction(
                Message(
                    "You need {points} on this roll to get on the board.", points=self._rules.entry_minimum
                )
            )
        return faces, points

    def _no_score_message(self, faces: tuple[int, ...]) -> Message:
        """Name the dice left over by the largest scoring part of the selection ("The 3 doesn't score.")."""
        options = self._tables.options[faces]
        scoring = list(max(options, key=lambda o: len(o.dice)).dice) if options else []
        leftover = list(faces)
        for face in scoring:
            leftover.remove(face)
        names: list[Message] = []
        for face in sorted(set(leftover)):
            many = leftover.count(face)
            if face in scoring:
                names.append(Message.plural("extra {face}", "extra {face}s", many, face=face))
            else:
                names.append(Message.plural("{face}", "{face}s", many, face=face))
        dice = Listing(tuple(names), "and")
        return Message.plural(
            "The {dice} doesn't score.", "The {dice} don't score.", len(leftover), dice=dice
        )

    def _bank_blocked(self, total: int, hot: bool) -> Message | None:
        """Why banking this turn total is refused, or None."""
        rules = self._rules
        if hot and rules.hot_dice == "forced":
            return Message("Hot dice must be rolled.")
        if not self._sides[self._side].on_board and total < rules.entry_minimum:
            return Message("You need {points} to get on the board.", points=rules.entry_minimum)
        if total < rules.bank_minimum:
            return Message("You need {points} to bank.", points=rules.bank_minimum)
        return None

    def _entry_short(self, total: int) -> bool:
        """From the entry roll limit on, a side not yet on the board must reach the entry with this roll."""
        limit = self._entry_limit
        return (
            limit is not None
            and self._turn.rolls >= limit
            and total < self._rules.entry_minimum
            and not self._sides[self._side].on_board
        )

    # ------------------------------------------------------------------ turn mechanics

    def _roll_dice(self, n: int, inherit: int = 0) -> None:
        """Roll n dice and settle what the roll forces: penalty, Farkle, missed entry, or a choice."""
        t = self._turn
        roll = self._dice.roll(n)
        t.roll, t.dice_left, t.hot_dice = roll, n, False
        t.rolls += 1
        self._phase = "choosing"
        self._events.append(Rolled(self._pid, roll))
        key = tuple(sorted(roll))
        if is_penalty_roll(key, self._rules):
            self._penalize()
            return
        best = self._tables.best[key]
        if not best:
            self._farkle()
            return
        t.total += inherit
        if self._entry_short(t.total + best):
            self._events.append(EntryFailed(self._pid, t.total, self._rules.entry_minimum))
            self._end_turn()

    def _take(self, faces: tuple[int, ...], points: int) -> None:
        """Set kept dice aside; keeping every die on the table gives hot dice (six fresh dice)."""
        t = self._turn
        left = len(t.roll) - len(faces)
        t.total += points
        t.set_aside += faces
        t.roll = ()
        self._events.append(Kept(self._pid, points, faces, t.total))
        if left:
            t.dice_left = left
        else:
            t.dice_left, t.hot_dice = 6, True
            self._events.append(HotDice(self._pid, t.total))

    def _bank(self) -> None:
        t, side = self._turn, self._sides[self._side]
        rules = self._rules
        side.bank += t.total
        side.farkle_streak = 0
        side.on_board = True
        excess = side.bank - rules.target if rules.end_rule == "exact" and side.bank > rules.target else 0
        side.bank -= excess
        self._events.append(Banked(self._pid, t.total, side.bank))
        recipient = self._give_overflow(excess) if excess else None
        for reached in (self._side, recipient):
            if reached is not None and self._sides[reached].bank >= rules.target:
                self._reach_target(reached)
        offer = None  # dice left unused (1-5: hot dice leave none) and the points they carry
        if rules.piggyback != "off" and not t.hot_dice:
            offer = (t.dice_left, t.total if rules.piggyback == "previous_points" else rules.piggyback_bonus)
        self._end_turn(score=t.total, offer=offer)

    def _give_overflow(self, excess: int) -> int | None:
        """Exact target: points over it go to the lowest other side (earliest seat on a tie), capped too."""
        others = [s for s, side in enumerate(self._sides) if s != self._side and side.active]
        if not others:
            return None
        recipient = min(others, key=lambda s: self._sides[s].bank)
        side = self._sides[recipient]
        side.bank = min(self._rules.target, side.bank + excess)
        other = self._member_ids(recipient)[0]
        self._events.append(Overflow(self._pid, excess, side.bank, other))
        return recipient

    def _reach_target(self, s: int) -> None:
        """First arrival at the target: safe under last-loses, else it starts the final round."""
        if s in self._reached:
            return
        self._reached.append(s)
        who = self._pid if s == self._side else self._member_ids(s)[0]
        if self._rules.end_rule == "last_loses":
            self._sides[s].safe = True
            self._events.append(Safe(who))
        elif not self._final_round:
            self._final_round = True
            count = len(self._sides)
            after = ((s + k) % count for k in range(1, count))
            self._pending = [other for other in after if self._sides[other].active]
            self._events.append(FinalRound(who))

    def _farkle(self) -> None:
        side = self._sides[self._side]
        self._events.append(Farkled(self._pid, self._turn.total))
        side.farkle_streak += 1
        rule = self._rules.three_farkles
        if side.farkle_streak >= _FARKLES_FOR_PENALTY and rule != "none":
            before = side.bank
            side.bank = before - 1000 if rule == "minus_1000" else 0
            side.farkle_streak = 0
            self._events.append(ThreeFarkles(self._pid, side.bank - before, side.bank))
        self._end_turn()

    def _penalize(self) -> None:
        """Penalty roll: the turn ends and the bank drops, but not below 0 (nor further if already below)."""
        side = self._sides[self._side]
        before = side.bank
        side.bank = max(before + cast(int, self._rules.penalty_roll), min(before, 0))
        self._events.append(PenaltyRoll(self._pid, side.bank - before, side.bank))
        self._end_turn()

    def _win_at_once(self, faces: tuple[int, ...], points: int) -> None:
        t = self._turn
        t.total += points
        t.set_aside += faces
        t.roll = ()
        self._events.append(Kept(self._pid, points, faces, t.total))
        self._finish("instant_win", [self._side])

    def _remove(self, seat: int, gone: type[Left | Removed]) -> None:
        """A player leaves or is removed; their side plays on while a teammate remains."""
        self._active[seat] = False
        self._events.append(gone(self._ids[seat]))
        s = self._side_of[seat]
        side = self._sides[s]
        if not any(self._active[m] for m in side.members):
            side.active = False
            for queue in (self._pending, self._playoff):
                if queue is not None and s in queue:
                    queue.remove(s)
        if seat == self._seat:
            self._end_turn(by_leave=True)
        else:
            self._game_ends(by_leave=True)

    # ------------------------------------------------------------------ turn order and game end

    def _end_turn(self, score: int = 0, offer: tuple[int, int] | None = None, by_leave: bool = False) -> None:
        """Close the current turn (score = points banked) and start the next one, unless the game ends."""
        side = self._sides[self._side]
        side.up = (side.members.index(cast(int, self._seat)) + 1) % len(side.members)
        if self._playoff is not None:
            self._playoff_scores[self._side] = score
        if self._game_ends(by_leave):
            return
        if self._pending == []:
            self._resolve_top()
            if self._result is not None:
                return
        self._start_turn(self._next_side(), offer)

    def _start_turn(self, s: int, offer: tuple[int, int] | None) -> None:
        side = self._sides[s]
        seat = side.members[side.up]
        if not self._active[seat]:
            seat = next(m for m in side.members[side.up :] + side.members[: side.up] if self._active[m])
        self._side, self._seat, self._pid = s, seat, self._ids[seat]
        self._turn_number += 1
        self._phase = "turn_start"
        self._turn = TurnState()
        self._offer_points = 0
        if offer is not None and self._may_piggyback():
            self._turn.piggyback_dice, self._offer_points = offer
        self._events.append(TurnStarted(self._ids[seat]))

    def _may_piggyback(self) -> bool:
        if not self._rules.piggyback_needs_all_on_board:
            return True
        return all(side.on_board for side in self._sides if side.active)

    def _next_side(self) -> int:
        if self._pending is not None:
            return self._pending.pop(0)
        count = len(self._sides)
        for k in range(1, count + 1):
            s = (self._side + k) % count
            if self._sides[s].active and not self._sides[s].safe:
                return s
        raise AssertionError("no side can play")  # unreachable: _game_ends ends games first

    def _game_ends(self, by_leave: bool = False) -> bool:
        """End the game if too few sides remain or, under last-loses, the loser is known."""
        if self._result is not None:
            return True
        active = [s for s, side in enumerate(self._sides) if side.active]
        if len(active) < 2:
            self._finish("players_left", active)
            return True
        if self._rules.end_rule != "last_loses":
            return False
        below = [s for s in active if not self._sides[s].safe]
        if len(below) > 1:
            return False
        safe = [s for s in self._reached if self._sides[s].active]
        if by_leave:  # the one who left conceded: whoever is still below did not lose
            self._finish("last_loses", safe + below, [*([s] for s in safe), below])
        else:
            self._finish("last_loses", safe, [*([s] for s in safe), below])
        return True

    def _resolve_top(self) -> None:
        """Every owed turn is played: the top wins, or ties share or play off."""
        if self._playoff:
            scores = {s: self._playoff_scores.get(s, 0) for s in self._playoff}
        else:
            scores = {s: side.bank for s, side in enumerate(self._sides) if side.active}
        top = max(scores.values())
        tied = [s for s, score in scores.items() if score == top]
        if len(tied) == 1 or self._rules.tie_rule == "share":
            self._finish("target", tied)
            return
        tied.sort(key=lambda s: self._reached.index(s) if s in self._reached else len(self._sides) + s)
        self._playoff, self._playoff_scores, self._pending = tied, {}, list(tied)
        for s in tied:
            self._events.append(Playoff(self._member_ids(s)[0]))

    def _finish(self, reason: EndReason, winners: list[int], groups: list[list[int]] | None = None) -> None:
        """Record the result: winners first, the other active sides by bank, then players who left."""
        if groups is None:
            rest = [s for s, side in enumerate(self._sides) if side.active and s not in winners]
            groups = [winners, *_grouped(rest, lambda s: self._sides[s].bank)]
        placements = [ids for g in groups if (ids := tuple(p for s in g for p in self._member_ids(s)))]
        gone = [seat for seat in range(len(self._ids)) if not self._active[seat]]
        placements += [
            tuple(self._ids[seat] for seat in g)
            for g in _grouped(gone, lambda seat: self._sides[self._side_of[seat]].bank)
        ]
        winner_ids = tuple(p for s in winners for p in self._member_ids(s))
        banks = {pid: self._sides[self._side_of[seat]].bank for seat, pid in enumerate(self._ids)}
        self._result = GameResult(winner_ids, tuple(placements), banks, reason)
        self._phase = "over"
        self._seat = None
        self._pending = None
        self._events.append(GameOver(winner_ids[0] if winner_ids else None))

    # ------------------------------------------------------------------ helpers

    def _member_ids(self, s: int) -> tuple[str, ...]:
        return tuple(self._ids[m] for m in self._sides[s].members if self._active[m])

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> str:
        """The whole game, dice state included; `Game.from_json` restores it exactly."""
        return json.dumps(self.state(), separators=(",", ":"))

    def state(self, *, events: bool = True) -> dict[str, JSON]:
        """The game as plain JSON values. Without `events` it is a third of the size: the event log is
        the same game replayed, so `from_state` rebuilds it from the dice the game started with."""
        t = self._turn
        state: dict[str, JSON] = {
            "version": _JSON_VERSION,
            "rules": self._rules.model_dump(mode="json"),
            "players": list(self._ids),
            "teams": None if self._teams is None else list(self._teams),
            "sides": [
                [side.bank, side.on_board, side.farkle_streak, side.safe, side.active, side.up]
                for side in self._sides
            ],
            "strikes": list(self._strikes),
            "active": list(self._active),
            "dice": self._dice.state(),
            "phase": self._phase,
            "side": self._side,
            "seat": self._seat,
            "turn": [
                t.total,
                list(t.roll),
                list(t.set_aside),
                t.dice_left,
                t.rolls,
                t.hot_dice,
                t.piggyback_dice,
                t.piggybacked,
            ],
            "offer_points": self._offer_points,
            "final_round": self._final_round,
            "pending": None if self._pending is None else list(self._pending),
            "reached": list(self._reached),
            "playoff": None if self._playoff is None else list(self._playoff),
            "playoff_scores": [[s, score] for s, score in self._playoff_scores.items()],
            "result": None if self._result is None else _result_to_json(self._result),
            "turn_number": self._turn_number,
            # Rows rather than dicts: the log is most of a saved game, and it is saved after every move.
            "history": [[a.kind, a.player, list(a.keep)] for a in self._history],
        }
        if events:
            state["events"] = [event_row(e) for e in self._events]
        return state

    @classmethod
    def from_json(cls, text: str) -> Game:
        return cls.from_state(json.loads(text))

    @classmethod
    def from_state(cls, data: dict[str, Any], dice_start: dict[str, JSON] | None = None) -> Game:
        """The game `state()` described; a state saved without its events needs `dice_start` (the dice
        source's state before `new`) to replay them."""
        if data.get("version") != _JSON_VERSION:
            raise ValueError(f"Unknown saved game version {data.get('version')!r}.")
        rules = Ruleset.model_validate(data["rules"])
        game = cls(rules, data["players"], data["teams"], dice_from_state(data["dice"]))
        game._sides = [
            _Side(side.members, *saved) for side, saved in zip(game._sides, data["sides"], strict=True)
        ]
        game._strikes = list(data["strikes"])
        game._active = list(data["active"])
        game._phase = data["phase"]
        game._side = data["side"]
        game._seat = data["seat"]
        game._pid = "" if game._seat is None else game._ids[game._seat]
        total, roll, set_aside, *rest = data["turn"]
        game._turn = TurnState(total, tuple(roll), tuple(set_aside), *rest)
        game._offer_points = data["offer_points"]
        game._final_round = data["final_round"]
        game._pending = data["pending"]
        game._reached = data["reached"]
        game._playoff = data["playoff"]
        game._playoff_scores = {s: score for s, score in data["playoff_scores"]}
        game._result = None if data["result"] is None else _result_from_json(data["result"])
        game._turn_number = data["turn_number"]
        game._history = [Action(kind, player, tuple(keep)) for kind, player, keep in data["history"]]
        if "events" in data:
            game._events = [event_from_row(row) for row in data["events"]]
        elif dice_start is None:
            raise ValueError("A game saved without its events needs the dice it started with.")
        else:
            game._events = list(
                cls.replay(rules, data["players"], dice_start, game._history, data["teams"]).events
            )
        return game


_HANDLERS: dict[str, Callable[[Game, int, tuple[int, ...]], None]] = {
    "roll": Game._do_roll,
    "bank": Game._do_bank,
    "piggyback": Game._do_piggyback,
    "leave": Game._do_leave,
    "timeout": Game._do_timeout,
}


def _check_seating(rules: Ruleset, players: Sequence[str], teams: Sequence[int] | None) -> None:
    """Refuse a table the rules can't seat, in words for the players."""
    if not rules.min_players <= len(players) <= rules.max_players:
        raise IllegalAction(
            Message(
                "This game takes {least} to {most} players.", least=rules.min_players, most=rules.max_players
            )
        )
    if len(set(players)) != len(players):
        raise IllegalAction(Message("Each player can take only one seat."))
    if teams is None:
        if rules.teams and len(players) < rules.teams:
            raise IllegalAction(Message("{teams} teams need at least {teams} players.", teams=rules.teams))
        return
    if not rules.teams:
        raise IllegalAction(Message("These rules don't play in teams."))
    if len(teams) != len(players) or set(teams) != set(range(rules.teams)):
        raise IllegalAction(
            Message(
                "Put every player in one of the {teams} teams, and every team needs a player.",
                teams=rules.teams,
            )
        )


def _positions(roll: tuple[int, ...], faces: tuple[int, ...]) -> tuple[int, ...]:
    """Positions in the roll showing these faces (the first free die of each face)."""
    taken: list[int] = []
    for face in faces:
        taken.append(next(p for p, f in enumerate(roll) if f == face and p not in taken))
    return tuple(taken)


def _grouped(items: list[int], bank: Callable[[int], int]) -> list[list[int]]:
    """Items in groups of equal bank, highest first, keeping seat order inside a group."""
    groups: dict[int, list[int]] = {}
    for item in items:
        groups.setdefault(bank(item), []).append(item)
    return [groups[b] for b in sorted(groups, reverse=True)]


def _result_to_json(result: GameResult) -> JSON:
    return {
        "winners": list(result.winners),
        "placements": [list(group) for group in result.placements],
        "banks": dict(result.banks),
        "reason": result.reason,
    }


def _result_from_json(data: dict[str, JSON]) -> GameResult:
    placements = tuple(tuple(str(p) for p in json_list(group)) for group in json_list(data["placements"]))
    banks = {str(pid): json_int(bank) for pid, bank in cast(dict[str, JSON], data["banks"]).items()}
    winners = tuple(str(p) for p in json_list(data["winners"]))
    return GameResult(winners, placements, banks, cast(EndReason, data["reason"]))
