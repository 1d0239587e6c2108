"""The buttons a member can press on a lobby or board: one vocabulary for render, manager and cogs."""

from __future__ import annotations

from enum import StrEnum


class ButtonAction(StrEnum):
    # a turn
    PICK = "pick"
    DROP = "drop"
    ROLL = "roll"
    BANK = "bank"
    PIGGYBACK = "piggyback"
    # a lobby
    JOIN = "join"
    TEAM = "team"
    CPU = "cpu"
    UNSEAT = "uncpu"  # the host removes a computer: arg is its number
    LEAVE = "leave"
    START = "start"
    CANCEL = "cancel"
    # a finished game
    REMATCH = "rematch"
    # advice for the player to move: asks, changes nothing
    HINT = "hint"

    @classmethod
    def parse(cls, text: str) -> ButtonAction | None:
        """The action a custom id names; None for anything else (a forged or retired id)."""
        try:
            return cls(_RETIRED.get(text, text))
        except ValueError:
            return None


# Ids drawn by earlier versions of the bot, still on boards posted before an upgrade.
_RETIRED = {"piggy": ButtonAction.PIGGYBACK.value}

TURN_ACTIONS = frozenset(
    {ButtonAction.PICK, ButtonAction.DROP, ButtonAction.ROLL, ButtonAction.BANK, ButtonAction.PIGGYBACK}
)
LOBBY_ACTIONS = frozenset(
    {
        ButtonAction.JOIN,
        ButtonAction.TEAM,
        ButtonAction.CPU,
        ButtonAction.UNSEAT,
        ButtonAction.LEAVE,
        ButtonAction.START,
        ButtonAction.CANCEL,
    }
)
