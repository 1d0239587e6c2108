"""The keep a bank makes when the player names none: "Bank all" with nothing selected, and a timed-out
turn. One function, so the board's "Bank all 1,050" is what a press (or the clock) banks."""

from __future__ import annotations

from bot.engine import Game


def banking_keep(game: Game, selection: tuple[int, ...]) -> tuple[int, ...] | None:
    """The player's selection if it banks, else the keep that banks the most; None when no bank is
    legal."""
    if game.preview(selection).can_bank:
        return selection
    best = game.best_bank()
    return None if best is None else best[0]


def bank_all(game: Game, selection: tuple[int, ...]) -> int | None:
    """What Bank banks with nothing selected on a roll on the table: the best keep's turn total (None
    with a selection, with no roll, or where no bank is legal)."""
    if selection or game.phase != "choosing" or not game.turn.roll:
        return None
    best = game.best_bank()
    return None if best is None else best[1]
