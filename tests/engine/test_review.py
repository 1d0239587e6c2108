"""Game review: best moves cost nothing, expert is perfect on the turn measure, weaker play scores lower,
win-measure reviews and live chances read the win tables."""

from __future__ import annotations

from functools import cache

import pytest

from bot.engine import simulate
from bot.engine.dice import ScriptedDice, SeededDice
from bot.engine.game import Game
from bot.engine.levels import strategy_for
from bot.engine.master import win_chances
from bot.engine.review import GameReview, Move, PlayerReview, live_chances, review
from bot.engine.rules import Ruleset
from bot.engine.saved import JSON
from bot.engine.win.solve import solve_winprob
from bot.engine.win.tables import WinTables
from tests.solved import policies_for

SMALL = Ruleset(target=1500)
PLAYERS = ("1", "2")


@cache
def small_tables() -> WinTables:
    return solve_winprob(SMALL)


def play(
    rules: Ruleset, levels: tuple[str, ...], seed: int, tables: WinTables | None = None
) -> tuple[Game, dict[str, JSON]]:
    """A whole game between computer levels (`simulate.play`: the first seat starts), and its first dice;
    master plays by `tables`."""
    players = [str(seat + 1) for seat in range(len(levels))]
    seats = zip(players, levels, strict=True)
    strategies = {p: strategy_for(level, rules, policies_for(rules), tables) for p, level in seats}
    game = simulate.play(rules, players, strategies, seed)
    return game, ScriptedDice([(6,) + (1,) * (len(players) - 1)], seed=seed).state()


def reviewed(
    rules: Ruleset, levels: tuple[str, ...], seed: int, tables: WinTables | None = None
) -> GameReview:
    game, start = play(rules, levels, seed)
    return review(rules, [p.id for p in game.players], start, game.history, policies_for(rules), tables)


@pytest.mark.parametrize("seed", range(4))
def test_expert_reviews_at_100_percent_on_the_turn_measure(seed: int) -> None:
    result = reviewed(Ruleset.preset("classic"), ("expert", "expert", "expert"), seed)
    assert result.measure == "turn"
    assert result.decisions
    for player in result.players:
        assert player.accuracy == 1.0
        assert player.mistakes == 0 and player.costliest == ()
    assert all(d.loss == 0.0 for d in result.decisions)


def test_easy_reviews_lower_than_expert() -> None:
    rules = Ruleset.preset("classic")
    easy = [reviewed(rules, ("easy", "expert", "normal"), seed) for seed in range(3)]
    for result in easy:
        easy_player, expert_player, _normal = result.players
        assert expert_player.accuracy == 1.0
        assert easy_player.accuracy is not None and easy_player.accuracy < 0.99
        assert easy_player.costliest and easy_player.costliest[0].loss >= easy_player.costliest[-1].loss
    assert sum(r.players[0].mistakes for r in easy) > 0


def test_the_best_move_costs_nothing_and_every_loss_is_against_the_best() -> None:
    result = reviewed(Ruleset.preset("classic"), ("easy", "normal"), 7)
    for decision in result.decisions:
        assert decision.best_value >= decision.value >= decision.worst_value
        if decision.played == decision.best:
            assert decision.loss == 0.0
        assert decision.loss >= 0.0 and decision.available >= decision.loss


@pytest.mark.parametrize("seed", range(3))
def test_master_reviews_at_100_percent_in_chances_to_win_and_normal_lower(seed: int) -> None:
    tables = small_tables()
    game, start = play(SMALL, ("master", "normal"), seed, tables)  # master plays by the tables
    result = review(SMALL, list(PLAYERS), start, game.history, policies_for(SMALL), tables)
    assert result.measure == "win"
    assert all(0.0 <= d.value <= 1.0 + 1e-9 and d.loss <= 1.0 for d in result.decisions)
    master, normal = result.players
    assert master.accuracy == 1.0 and master.mistakes == 0
    assert normal.accuracy is not None and normal.accuracy < 1.0


def test_a_review_reads_back_identically_from_its_json() -> None:
    result = reviewed(Ruleset.preset("classic"), ("easy", "normal"), 11)
    again = GameReview.from_json(result.to_json(), [p.player for p in result.players])
    assert again == result


def test_a_review_says_what_was_played_and_what_was_best() -> None:
    result = reviewed(Ruleset.preset("classic"), ("easy", "expert"), 5)
    worst = result.players[0].costliest[0]
    assert worst.played != worst.best
    assert isinstance(worst.best, Move) and worst.best.kind in ("roll", "bank", "piggyback")


def test_live_chances_equal_the_tables_values() -> None:
    tables = small_tables()
    game = Game.new(SMALL, list(PLAYERS), SeededDice(2))
    mover = game.current_player
    assert mover is not None
    other = next(p for p in PLAYERS if p != mover)
    chances = live_chances(game, tables)
    assert chances is not None
    assert chances[mover] == pytest.approx(tables.value(0, 0), abs=1e-6)
    assert chances[other] == pytest.approx(1 - tables.value(0, 0), abs=1e-6)
    game.roll(mover)  # mid-turn: the value of the best choice on this roll
    if game.current_player == mover:
        advice = win_chances(game, tables)
        assert advice is not None
        assert live_chances(game, tables) == {mover: advice.best.chance, other: 1 - advice.best.chance}


def test_no_live_chances_without_tables_or_with_three_players() -> None:
    assert live_chances(Game.new(SMALL, list(PLAYERS), SeededDice(1)), None) is None
    three = Game.new(SMALL, ["1", "2", "3"], SeededDice(1))
    assert live_chances(three, small_tables()) is None


def test_live_chances_in_the_final_round_are_the_chance_to_pass_the_leader() -> None:
    tables = small_tables()
    dice = SeededDice(4)
    game = Game.new(SMALL, list(PLAYERS), dice)
    strategies = {p: strategy_for("normal", SMALL, policies_for(SMALL), None) for p in PLAYERS}
    while not game.final_round:
        player = game.current_player
        assert player is not None and game.result is None
        game.apply(strategies[player].choose(game))
    mover = game.current_player
    assert mover is not None and game.phase == "turn_start"
    leader = next(p for p in game.players if p.id != mover)
    me = next(p for p in game.players if p.id == mover)
    gap = (leader.bank + 50 - me.bank) // 50  # passing: one 50-point step more than the leader
    chances = live_chances(game, tables)
    assert chances is not None
    assert chances[mover] == pytest.approx(policies_for(SMALL).reach.rolling(gap, 6))
    assert chances[leader.id] == pytest.approx(1 - chances[mover])


@pytest.mark.parametrize(
    ("accuracy", "mistakes", "verdict"),
    [
        (0.74, 0, "Shaky: no single costly choice, but many small slips."),
        (0.74, 2, "Shaky: some costly choices."),
        (0.9, 0, "Solid, with a few slips."),
        (0.5, 0, "Reckless: the dice deserved better."),
    ],
)
def test_the_verdict_speaks_of_costly_choices_only_when_some_were(
    accuracy: float, mistakes: int, verdict: str
) -> None:
    """A review once said "0 costly mistakes" and then "Shaky: some costly choices"."""
    assert str(PlayerReview("a", 35, accuracy, mistakes, ()).verdict) == verdict
