"""The daily challenge: one solo game of ten turns under classic rules, the same dice for everyone that day.

A roll's faces depend only on (day, turn, roll number within the turn): six faces are drawn for each
such triple from a generator seeded by their hash, and a throw of k < 6 dice shows the first k. Two
players who keep different dice therefore still face the same rolls. A game is its day and its actions,
so its JSON is small and loading it replays the actions (deterministic).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from bot.engine.errors import UserFacingError
from bot.engine.messages import Message
from bot.engine.rules import Ruleset
from bot.engine.scoring import best_points, score_dice
from bot.engine.solver import TurnPolicy

TURNS = 10
DAY_SECONDS = 86_400
RULES = Ruleset.preset("classic")

TurnEnd = Literal["banked", "farkled", "hot"]  # "hot": banked after hot dice


class DailyRefusal(UserFacingError):
    """A move the daily game refuses; its message is shown to the player."""


class DailyDice:
    """The day's dice: `faces(turn, roll)` is the same for everyone, whatever they kept before."""

    __slots__ = ("day",)

    def __init__(self, day: int) -> None:
        self.day = day

    def faces(self, turn: int, roll: int, n: int = 6) -> tuple[int, ...]:
        """The first `n` of the six faces drawn for this day's `turn` (1-10) and `roll` (1, 2, …)."""
        digest = hashlib.sha256(f"farkle-daily:{self.day}:{turn}:{roll}".encode()).digest()
        draw = random.Random(int.from_bytes(digest[:8], "big"))
        return tuple(draw.randint(1, 6) for _ in range(6))[:n]


