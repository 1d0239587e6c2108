"""The game's vocabulary, shared by every layer of it and by its readers: an action, the refusal of one,
what the board reads of a seat and of the turn, and how the game ended."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypeAlias, cast

from bot.engine.errors import UserFacingError
from bot.engine.messages import Message
from bot.engine.saved import JSON, json_ints

Phase: TypeAlias = Literal["turn_start", "choosing", "over"]
ActionKind: TypeAlias = Literal["roll", "bank", "piggyback", "leave", "timeout"]
EndReason: TypeAlias = Literal["target", "instant_win", "last_loses", "players_left"]

GAME_OVER = Message("The game is over.")


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
