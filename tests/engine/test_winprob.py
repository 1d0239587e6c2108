"""Win-probability tables: exact on games small enough to solve by plain value iteration, probabilities
everywhere, and a master that plays legally and better than expert."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.dice import ScriptedDice, SeededDice
from bot.engine.game import Action, Game
from bot.engine.levels import strategy_for
from bot.engine.master import Master, chance_to_win, win_chances
from bot.engine.rules import Ruleset
from bot.engine.strategies import Expert
from bot.engine.win import kernels as winkernels
from bot.engine.win import tables as winprob
from bot.engine.win.game import WinGame, turn_rolls_from, win_game
from bot.engine.win.solve import settled, solve_game, solve_winprob
from bot.engine.win.tables import DEFAULT_MARGIN, WinTables, table_key, unsupported
from tests.solved import policies_for

SMALL = {
    "plain": Ruleset(target=1000),
    "entry": Ruleset(target=1500, entry_minimum=500, bank_minimum=300),
    "first wins": Ruleset(target=1500, end_rule="last_loses", straight=2500, three_pairs=1500),
    "piggyback": Ruleset(target=1500, piggyback="previous_points", hot_dice="forced", tie_rule="share"),
    "roll limit": Ruleset(target=1500, entry_minimum=500, entry_roll_limit=2, n_of_a_kind="doubling"),
    "three farkles": Ruleset(target=1000, three_farkles="reset", piggyback="previous_points"),
    "family": Ruleset(
        target=1500,
        n_of_a_kind="multiples",
        six_of_a_kind=1500,
        straight=1500,
        penalty_roll=-1000,
        bank_minimum=300,
        hot_dice="forced",
        piggyback="previous_points",
        end_rule="exact",
    ),
    "minus 1000": Ruleset(target=1500, three_farkles="minus_1000"),
    "six ones": Ruleset(target=3000, six_ones_instant_win=True),
}


@cache
def tables(name: str) -> WinTables:
    return solve_winprob(SMALL[name])


# ---------------------------------------------------------------- a toy game, solved two ways

# Two dice; a 1 scores 2 units, a 5 scores 1; any scoring dice may be kept. With the special rolls, two
# 6s are a penalty roll and two 1s win at once.
TOY_DICE = 2
TOY_SCORE = {1: 2, 5: 1}
TOY_PENALTY, TOY_INSTANT = (6, 6), (1, 1)


def toy_outcomes(special: bool = False) -> list[list[tuple[float, tuple[tuple[int, int], ...]]]]:
    by_dice = []
    for n in range(1, TOY_DICE + 1):
        grouped: dict[tuple[tuple[int, int], ...], float] = {}
        for roll in product(range(1, 7), repeat=n):
            if special and roll in (TOY_PENALTY, TOY_INSTANT):
                continue
            scoring = [TOY_SCORE[face] for face in roll if face in TOY_SCORE]
            keeps = set()
            for mask in range(1, 2 ** len(scoring)):
                kept = [s for bit, s in enumerate(scoring) if mask >> bit & 1]
                keeps.add((sum(kept), n - len(kept)))
            if keeps:
                key = tuple(sorted(keeps))
                grouped[key] = grouped.get(key, 0.0) + 6.0**-n
        by_dice.append(list(grouped.items()))
    return [[(p, keeps) for keeps, p in outcomes] for outcomes in by_dice]


def toy_turns(special: bool) -> object:
    chance = [0.0] * TOY_DICE + [1 / 36 if special else 0.0]  # per number of dice: only two dice
    return turn_rolls_from(toy_outcomes(special), chance, chance)


@dataclass(frozen=True)
class Toy:
    """A toy game's end and the rare events that lower a bank, for the solver and for brute force."""

    size: int
    ending: np.ndarray
    bank_from: list[int]
    forced: bool = False
    streaks: int = 1
    special: bool = False  # penalty roll and instant win
    penalty_to: list[int] | None = None
    reset_to: list[int] | None = None

    def game(self) -> WinGame:
        return WinGame(
            toy_turns(self.special),  # type: ignore[arg-type]
            self.size,
            self.ending,
            np.array(self.bank_from),
            self.forced,
            penalty_to=np.array(self.penalty_to or range(self.size)),
            reset_to=np.array(self.reset_to or [0] * self.size),
        )

    def solved(self, tol: float) -> np.ndarray:
        return solve_game(self.game(), tol, self.streaks)