def day_of(epoch_seconds: float) -> int:
    """The UTC day number (days since 1970-01-01) an instant falls on."""
    return int(epoch_seconds // DAY_SECONDS)


@dataclass
class _Turn:
    rolls: int = 0
    roll: tuple[int, ...] = ()
    dice_left: int = 6
    total: int = 0
    hot: bool = False
    aside: tuple[int, ...] = ()  # the faces kept this turn, in the order kept


@dataclass
class DailyGame:
    """One member's attempt: `roll(keep)` and `bank(keep)` take positions in the current roll."""

    day: int
    score: int = 0
    turns: list[tuple[TurnEnd, int]] = field(default_factory=list)  # each finished turn and its points
    actions: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    kept: list[tuple[int, ...]] = field(default_factory=list)  # every keep's faces, sorted
    selected: tuple[int, ...] = ()  # positions the player picked in the current roll, not yet kept
    _turn: _Turn = field(default_factory=_Turn)

    @property
    def dice(self) -> DailyDice:
        return DailyDice(self.day)

    @property
    def finished(self) -> bool:
        return len(self.turns) >= TURNS

    @property
    def turn_number(self) -> int:
        """1-10 while playing (the turn in progress), 10 once finished."""
        return min(len(self.turns) + 1, TURNS)

    @property
    def rolls(self) -> int:
        return self._turn.rolls

    @property
    def roll(self) -> tuple[int, ...]:
        """The dice on the table to keep from (empty before the turn's first roll)."""
        return self._turn.roll

    @property
    def turn_total(self) -> int:
        return self._turn.total

    @property
    def dice_left(self) -> int:
        return self._turn.dice_left

    @property
    def set_aside(self) -> tuple[int, ...]:
        """The dice kept this turn (hot dice: all six, then those kept since)."""
        return self._turn.aside

    def pick(self, position: int, picked: bool) -> None:
        """Select (or unselect) a die of the current roll; picking a picked die changes nothing."""
        self._check_open()
        if not 0 <= position < len(self._turn.roll):
            raise DailyRefusal(Message("There is no such die."))
        chosen = set(self.selected) | {position} if picked else set(self.selected) - {position}
        self.selected = tuple(sorted(chosen))

    def roll_dice(self, keep: Sequence[int] = ()) -> None:
        """Keep these positions (none before the first roll of a turn) and throw the dice left."""
        self._check_open()
        turn = self._turn
        if turn.rolls:
            self._take(keep)
        elif keep:
            raise DailyRefusal(Message("Roll the dice before keeping any."))
        turn.rolls += 1
        turn.roll = self.dice.faces(len(self.turns) + 1, turn.rolls, turn.dice_left)
        self.actions.append(("roll", tuple(keep)))
        if best_points(turn.roll, RULES) == 0:
            self._end_turn("farkled", 0)

    def bank(self, keep: Sequence[int] = ()) -> None:
        """Keep these positions and bank the turn's points."""
        self._check_open()
        if not self._turn.rolls:
            raise DailyRefusal(Message("Roll the dice first."))
        self._take(keep)
        self.actions.append(("bank", tuple(keep)))
        self._end_turn("hot" if self._turn.hot else "banked", self._turn.total)

    def _check_open(self) -> None:
        if self.finished:
            raise DailyRefusal(Message("Today's daily is over: come back tomorrow."))

    def _take(self, keep: Sequence[int]) -> None:
        turn = self._turn
        positions = sorted(set(keep))
        if not positions or any(not 0 <= p < len(turn.roll) for p in positions):
            raise DailyRefusal(Message("Select the dice to keep first."))
        faces = tuple(sorted(turn.roll[p] for p in positions))
        points = score_dice(faces, RULES)
        if not points:
            raise DailyRefusal(Message("Every kept die must score."))
        self.kept.append(faces)
        self.selected = ()
        turn.aside += faces
        turn.total += points
        turn.dice_left -= len(faces)
        turn.roll = ()
        if turn.dice_left == 0:
            turn.dice_left, turn.hot = 6, True

    def _end_turn(self, end: TurnEnd, points: int) -> None:
        self.turns.append((end, points))
        self.score += points
        self._turn = _Turn()

    def to_json(self) -> str:
        actions = [[kind, list(keep)] for kind, keep in self.actions]
        return json.dumps({"day": self.day, "actions": actions, "selected": list(self.selected)})

    @classmethod
    def from_json(cls, text: str) -> DailyGame:
        """The attempt these actions produce on its day (a replay: the dice depend only on the day)."""
        data = json.loads(text)
        game = cls(int(data["day"]))
        for kind, keep in data["actions"]:
            (game.roll_dice if kind == "roll" else game.bank)([int(p) for p in keep])
        game.selected = tuple(int(p) for p in data.get("selected", []))
        return game


def expert_score(day: int, policy: TurnPolicy) -> int:
    """What the `expert` level (the turn solver: most expected points per turn) scores on the day's dice.

    Ten solo turns add up, so maximising each turn's expected points is the expert's whole plan.
    Deterministic: `policy` is the turn policy of `RULES` (a game of hundreds of decisions: off the loop).
    """
    game = DailyGame(day)
    while not game.finished:
        turn = len(game.turns)
        game.roll_dice()
        while len(game.turns) == turn:  # until this turn farkles or banks
            decision = policy.decide(game.roll, game.turn_total, game.rolls)
            keep = _positions(game.roll, decision.keep)
            if decision.bank:
                game.bank(keep)
            else:
                game.roll_dice(keep)
    return game.score


def _positions(roll: tuple[int, ...], faces: tuple[int, ...]) -> tuple[int, ...]:
    """Positions in `roll` showing these faces (each position used once)."""
    free = list(range(len(roll)))
    chosen = []
    for face in faces:
        position = next(p for p in free if roll[p] == face)
        free.remove(position)
        chosen.append(position)
    return tuple(chosen)


def streaks(days: Sequence[int], today: int) -> tuple[int, int]:
    """(current, best) runs of consecutive days played; the current run may end today or yesterday (a
    member who has not played yet today keeps their streak until the day is over)."""
    best = run = 0
    previous = None
    for day in sorted(set(days)):
        run = run + 1 if previous == day - 1 else 1
        best, previous = max(best, run), day
    current = run if previous is not None and previous >= today - 1 else 0
    return current, best
