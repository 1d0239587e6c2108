"""A kept turn holds only its first turn totals (`KEPT_TOTALS`), and reads the whole turn past them: every
chance shown and every decision master makes equals the whole turn's, the way the tables read before."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.dice import SeededDice
from bot.engine.game import Game
from bot.engine.master import Master, win_chances
from bot.engine.review import live_chances
from bot.engine.strategies import Expert
from bot.engine.win.tables import KEPT_TOTALS, TurnValues, WinTables
from tests.engine.test_winprob import SMALL, tables
from tests.solved import policies_for


class WholeTurns(WinTables):
    """The reference: every turn solved whole, nothing kept (as the tables read before the cut)."""

    def turn(self, bank: int, other: int, mine: int = 0, theirs: int = 0) -> TurnValues:
        return self._solve_whole_turn(bank, other, mine, theirs)


def reference(kept: WinTables) -> WholeTurns:
    return WholeTurns(kept.rules, kept.margin, kept._values)


def test_a_kept_turn_is_smaller_and_reads_every_total_as_the_whole_turn() -> None:
    kept = tables("plain")
    whole = reference(kept)
    turn, every = kept.turn(0, 0), whole.turn(0, 0)
    assert len(turn._rolling) == KEPT_TOTALS < len(every._rolling), "the plain rules' turn runs past it"
    for total in range(0, (len(every._rolling) + 2) * kept.unit, kept.unit):
        for dice in range(6):
            assert turn.rolling(total, dice) == every.rolling(total, dice), (total, dice)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(SMALL)), st.integers(0, 2**32 - 1))
def test_every_chance_and_every_master_decision_equals_the_whole_turns(name: str, seed: int) -> None:
    kept = tables(name)
    whole = reference(kept)
    rules = kept.rules
    master, expert = Master(Expert(rules, policies_for(rules)), kept), Expert(rules, policies_for(rules))
    slow = Master(expert, whole)
    game = Game.new(rules, ["a", "b"], SeededDice(seed))
    picker = random.Random(seed)
    while game.result is None:
        assert win_chances(game, kept) == win_chances(game, whole)
        assert live_chances(game, kept) == live_chances(game, whole)
        chosen = master.choose(game)
        assert chosen == slow.choose(game)
        # half the moves at random: long turns, and states master would not reach
        game.apply(picker.choice(game.legal_actions()) if picker.random() < 0.5 else chosen)