def brute_force(toy: Toy) -> np.ndarray:
    """Plain value iteration over every (Farkles in a row, banks, turn total, dice) until nothing moves.

    With three streaks the third Farkle in a row lowers the bank (to 0 unless `reset_to` says).
    """
    size, ending, streaks = toy.size, toy.ending, toy.streaks
    outcomes = toy_outcomes(toy.special)
    penalty_to = toy.penalty_to or list(range(size))
    reset_to = toy.reset_to or [0] * size
    special = 1 / 36 if toy.special else 0.0
    reach = max(s for by_n in outcomes for _, keeps in by_n for s, _ in keeps)
    beyond = ending.shape[1]
    top = size + beyond + reach
    wins = np.full((streaks, streaks, size, size), 0.5)
    counts = (range(streaks), range(streaks), range(size), range(size), range(top), range(1, TOY_DICE + 1))
    rolling = dict.fromkeys(product(*counts), 0.5)

    def banked(b: int, i: int, j: int, t: int) -> float:
        s = i + t
        return 1.0 - wins[b, 0, j, s] if s < size else ending[j, min(s - size, beyond - 1)]

    def farkled(a: int, b: int, i: int, j: int) -> float:
        if streaks == 1:
            return 1.0 - wins[0, 0, j, i]
        return 1.0 - (wins[b, a + 1, j, i] if a < 2 else wins[b, 0, j, reset_to[i]])

    def after(a: int, b: int, i: int, j: int, t: int, left: int) -> float:
        if t > size + beyond - 1 - i:
            return ending[j, beyond - 1]  # past the last distinct bank value, as the solver rules
        roll_on = rolling[a, b, i, j, t, left or TOY_DICE]
        if t >= toy.bank_from[i] and (left or not toy.forced):
            return max(banked(b, i, j, t), roll_on)
        return roll_on

    for _ in range(10_000):
        change = 0.0
        for a, b, i, j, t, n in list(rolling):
            if t > size + beyond - 1 - i:
                continue
            rare = special if n == TOY_DICE else 0.0
            farkle = 1.0 - sum(p for p, _ in outcomes[n - 1]) - 2 * rare
            value = farkle * farkled(a, b, i, j) + rare * (1.0 - wins[b, a, j, penalty_to[i]]) + rare
            for p, keeps in outcomes[n - 1]:
                value += p * max(after(a, b, i, j, t + s, left) for s, left in keeps)
            change = max(change, abs(value - rolling[a, b, i, j, t, n]))
            rolling[a, b, i, j, t, n] = value
        for a, b, i, j in product(range(streaks), range(streaks), range(size), range(size)):
            change = max(change, abs(rolling[a, b, i, j, 0, TOY_DICE] - wins[a, b, i, j]))
            wins[a, b, i, j] = rolling[a, b, i, j, 0, TOY_DICE]
        if change < 1e-13:
            return wins
    raise AssertionError("value iteration did not converge")


def toy_ending(end: str, size: int) -> np.ndarray:
    if end == "first to the target":
        return np.ones((size, 1))
    # a made-up chance that the opponent fails to pass: falls with their bank, rises with ours
    return np.array([[0.9 - 0.1 * j + 0.02 * over for over in range(3)] for j in range(size)])


@pytest.mark.parametrize("forced", [False, True], ids=["optional hot dice", "forced hot dice"])
@pytest.mark.parametrize("end", ["first to the target", "last turn to pass"])
@pytest.mark.parametrize("entry", [0, 2])
def test_solver_matches_value_iteration_on_a_toy_game(end: str, forced: bool, entry: int) -> None:
    size = 6  # the target is 6 units (300 points)
    toy = Toy(size, toy_ending(end, size), [max(entry, 1)] + [1] * (size - 1), forced)
    assert np.allclose(toy.solved(1e-12), brute_force(toy), atol=1e-9)


