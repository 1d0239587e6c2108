"""The turn's actions: rolling, keeping, banking, piggybacking and timing out, and what a roll forces
(Farkle, penalty roll, missed entry, hot dice). Each handler (`HANDLERS`, by action kind) checks first
(`keeps`) and only then changes the game's state, handing the turn on through `end`."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from bot.engine.game.end import end_turn, finish, give_overflow, reach_target, remove
from bot.engine.game.keeps import ROLL_BEFORE_KEEPING, ROLL_FIRST, bank_blocked, entry_short, judge_keep
from bot.engine.game.state import GameState
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


def _do_roll(s: GameState, seat: int, keep: tuple[int, ...]) -> None:
    if s.phase == "turn_start":
        if keep:
            raise IllegalAction(ROLL_BEFORE_KEEPING)
        s.strikes[seat] = 0
        _roll_dice(s, 6)
        return
    faces, points = judge_keep(s, keep)
    s.strikes[seat] = 0
    if wins_at_once(faces, s.rules):
        _win_at_once(s, faces, points)
        return
    if faces:
        _take(s, faces, points)
    _roll_dice(s, s.turn.dice_left)


def _do_bank(s: GameState, seat: int, keep: tuple[int, ...]) -> None:
    if s.phase == "turn_start":
        raise IllegalAction(ROLL_FIRST)
    t = s.turn
    faces, points = judge_keep(s, keep)
    if wins_at_once(faces, s.rules):
        s.strikes[seat] = 0
        _win_at_once(s, faces, points)
        return
    blocked = bank_blocked(s, t.total + points, len(faces) == len(t.roll))
    if blocked:
        raise IllegalAction(blocked)
    s.strikes[seat] = 0
    if faces:
        _take(s, faces, points)
    _bank(s)


def _do_piggyback(s: GameState, seat: int, keep: tuple[int, ...]) -> None:
    t = s.turn
    if s.phase != "turn_start" or t.piggyback_dice is None:
        raise IllegalAction(Message("There are no dice to piggyback on."))
    s.strikes[seat] = 0
    t.piggybacked = True
    s.events.append(Piggybacked(s.ids[seat], s.offer_points, t.piggyback_dice))
    _roll_dice(s, t.piggyback_dice, inherit=s.offer_points)


def _do_leave(s: GameState, seat: int, keep: tuple[int, ...]) -> None:
    remove(s, seat, Left)


def _do_timeout(s: GameState, seat: int, keep: tuple[int, ...]) -> None:
    s.strikes[seat] += 1
    s.events.append(TimedOut(s.ids[seat], s.strikes[seat]))
    if s.strikes[seat] >= _STRIKES_FOR_REMOVAL:
        remove(s, seat, Removed)
    else:
        end_turn(s)


# One handler per action kind: each checks first and only then changes the game.
HANDLERS: dict[str, Callable[[GameState, int, tuple[int, ...]], None]] = {
    "roll": _do_roll,
    "bank": _do_bank,
    "piggyback": _do_piggyback,
    "leave": _do_leave,
    "timeout": _do_timeout,
}


# ---------------------------------------------------------------------- turn mechanics


def _roll_dice(s: GameState, n: int, inherit: int = 0) -> None:
    """Roll n dice and settle what the roll forces: penalty, Farkle, missed entry, or a choice."""
    t = s.turn
    roll = s.dice.roll(n)
    t.roll, t.dice_left, t.hot_dice = roll, n, False
    t.rolls += 1
    s.phase = "choosing"
    s.events.append(Rolled(s.pid, roll))
    key = tuple(sorted(roll))
    if is_penalty_roll(key, s.rules):
        _penalize(s)
        return
    best = s.tables.best[key]
    if not best:
        _farkle(s)
        return
    t.total += inherit
    if entry_short(s, t.total + best):
        s.events.append(EntryFailed(s.pid, t.total, s.rules.entry_minimum))
        end_turn(s)


def _take(s: GameState, faces: tuple[int, ...], points: int) -> None:
    """Set kept dice aside; keeping every die on the table gives hot dice (six fresh dice)."""
    t = s.turn
    left = len(t.roll) - len(faces)
    t.total += points
    t.set_aside += faces
    t.roll = ()
    s.events.append(Kept(s.pid, points, faces, t.total))
    if left:
        t.dice_left = left
    else:
        t.dice_left, t.hot_dice = 6, True
        s.events.append(HotDice(s.pid, t.total))


def _bank(s: GameState) -> None:
    t, side = s.turn, s.sides[s.side]
    rules = s.rules
    side.bank += t.total
    side.farkle_streak = 0
    side.on_board = True
    excess = side.bank - rules.target if rules.end_rule == "exact" and side.bank > rules.target else 0
    side.bank -= excess
    s.events.append(Banked(s.pid, t.total, side.bank))
    recipient = give_overflow(s, excess) if excess else None
    for reached in (s.side, recipient):
        if reached is not None and s.sides[reached].bank >= rules.target:
            reach_target(s, reached)
    offer = None  # dice left unused (1-5: hot dice leave none) and the points they carry
    if rules.piggyback != "off" and not t.hot_dice:
        offer = (t.dice_left, t.total if rules.piggyback == "previous_points" else rules.piggyback_bonus)
    end_turn(s, score=t.total, offer=offer)


def _farkle(s: GameState) -> None:
    side = s.sides[s.side]
    s.events.append(Farkled(s.pid, s.turn.total))
    side.farkle_streak += 1
    rule = s.rules.three_farkles
    if side.farkle_streak >= _FARKLES_FOR_PENALTY and rule != "none":
        before = side.bank
        side.bank = before - 1000 if rule == "minus_1000" else 0
        side.farkle_streak = 0
        s.events.append(ThreeFarkles(s.pid, side.bank - before, side.bank))
    end_turn(s)


def _penalize(s: GameState) -> None:
    """Penalty roll: the turn ends and the bank drops, but not below 0 (nor further if already below)."""
    side = s.sides[s.side]
    before = side.bank
    side.bank = max(before + cast(int, s.rules.penalty_roll), min(before, 0))
    s.events.append(PenaltyRoll(s.pid, side.bank - before, side.bank))
    end_turn(s)


def _win_at_once(s: GameState, faces: tuple[int, ...], points: int) -> None:
    t = s.turn
    t.total += points
    t.set_aside += faces
    t.roll = ()
    s.events.append(Kept(s.pid, points, faces, t.total))
    finish(s, "instant_win", [s.side])
