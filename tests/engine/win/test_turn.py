"""A turn's values solved by the reader (NumPy), as master and the Hint read them, agree with the
solver's tables."""

from __future__ import annotations

from itertools import product

import pytest

from tests.engine.win.solved import SMALL, tables


@pytest.mark.parametrize("name", sorted(SMALL))
def test_the_readers_turn_solve_agrees_with_the_compiled_solver(name: str) -> None:
    """Master and the Hint solve a turn with NumPy (`winturn`), the solver with Numba: rolling six dice at
    a turn total of 0 is the turn's start, which the solved table holds, for every state."""
    solved = tables(name)
    unit, low = solved.unit, -solved.rules.target
    banks = [b for b in range(low, solved.rules.target, unit) if solved.covers(b)]
    streaks = range(3) if solved.rules.three_farkles != "none" else range(1)
    for bank, other, mine, theirs in product(banks[::7], banks[::5], streaks, streaks):
        turn = solved.turn(bank, other, mine, theirs)
        assert turn.rolling(0, 6) == pytest.approx(solved.value(bank, other, mine, theirs), abs=1e-7)
