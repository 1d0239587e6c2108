"""Win tables as stored and read: bytes round trips, raw bodies read in place, damaged ones refused,
turns laid out and kept when first asked, and the rules they do not model refused. A kept turn holds only
its first turn totals (`KEPT_TOTALS`) and reads the whole turn past them: every chance shown and every
decision master makes equals the whole turn's, the way the tables read before."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.dice import SeededDice
from bot.engine.game import Game
from bot.engine.master import Master, win_chances
from bot.engine.review import live_chances
from bot.engine.rules import Ruleset
from bot.engine.strategies import Expert
from bot.engine.win import tables as winprob
from bot.engine.win.game import win_game
from bot.engine.win.solve import solve_winprob
from bot.engine.win.tables import KEPT_TOTALS, TurnValues, WinTables, table_key, unsupported
from tests.engine.win.solved import SMALL, tables
from tests.solved import policies_for


def test_tables_round_trip_through_bytes() -> None:
    solved = tables("entry")
    data = solved.to_bytes()
    loaded = WinTables.from_bytes(data)
    assert loaded.key == solved.key == table_key(SMALL["entry"])
    assert loaded.value(500, 1000) == pytest.approx(solved.value(500, 1000), abs=1e-6)
    assert len(data) < 8 * (solved.rules.target // solved.unit) ** 2, (
        "stored compactly (float32 turn-start values)"
    )
    with pytest.raises(ValueError, match="not win tables"):
        WinTables.from_bytes(b"garbage")
    with pytest.raises(ValueError):
        WinTables.from_bytes(data[:-10])


def test_raw_tables_are_read_in_place_from_an_aligned_body() -> None:
    """The shipped form: float32 values uncompressed after a header padded to 16 bytes, so a
    memory-mapped file is read where it lies, not copied."""
    solved = tables("entry")
    raw = bytearray(solved.to_bytes(compress=False))
    loaded = WinTables.from_bytes(memoryview(raw))
    assert loaded.value(500, 1000) == WinTables.from_bytes(solved.to_bytes()).value(500, 1000)
    body = len(raw) - 4 * solved.rules.target // solved.unit * (solved.rules.target // solved.unit)
    assert body % 16 == 0
    raw[body : body + 4] = np.float32(0.25).tobytes()  # the first value, changed where it lies
    assert loaded.value(0, 0) == 0.25, "the values are the buffer itself"
    with pytest.raises(ValueError, match="damaged"):
        WinTables.from_bytes(bytes(raw[:-3]))


def test_a_body_the_size_of_other_rules_is_refused_as_damaged_when_first_read() -> None:
    """Loading checks the body is whole (a square of banks); the banks its rules have in play are checked
    when a game first reads them, since that needs the rules' scoring tables."""
    entry, other = tables("entry"), tables("plain")
    assert entry._size != other._size
    body = other.to_bytes(compress=False)[-other._values.size * 4 :]  # float32 values
    head = entry.to_bytes(compress=False)[: -entry._values.size * 4]
    mismatched = WinTables.from_bytes(head + body)
    with pytest.raises(ValueError, match="damaged"):
        mismatched.value(0, 0)


def test_the_turn_layout_is_made_at_the_first_turn_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every preset's tables load at start-up; the rolls and banks a turn is solved with (up to 1 MB a
    ruleset) are laid out only for rules someone plays, once."""
    laid_out: list[Ruleset] = []
    monkeypatch.setattr(
        winprob, "win_game", lambda rules, margin: laid_out.append(rules) or win_game(rules, margin)
    )
    loaded = WinTables.from_bytes(tables("entry").to_bytes())
    assert 0.5 < loaded.first_player_win < 0.6 and loaded.covers(500) and 0 < loaded.value(500, 0) < 1
    assert laid_out == [], "loading and reading turn starts need no layout"
    loaded.turn(500, 0)
    loaded.bank_value(0, 0, 500)
    loaded.turn(0, 500)
    assert laid_out == [loaded.rules]


def test_rules_the_tables_do_not_model_are_refused() -> None:
    for name in ("classic", "last-loses", "family"):
        assert unsupported(Ruleset.preset(name)) is None, name
    reason = "an entry minimum with banks that can fall back"
    assert str(unsupported(Ruleset(entry_minimum=500, three_farkles="minus_1000"))) == reason
    assert str(unsupported(Ruleset(entry_minimum=500, penalty_roll=-500))) == reason
    with pytest.raises(ValueError, match="don't model teams"):
        solve_winprob(Ruleset(teams=2, target=20000))


def test_a_turn_is_solved_once_while_hundreds_of_games_play_theirs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Live odds and master read the turn's values at every roll; rolls in many games interleave, so a
    cache that keeps fewer turns than the games in play would solve every one of them again each time."""
    solved: list[tuple[int, int]] = []
    solve = WinTables._solve_turn

    def counted(self: WinTables, bank: int, other: int, mine: int, theirs: int) -> object:
        solved.append((bank, other))
        return solve(self, bank, other, mine, theirs)

    monkeypatch.setattr(WinTables, "_solve_turn", counted)
    fresh = WinTables.from_bytes(tables("plain").to_bytes())  # its own turns kept, none yet
    states = [(bank, other) for bank in range(0, 1000, 50) for other in range(0, 1000, 50)][:300]
    for _ in range(3):  # three rolls in each game's turn, the games taking turns
        for bank, other in states:
            fresh.turn(bank, other)
    assert len(solved) == len(states)
    kept = fresh.turn(0, 0)._rolling
    assert kept.dtype == np.float32, "a kept turn takes twice the memory it needs (the tables are float32)"


# ---------------------------------------------------------------- a kept turn, and the whole turn past it


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
