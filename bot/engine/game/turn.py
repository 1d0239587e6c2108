"""The turn's actions: rolling, keeping, banking, piggybacking and timing out, and what a roll forces
(Farkle, penalty roll, missed entry, hot dice). Each handler checks first (`gamekeeps`) and only then
changes the game, handing the turn on through `gameend`."""

from __future__ import annotations

from typing import cast

from bot.engine.game.end import GameEnd
from bot.engine.game.keeps import ROLL_BEFORE_KEEPING, ROLL_FIRST, GameKeeps
from bot.engine.game.types import IllegalAction
from bot.engine.history import (
    Banked,
    EntryFailed,
    Farkled,
    HotDice,
    Kept,
    Left,
    PenaltyRoll,
    Piggybacked,
    Removed,
    Rolled,
    ThreeFarkles,
    TimedOut,
)
from bot.engine.messages import Message
from bot.engine.scoring import is_penalty_roll, wins_at_once

_FARKLES_FOR_PENALTY = 3
_STRIKES_FOR_REMOVAL = 3


class GameTurn(GameKeeps, GameEnd):
    """One handler per action kind (`_do_<kind>`), and the turn mechanics they share."""

    def _do_roll(self, seat: int, keep: tuple[int, ...]) -> None:
        if self._phase == "turn_start":
            if keep:
                raise IllegalAction(ROLL_BEFORE_KEEPING)
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
            raise IllegalAction(ROLL_FIRST)
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