@pytest.mark.parametrize("end", ["first to the target", "last turn to pass"])
def test_three_farkles_resetting_the_bank_match_value_iteration(end: str) -> None:
    size = 4
    toy = Toy(size, toy_ending(end, size), [1] * size, streaks=3)
    solved = toy.solved(1e-13)
    assert np.allclose(solved, brute_force(toy), atol=1e-9)
    assert solved[2, 0, 3, 1] < solved[0, 0, 3, 1], "two Farkles in a row put a bank at risk"


@pytest.mark.parametrize("streaks", [1, 3], ids=["no streaks", "third Farkle costs 2 units"])
@pytest.mark.parametrize("end", ["first to the target", "last turn to pass"])
def test_penalty_rolls_and_instant_wins_match_value_iteration(end: str, streaks: int) -> None:
    """A penalty roll costs 3 units (not below 0), two 1s win at once; with streaks a third Farkle in a
    row costs 2 units, from banks that start 1 unit below 0 (index 0)."""
    size = 5
    lowered = [max(i - 2, 0) for i in range(size)] if streaks > 1 else None
    toy = Toy(size, toy_ending(end, size), [1] * size, streaks=streaks, special=True,
              penalty_to=[max(i - 3, 0) for i in range(size)], reset_to=lowered)  # fmt: skip
    solved = toy.solved(1e-13)
    assert np.allclose(solved, brute_force(toy), atol=1e-9)
    plain = Toy(size, toy.ending, toy.bank_from, streaks=streaks, reset_to=lowered).solved(1e-13)
    assert not np.allclose(solved, plain, atol=1e-4), "the special rolls change the chances"


def test_farkles_that_keep_the_banks_are_solved_within_one_sweep() -> None:
    """When a third Farkle doesn't lower the bank, every Farkle leads among the states of the same two
    banks: one sweep solves them in the order the Farkles lead through them (round and round where they
    form a circle), and leaves nothing for a next sweep."""
    size = 4
    toy = Toy(size, toy_ending("last turn to pass", size), [1] * size, streaks=3, reset_to=list(range(size)))
    game = toy.game()
    values = np.full((3, 3, size, size), 0.5)
    winkernels.sweep_streaks(
        values, size, game.ending, game.bank_from, game.forced, game.penalty_to, game.reset_to,
        game.turns.kernel_args(), 1e-13,
    )  # fmt: skip
    assert np.allclose(values, brute_force(toy), atol=1e-9)


def test_sweeps_stop_once_what_is_left_to_move_is_bounded_under_tol() -> None:
    tol = 1e-8
    assert settled([0.5, 1e-9], tol), "a sweep that moves nothing by tol"
    assert not settled([0.5, 1e-5], tol), "one ratio of changes tells no rate yet"
    assert settled([1e-1, 1e-4, 1e-7], tol), "shrinking a thousand times a sweep: 4e-10 left"
    assert not settled([1e-2, 1e-5, 1e-6], tol), "the rate is the larger of the last two ratios"
    assert not settled([1e-4, 5e-5, 2.5e-5, 1.25e-5], tol), "slow sweeps run until one moves under tol"


def test_stopping_early_stays_within_tol_of_sweeping_until_still(monkeypatch: pytest.MonkeyPatch) -> None:
    """Last-loses to 3,000: the fourth sweep still moves ~5e-7, but the changes shrink ~50 times a sweep;
    the sweeps stop there, and the values are within tol of those of sweeping on until nothing moves."""
    rules = Ruleset(target=3000, three_farkles="reset", end_rule="last_loses")
    game = win_game(rules, DEFAULT_MARGIN)
    changes: list[float] = []
    sweep = winkernels.sweep_streaks

    def recorded(*args: object) -> float:
        changes.append(sweep(*args))  # type: ignore[arg-type]
        return changes[-1]

    monkeypatch.setattr(winkernels, "sweep_streaks", recorded)
    tol = 1e-7
    early = solve_game(game, tol, streaks=3)
    assert changes[-1] > tol and settled(changes, tol), "stopped by the bound, not by a still sweep"
    swept = len(changes)
    still = solve_game(game, 1e-12, streaks=3)
    assert len(changes) > 2 * swept, "sweeping until still takes more sweeps"
    assert np.abs(early - still).max() < tol


