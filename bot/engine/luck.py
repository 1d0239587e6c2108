"""Luck and skill apart: each move's change in value split into what the decision gave away and what the
dice did; the turning point; the first player's chance over the game (docs/LUCK_AND_SKILL.md).

Values are in the review's measure, seen by the player who moves: `win`, their chance to win; `turn`, the
expected points of their turn. Each move of the game the measure values is a `Moment`:
- `before`: the value of the best move (what the position is worth played optimally);
- `played`: the value of the move played, before its dice fall (`before` for a best or only move);
- `after`: the value of the next moment, seen by this mover (1 − it when the other player moves next); at
  the end, the outcome (`win`: 1 won, 0 lost; `turn`: the points the turn added to the mover's bank).
The decision part is `played − before` (≤ 0, 0 for a best move), the dice part `after − played`; so each
moment's parts sum to `after − before`, and summed over the game they telescope to the outcome minus the
starting value. A move no table values (a timeout, leaving, passing up an instant win) counts whole as
decision; a position no table values (outside the tables) is no moment: its change falls to the dice of
the moment before. In `turn`, only turns whose every move is valued count (a last chance to pass the
leader, or an instant win, is not about points).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Literal

Measure = Literal["win", "turn"]
Part = Literal["decision", "dice"]
PARTS: tuple[Part, ...] = ("decision", "dice")


@dataclass(frozen=True)
class Step:
    """What the review's replay notes of one action, before the moments are linked up."""

    player: str
    turn: int  # the game's turn number
    event: int  # index of the first event the action caused (the review's decisions use the same)
    kind: str  # the action's kind: roll, bank, piggyback, timeout, leave
    rolled: tuple[int, ...]  # the dice its roll showed (empty without a roll)
    farkled: bool
    before: float | None  # the best move's value; None where the measure can't value the position
    played: float | None  # the played move's value; None where the move can't be valued
    banked: int  # what the action changed the mover's bank by


@dataclass(frozen=True)
class Moment:
    player: str
    turn: int
    event: int
    kind: str
    rolled: tuple[int, ...]
    farkled: bool
    before: float
    played: float
    after: float

    @property
    def decision(self) -> float:
        return self.played - self.before

    @property
    def dice(self) -> float:
        return self.after - self.played

    def part(self, part: Part) -> float:
        return self.decision if part == "decision" else self.dice


@dataclass(frozen=True)
class Split:
    """A player's game in two: what their decisions changed, and what the dice did, in their measure."""

    decisions: float
    dice: float


def linked(measure: Measure, steps: Sequence[Step], outcome: dict[str, float]) -> tuple[Moment, ...]:
    """The moments of a replayed game: each valued step with the value that followed it.
    `outcome`: each player's result (`win`: 1 for a win, 0 for a loss; unused in `turn`)."""
    if measure == "win":
        return _linked_win(steps, outcome)
    moments: list[Moment] = []
    for _, group in groupby(steps, key=lambda s: (s.turn, s.player)):
        turn = list(group)
        if all(s.before is not None for s in turn):
            points = float(sum(s.banked for s in turn))
            nexts = [_value(s) for s in turn[1:]] + [points]
            moments.extend(_moment(s, after) for s, after in zip(turn, nexts, strict=True))
    return tuple(moments)


def _linked_win(steps: Sequence[Step], outcome: dict[str, float]) -> tuple[Moment, ...]:
    valued = [s for s in steps if s.before is not None]
    moments = []
    for i, step in enumerate(valued):
        if i + 1 < len(valued):
            following = valued[i + 1]
            after = _value(following)
            after = after if following.player == step.player else 1.0 - after
        else:
            after = outcome[step.player]
        moments.append(_moment(step, after))
    return tuple(moments)


def _value(step: Step) -> float:
    if step.before is None:
        raise ValueError("a moment needs the value of its position")
    return step.before


def _moment(step: Step, after: float) -> Moment:
    played = step.played if step.played is not None else after
    return Moment(
        step.player,
        step.turn,
        step.event,
        step.kind,
        step.rolled,
        step.farkled,
        _value(step),
        played,
        after,
    )


def seen_by(measure: Measure, moment: Moment, player: str, value: float) -> float:
    """A change of the mover's value as `player` sees it: their own, or (two-sided chances) its opposite."""
    if moment.player == player:
        return value
    return -value if measure == "win" else 0.0


def split(measure: Measure, moments: Iterable[Moment], player: str) -> Split:
    """The player's decisions (their own moments) and the dice (`win`: every roll of the game, seen by them;
    `turn`: their own turns)."""
    decisions = dice = 0.0
    for moment in moments:
        if moment.player == player:
            decisions += moment.decision
        dice += seen_by(measure, moment, player, moment.dice)
    return Split(decisions, dice)


def turning_point(moments: Sequence[Moment]) -> tuple[Moment, Part] | None:
    """The single decision or roll with the biggest swing (the first of equals); None without a swing."""
    parts = [(abs(m.part(part)), -i, m, part) for i, m in enumerate(moments) for part in PARTS]
    if not parts:
        return None
    swing, _, moment, part = max(parts, key=lambda p: (p[0], p[1]))
    return (moment, part) if swing > 0 else None


def chances(moments: Sequence[Moment], first: str) -> list[float]:
    """The first player's chance to win before and after each decision, then the outcome: two points per
    moment (`before`, `played`) and the last `after`, so decisions and rolls are the lines between them."""
    points: list[float] = []
    for moment in moments:
        mine = moment.player == first
        points.extend(v if mine else 1.0 - v for v in (moment.before, moment.played))
    if moments:
        last = moments[-1]
        points.append(last.after if last.player == first else 1.0 - last.after)
    return points


# The skill rating: decision quality alone, on a friendly 0-100 scale (docs/LUCK_AND_SKILL.md). 100 gives
# nothing away; at `SKILL_HALF` of a chance to win given away per decision on average it is 50.
SKILL_HALF = 0.005


def skill(mean_loss: float) -> float:
    """The friendly skill of a mean chance to win given away per decision: 100 / (1 + mean / half)."""
    return 100.0 / (1.0 + max(mean_loss, 0.0) / SKILL_HALF)
