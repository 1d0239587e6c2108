"""One player's numbers in a game, from its event log: the results board and the archive read them."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import Event
from bot.engine.history import Banked, Farkled, HotDice, TurnStarted


@dataclass(frozen=True)
class PlayerNumbers:
    turns: int = 0
    points: int = 0
    best_turn: int = 0
    farkles: int = 0
    hot_dice: int = 0


def numbers_of(events: tuple[Event, ...], player: str) -> PlayerNumbers:
    """Turns, points banked, best turn, Farkles and hot dice for one player."""
    turns = points = best = farkles = hot = 0
    for event in events:
        if getattr(event, "player", None) != player:
            continue
        match event:
            case TurnStarted():
                turns += 1
            case Banked(points=banked):
                points += banked
                best = max(best, banked)
            case Farkled():
                farkles += 1
            case HotDice():
                hot += 1
    return PlayerNumbers(turns, points, best, farkles, hot)