# ---------------------------------------------------------------- real rules, small targets


def all_values(solved: WinTables) -> np.ndarray:
    unit, top = solved.unit, solved.rules.target
    return np.array([[solved.value(i, j) for j in range(0, top, unit)] for i in range(0, top, unit)])


@pytest.mark.parametrize("name", sorted(SMALL))
def test_values_are_probabilities_and_moving_first_helps(name: str) -> None:
    solved = tables(name)
    values = all_values(solved)
    assert ((values >= 0) & (values <= 1)).all()
    if solved.rules.end_rule != "exact":  # where an opponent near the target hands over what passes it
        assert (np.diff(values, axis=1) <= 1e-9).all(), "a larger opposing bank never raises the chance"
    assert 0.5 < solved.first_player_win < 0.6


def test_when_the_first_to_the_target_wins_more_bank_is_better() -> None:
    """Under a last turn to pass, a bank just under the target can be worth less than one further off
    (any bank then ends the game with a small lead); when the first to arrive wins, it never is."""
    values = all_values(tables("first wins"))
    assert (np.diff(values, axis=0) >= -1e-9).all()


def test_reaching_the_target_first_wins_under_last_loses() -> None:
    solved = tables("first wins")
    assert solved.bank_value(1000, 1400, 500) == 1.0
    assert solved.bank_value(1000, 1400, 450) == pytest.approx(1 - solved.value(1400, 1450))


def test_past_the_target_the_opponent_gets_one_last_turn() -> None:
    solved = tables("plain")
    close, far = solved.bank_value(900, 950, 150), solved.bank_value(900, 0, 150)
    assert 0 < close < far < 1, "the nearer the opponent, the likelier they pass on their last turn"
    assert solved.bank_value(900, 950, 1000) > close, "a bigger lead is safer"


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


def test_an_exact_target_gives_the_points_over_it_to_the_opponent() -> None:
    solved = tables("family")
    assert solved.bank_value(1200, 1300, 500) == 0.5, "200 over lift the opponent to the target: a tie"
    far, near = solved.bank_value(1200, 0, 300), solved.bank_value(1200, 1000, 300)
    assert 0.5 < near < far < 1, "the opponent's last turn can only tie, likelier from nearer"
    assert solved.bank_value(1200, 0, 300) > solved.bank_value(1200, 0, 800), "points over help them"


def test_three_farkles_costing_1000_reach_below_zero() -> None:
    solved = tables("minus 1000")
    assert solved.covers(-2500) and not solved.covers(-2550) and not solved.covers(1500)
    assert solved.value(-1000, 0) < solved.value(0, 0) < solved.value(0, -1000)
    assert solved.value(500, 500, mine=2) < solved.value(500, 500), "two Farkles in a row put 1,000 at risk"
    loaded = WinTables.from_bytes(solved.to_bytes())
    assert loaded.value(-1000, 0, theirs=1) == pytest.approx(solved.value(-1000, 0, theirs=1), abs=1e-6)


def test_penalty_rolls_and_instant_wins_change_the_chances() -> None:
    six_ones, plain = tables("six ones"), solve_winprob(Ruleset(target=3000))
    assert six_ones.value(0, 2500) > plain.value(0, 2500), "far behind, six 1s may still win at once"
    family = tables("family")
    no_penalty = solve_winprob(SMALL["family"].model_copy(update={"penalty_roll": None}))
    assert family.value(1000, 1000) < no_penalty.value(1000, 1000), "a penalty roll can cost the bank"


