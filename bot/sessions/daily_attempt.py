"""A member's daily attempt as the layers above see it: what the board draws and achievements judge."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.daily import TURNS, DailyGame, TurnEnd


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
        )
