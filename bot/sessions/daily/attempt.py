"""A member's daily attempt as the layers above see it: what the board draws and achievements judge."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from bot.engine import farkle_chance
from bot.engine.daily import RULES, TURNS, DailyGame, TurnEnd
from bot.engine.scoring import score_dice


@dataclass(frozen=True)
class DailyAttempt:
    user_id: int
    name: str
    guild_id: int | None
    day: int
    score: int
    turn_number: int
    rolls: int
    roll: tuple[int, ...]  # the dice to keep from (empty before a turn's first roll)
    selected: tuple[int, ...]  # positions in `roll` the player picked
    turn_total: int
    dice_left: int
    ends: tuple[TurnEnd, ...]  # each finished turn: banked, farkled or hot (banked after hot dice)
    turn_points: tuple[int, ...]
    kept: tuple[tuple[int, ...], ...]  # every keep's faces, sorted
    finished: bool
    set_aside: tuple[int, ...] = ()  # this turn's kept dice
    selection_points: int | None = 0  # what the selected dice score (None: they don't)
    farkle_chance: Fraction | None = None  # of the roll the Roll button makes

    @property
    def dice_to_roll(self) -> int:
        """How many dice Roll throws with this selection (keeping every die: six, hot dice)."""
        return _to_roll(self.roll, self.dice_left, self.selected)

    @property
    def seq(self) -> str:
        """Moves only when dice are thrown or a turn passes (never on a pick): like a game board's seq."""
        return f"{self.turn_number}-{self.rolls}" if not self.finished else f"{TURNS}-over"

    @property
    def line(self) -> str:
        """The stored turn line: one letter a turn (b banked, f farkled, h hot dice)."""
        return "".join(end[0] for end in self.ends)

    @classmethod
    def of(
        cls, game: DailyGame, user_id: int, name: str, guild_id: int | None, selected: tuple[int, ...]
    ) -> DailyAttempt:
        return cls(
            user_id=user_id,
            name=name,
            guild_id=guild_id,
            day=game.day,
            score=game.score,
            turn_number=game.turn_number,
            rolls=game.rolls,
            roll=game.roll,
            selected=selected,
            turn_total=game.turn_total,
            dice_left=game.dice_left,
            ends=tuple(end for end, _ in game.turns),
            turn_points=tuple(points for _, points in game.turns),
            kept=tuple(game.kept),
            finished=game.finished,
            set_aside=game.set_aside,
            selection_points=_points(game.roll, selected),
            farkle_chance=farkle_chance(_to_roll(game.roll, game.dice_left, selected), RULES)
            if not game.finished
            else None,
        )


def _points(roll: tuple[int, ...], selected: tuple[int, ...]) -> int | None:
    """What the selected dice score; None when they don't all score."""
    if not selected:
        return 0
    faces = tuple(sorted(roll[p] for p in selected if 0 <= p < len(roll)))
    return score_dice(faces, RULES) or None


def _to_roll(roll: tuple[int, ...], dice_left: int, selected: tuple[int, ...]) -> int:
    return ((dice_left - len(selected)) or 6) if roll else dice_left
