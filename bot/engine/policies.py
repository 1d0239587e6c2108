"""One ruleset's solved turns as a handle, in the way of python-chess's `open_tablebase(...)` → `probe_wdl`:
solved once by its owner (the session layer, off the event loop), then handed to every computer, Hint and
review under those rules. Nothing in the engine solves a turn behind a caller's back: without a handle
there is no expert to ask."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.reach import ReachTable
from bot.engine.rules import Ruleset
from bot.engine.solver import TurnPolicy, solve_turn


@dataclass(frozen=True)
class TurnPolicies:
    """The turn policy on and off the board (the same one without an entry minimum), and the chase of a
    leader, for every ruleset with the same turn (`Ruleset.key`)."""

    on_board: TurnPolicy
    off_board: TurnPolicy
    reach: ReachTable

    def __post_init__(self) -> None:
        if self.on_board.rules.key() != self.off_board.rules.key():
            raise ValueError("These turn policies were solved for different rules.")

    @classmethod
    def of(cls, on_board: TurnPolicy, off_board: TurnPolicy) -> TurnPolicies:
        """From policies solved (or loaded) before; the chase table is made here (a few milliseconds)."""
        return cls(on_board, off_board, ReachTable(on_board.rules))

    @classmethod
    def solve(cls, rules: Ruleset) -> TurnPolicies:
        """Solve both policies: a fraction of a second, so never on the event loop."""
        on_board = solve_turn(rules, True)
        off_board = on_board if rules.entry_minimum == 0 else solve_turn(rules, False)
        return cls.of(on_board, off_board)

    @property
    def key(self) -> str:
        return self.on_board.rules.key()

    def policy(self, on_board: bool) -> TurnPolicy:
        return self.on_board if on_board else self.off_board

    def serve(self, rules: Ruleset) -> TurnPolicies:
        """These policies, checked to play the turns of `rules` (a wrong handle is a bug, said at once)."""
        if rules.key() != self.key:
            raise ValueError(f"These turn policies are not for the {rules.name} rules' turns.")
        return self
