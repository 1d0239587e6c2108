"""What a member's press or opening hands the session layer, as one value each (the cogs build them)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Press:
    """One press of a game's button as the session layer reads it: the game and the drawing (`seq`) its
    custom id named, in which channel, by whom, and the action with its argument (a die, a level)."""

    channel_id: int
    game_id: str
    seq: str
    user_id: int
    name: str
    action: str
    arg: str | None = None


@dataclass(frozen=True, slots=True)
class Host:
    """A member opening a lobby: in which server (None: a DM) and channel, who, by which name."""

    guild_id: int
    channel_id: int
    user_id: int
    name: str