def test_rules_the_tables_do_not_model_are_refused() -> None:
    for name in ("classic", "last-loses", "family"):
        assert unsupported(Ruleset.preset(name)) is None, name
    reason = "an entry minimum with banks that can fall back"
    assert str(unsupported(Ruleset(entry_minimum=500, three_farkles="minus_1000"))) == reason
    assert str(unsupported(Ruleset(entry_minimum=500, penalty_roll=-500))) == reason
    with pytest.raises(ValueError, match="don't model teams"):
        solve_winprob(Ruleset(teams=2, target=20000))


# ---------------------------------------------------------------- master and the hint


def _games(name: str, seed: int, levels: tuple[str, str]) -> Game:
    rules = SMALL[name]
    computers = [level for level in levels if level != "random"]
    strategies = {level: strategy_for(level, rules, policies_for(rules), tables(name)) for level in computers}
    game = Game.new(rules, list(levels), SeededDice(seed))
    picker = random.Random(seed)
    while game.result is None:
        player = game.current_player
        assert player is not None
        if player == "random":
            game.apply(picker.choice(game.legal_actions()))
        else:
            game.apply(strategies[player].choose(game))  # an illegal move raises IllegalAction
    return game


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(sorted(SMALL)), st.integers(0, 2**32))
def test_master_only_makes_legal_moves(name: str, seed: int) -> None:
    game = _games(name, seed, ("master", "random"))
    assert game.result is not None


def test_master_beats_expert_at_a_short_target() -> None:
    wins = 0
    games = 600
    for seed in range(games):
        seats = ("master", "expert") if seed % 2 else ("expert", "master")
        game = _games("plain", seed, seats)
        assert game.result is not None
        wins += "master" in game.result.winners
    assert wins / games > 0.5


def test_hint_lists_each_choice_with_its_chance_to_win() -> None:
    rules = SMALL["plain"]
    game = Game.new(rules, ["a", "b"], ScriptedDice([(6, 1), (1, 5, 2, 3, 3, 4)], seed=1))
    advice = win_chances(game, tables("plain"))
    assert advice is not None and advice.best.kind == "roll" and advice.best.dice == 6
    game.apply(advice.best.action)
    advice = win_chances(game, tables("plain"))
    assert advice is not None
    # keep the 1 (100) or the 1 and the 5 (150), then bank or roll on: four choices
    assert {(c.kind, c.keep, c.turn_total, c.dice) for c in advice.choices} == {
        ("bank", (1,), 100, 0),
        ("roll", (1,), 100, 5),
        ("bank", (1, 5), 150, 0),
        ("roll", (1, 5), 150, 4),
    }
    chances = [choice.chance for choice in advice.choices]
    assert chances == sorted(chances, reverse=True) and all(0 < c < 1 for c in chances)
    assert advice.best.kind == "roll", "nobody banks 100 at the start of a game"


def test_master_plays_as_expert_without_tables() -> None:
    rules = SMALL["plain"]
    game = Game.new(rules, ["a", "b"], SeededDice(11))
    master = strategy_for("master", rules, policies_for(rules), None)
    expert = Expert(rules, policies_for(rules))
    for _ in range(30):
        if game.result is not None:
            break
        assert master.choose(game) == expert.choose(game)
        game.apply(expert.choose(game))
    assert win_chances(game, None) is None
    assert isinstance(master, Master)


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


def test_the_chance_to_win_is_the_tables_at_a_turn_start_and_the_best_choice_inside_one() -> None:
    solved = tables("plain")
    game = Game.new(SMALL["plain"], ["a", "b"], ScriptedDice([(6, 1), (1, 5, 2, 3, 4, 6)]))
    assert chance_to_win(game, solved) == pytest.approx(solved.value(0, 0))
    game.apply(Action("roll", "a"))
    advice = win_chances(game, solved)
    assert advice is not None and chance_to_win(game, solved) == advice.best.chance
    assert advice.best.chance > solved.value(0, 0), "a straight on the first roll is a good start"


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
