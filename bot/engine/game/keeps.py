"""What the player to move may do, judged without changing anything: whether a keep scores, whether the
turn total may be banked, the entry rules, and the preview and move list the buttons and computer players
read. Every refusal here is an `IllegalAction` in words for the player; nothing here changes the game
(but the legal moves it keeps until the next action)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.game.state import GameState
from bot.engine.game.types import GAME_OVER, Action, IllegalAction
from bot.engine.messages import Listing, Message
from bot.engine.scoring import wins_at_once

_POSITIONS = tuple(frozenset(range(n)) for n in range(7))
ROLL_FIRST = Message("Roll the dice first.")
ROLL_BEFORE_KEEPING = Message("Roll the dice before keeping any.")


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


def preview(s: GameState, keep: Sequence[int]) -> KeepPreview:
    """What keeping these positions would mean, for enabling and labelling the buttons."""
    t = s.turn
    if s.result is not None:
        return KeepPreview(None, GAME_OVER, 0, t.total, False, False, None)
    if s.phase == "turn_start":
        error = ROLL_BEFORE_KEEPING if keep else None
        return KeepPreview(None, error, 6, 0, error is None, False, ROLL_FIRST)
    try:
        faces, points = judge_keep(s, tuple(keep))
    except IllegalAction as refused:
        return KeepPreview(None, refused.message, t.dice_left, t.total, False, False, None)
    hot = len(faces) == len(t.roll)
    blocked = bank_blocked(s, t.total + points, hot) if not wins_at_once(faces, s.rules) else None
    dice_to_roll = 6 if hot else len(t.roll) - len(faces)
    return KeepPreview(
        points if faces else None, None, dice_to_roll, t.total + points, True, blocked is None, blocked
    )


def legal_actions(s: GameState) -> tuple[Action, ...]:
    """The current player's moves, one keep per distinct scoring selection (leave/timeout not listed).

    Kept until the next action: a board asks for them up to three times (its chances, "Bank all", a
    computer's or the Hint's choice), and only an action changes them."""
    played = len(s.history)
    if s.legal is None or s.legal[0] != played:
        s.legal = (played, list_legal_actions(s))
    return s.legal[1]


def points_of(s: GameState, faces: tuple[int, ...]) -> int:
    """The points of keeping these sorted faces, known to score (a legal move's keep); none kept: 0."""
    return s.tables.score[faces] if faces else 0


def list_legal_actions(s: GameState) -> tuple[Action, ...]:
    """The current player's moves, listed afresh (`legal_actions` keeps them between actions)."""
    if s.seat is None or s.result is not None:
        return ()
    player, t = s.ids[s.seat], s.turn
    if s.phase == "turn_start":
        pig = (Action("piggyback", player),) if t.piggyback_dice is not None else ()
        return (Action("roll", player), *pig)
    if not t.roll:
        blocked = bank_blocked(s, t.total, True)
        return (Action("roll", player),) + (() if blocked else (Action("bank", player),))
    moves: list[Action] = []
    for option in s.tables.options[tuple(sorted(t.roll))]:
        if entry_short(s, t.total + option.points):
            continue
        keep = _positions(t.roll, option.dice)
        moves.append(Action("roll", player, keep))
        hot = len(keep) == len(t.roll)
        if wins_at_once(option.dice, s.rules) or not bank_blocked(s, t.total + option.points, hot):
            moves.append(Action("bank", player, keep))
    return tuple(moves)


def best_bank(s: GameState) -> tuple[tuple[int, ...], int] | None:
    """The bank that banks the most now and its turn total (the first of equals, in `legal_actions`'
    order): what "Bank all" and a timed-out turn bank. One pass over the roll's scoring options, where
    previewing every bank judged each keep again (a tenth of a Roll's CPU, on every fresh roll)."""
    best: tuple[tuple[int, ...], int] | None = None
    for action in legal_actions(s):
        if action.kind != "bank":
            continue
        faces = tuple(sorted(s.turn.roll[position] for position in action.keep))
        total = s.turn.total + points_of(s, faces)
        if best is None or total > best[1]:
            best = (action.keep, total)
    return best


# ---------------------------------------------------------------------- judging one keep or bank


def judge_keep(s: GameState, keep: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """Sorted faces and points of keeping these positions now, or the player's reason why not."""
    t = s.turn
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
    points = s.tables.score.get(faces)
    if points is None:
        raise IllegalAction(_no_score_message(s, faces))
    if entry_short(s, t.total + points):
        raise IllegalAction(
            Message("You need {points} on this roll to get on the board.", points=s.rules.entry_minimum)
        )
    return faces, points


def _no_score_message(s: GameState, faces: tuple[int, ...]) -> Message:
    """Name the dice left over by the largest scoring part of the selection ("The 3 doesn't score.")."""
    options = s.tables.options[faces]
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
    return Message.plural("The {dice} doesn't score.", "The {dice} don't score.", len(leftover), dice=dice)


def bank_blocked(s: GameState, total: int, hot: bool) -> Message | None:
    """Why banking this turn total is refused, or None."""
    rules = s.rules
    if hot and rules.hot_dice == "forced":
        return Message("Hot dice must be rolled.")
    if not s.sides[s.side].on_board and total < rules.entry_minimum:
        return Message("You need {points} to get on the board.", points=rules.entry_minimum)
    if total < rules.bank_minimum:
        return Message("You need {points} to bank.", points=rules.bank_minimum)
    return None


def entry_short(s: GameState, total: int) -> bool:
    """From the entry roll limit on, a side not yet on the board must reach the entry with this roll."""
    limit = s.entry_limit
    return (
        limit is not None
        and s.turn.rolls >= limit
        and total < s.rules.entry_minimum
        and not s.sides[s.side].on_board
    )


def _positions(roll: tuple[int, ...], faces: tuple[int, ...]) -> tuple[int, ...]:
    """Positions in the roll showing these faces (the first free die of each face)."""
    taken: list[int] = []
    for face in faces:
        taken.append(next(p for p, f in enumerate(roll) if f == face and p not in taken))
    return tuple(taken)
