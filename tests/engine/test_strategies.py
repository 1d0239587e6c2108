"""Computer players and hints: legal through whole games, known decisions, game awareness."""

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations, product

import pytest

from bot.engine import LEVELS, Action, Game, Ruleset, ScriptedDice, advise, strategy_for
from bot.engine.moves import turn_view
from bot.engine.scoring import is_penalty_roll, score_dice, scoring_options
from bot.engine.strategies import last_chance, points_to_beat
from tests.solved import policies_for, policy_for

NO_STRAIGHT = Ruleset(straight=None)  # Busche & Neller's scoring: the solver's known decisions hold here
SMALL = NO_STRAIGHT.model_copy(update={"target": 1000})  # three 1s reach the target in one turn


def scripted(rules: Ruleset, players: Sequence[str], *rolls: Sequence[int]) -> Game:
    """A game the first player starts (scripted roll-off), then these rolls."""
    return Game.new(rules, players, ScriptedDice([[6] + [1] * (len(players) - 1), *rolls]))


def choose(level: str, game: Game) -> Action:
    return strategy_for(level, game.rules, policies_for(game.rules), None).choose(game)


def at(game: Game, *faces: int) -> tuple[int, ...]:
    """Positions of these faces in the roll on the table."""
    taken: list[int] = []
    for face in faces:
        taken.append(next(p for p, f in enumerate(game.turn.roll) if f == face and p not in taken))
    return tuple(taken)


# ---------------------------------------------------------------- legal through whole games

VARIANTS: dict[str, Ruleset] = {
    **{name: Ruleset.preset(name) for name in ("classic", "box", "doubling", "last-loses", "family")},
    "teams": Ruleset(teams=2, entry_minimum=350, bank_minimum=300, target=3000),
    "bonus": Ruleset(piggyback="bonus", tie_rule="share", three_farkles="minus_1000", target=3000),
    "six-ones": Ruleset(six_ones=5000, six_ones_instant_win=True, hot_dice="forced", target=3000),
    "exact-limit": Ruleset(end_rule="exact", entry_minimum=500, entry_roll_limit=2, target=2000),
}
SEATINGS = (("easy", "normal", "expert"), ("expert", "expert"), ("normal", "easy", "expert", "easy"))


@pytest.mark.parametrize("name", VARIANTS)
def test_every_level_plays_only_legal_moves_to_the_end(name: str) -> None:
    """`apply` raising would fail the test; every move is also one `legal_actions` lists."""
    rules = VARIANTS[name]
    seen: set[str] = set()
    for seed in range(12):
        levels = SEATINGS[seed % len(SEATINGS)]
        players = [f"cpu:{level}:{seat}" for seat, level in enumerate(levels)]
        game = Game.new(rules, players, ScriptedDice([], seed=seed))
        while game.result is None:
            player = game.current_player
            assert player is not None
            action = choose(player.split(":")[1], game)
            assert action in game.legal_actions(), (action, game.turn)
            seen.update(e.kind for e in game.apply(action))
    # the games reached the situations the levels must handle (so the loop tested them)
    ending = "safe" if rules.end_rule == "last_loses" else "final_round"
    assert {ending, "banked", "farkled", "hot_dice"} <= seen
    if rules.piggyback != "off":
        assert "piggyback" in seen


def test_levels_and_unknown_level() -> None:
    assert LEVELS == ("easy", "normal", "expert", "master")
    with pytest.raises(ValueError, match="no computer level called 'grandmaster'"):
        strategy_for("grandmaster", NO_STRAIGHT, policies_for(NO_STRAIGHT), None)


# ---------------------------------------------------------------- known decisions


def test_expert_opening_keeps_only_the_one_and_rolls() -> None:
    game = scripted(NO_STRAIGHT, ["cpu", "h"], (1, 5, 2, 3, 4, 6))
    assert choose("expert", game) == Action("roll", "cpu")
    game.apply(choose("expert", game))
    assert choose("expert", game) == Action("roll", "cpu", at(game, 1))


def test_expert_keeps_one_and_five_and_banks_at_300_with_three_dice() -> None:
    game = scripted(NO_STRAIGHT, ["cpu", "h"], (3, 3, 3, 2, 4, 6), (1, 5, 2))
    game.roll("cpu")
    assert choose("expert", game) == Action("roll", "cpu", at(game, 3, 3, 3))  # the only keep: 300
    game.apply(choose("expert", game))
    assert game.turn.total == 300 and game.turn.roll == (1, 5, 2)
    assert choose("expert", game) == Action("bank", "cpu", at(game, 1, 5))


def test_easy_and_normal_decisions() -> None:
    game = scripted(NO_STRAIGHT, ["cpu", "h"], (1, 5, 5, 2, 3, 4))
    game.roll("cpu")
    assert choose("easy", game) == Action("roll", "cpu", at(game, 1, 5, 5))  # 200: every scoring die
    assert choose("normal", game) == Action("roll", "cpu", at(game, 1, 5, 5))  # three dice left anyway
    game = scripted(NO_STRAIGHT, ["cpu", "h"], (1, 5, 5, 2, 3, 4), (1, 5, 2))
    game.roll("cpu")
    game.roll("cpu", at(game, 1, 5, 5))
    assert choose("easy", game) == Action("bank", "cpu", at(game, 1, 5))  # 350 >= 300
    assert choose("normal", game) == Action("bank", "cpu", at(game, 1, 5))  # 350 with one die left


def test_normal_keeps_fewer_dice_to_roll_three_when_cheap() -> None:
    game = scripted(NO_STRAIGHT, ["cpu", "h"], (5, 2, 3, 4, 6, 6), (1, 5, 5, 2, 6))
    game.roll("cpu")
    game.roll("cpu", at(game, 5))
    # 1-5-5 would leave two dice at 250 (below 300): keeping 1-5 costs 50 and rolls three
    assert choose("normal", game) == Action("roll", "cpu", at(game, 1, 5))
    assert choose("easy", game) == Action("roll", "cpu", at(game, 1, 5, 5))


def test_entry_minimum_is_respected_by_every_level() -> None:
    box, classic = Ruleset.preset("box"), Ruleset.preset("classic")
    for rules, banks in ((box, False), (classic, True)):
        game = scripted(rules, ["cpu", "h"], (3, 3, 3, 2, 4, 6), (1, 5, 2))
        game.roll("cpu")
        game.roll("cpu", at(game, 3, 3, 3))
        for level in LEVELS:
            action = choose(level, game)  # 450 with one die left: below box's entry of 500
            assert action.kind == ("bank" if banks else "roll"), (rules.name, level)
    game = scripted(box, ["cpu", "h"], (3, 3, 3, 2, 4, 6))
    game.roll("cpu")
    assert choose("easy", game) == Action("roll", "cpu", at(game, 3, 3, 3))  # 300 would bank under classic


def test_entry_roll_limit_keeps_reach_the_entry() -> None:
    """Entry 500 on the first roll, bank minimum 1,000: 4-4-4 alone (400) is refused on the limit roll.

    Normal would otherwise trade 100 points for a third die to roll (1-4-4-4 can't be banked below 1,000).
    """
    rules = Ruleset(entry_minimum=500, entry_roll_limit=1, bank_minimum=1000)
    game = scripted(rules, ["cpu", "h"], (4, 4, 4, 1, 2, 3))
    game.roll("cpu")
    assert game.legal_actions() == (Action("roll", "cpu", at(game, 1, 4, 4, 4)),)
    for level in LEVELS:
        assert choose(level, game) == Action("roll", "cpu", at(game, 1, 4, 4, 4)), level


# ---------------------------------------------------------------- game awareness


def final_round(rules: Ruleset) -> Game:
    """h banks 1,000 = the target; cpu's last turn has kept three 3s (300) and rolled 1-5-2."""
    game = scripted(rules, ["h", "cpu"], (1, 1, 1, 2, 3, 4), (3, 3, 3, 2, 4, 6), (1, 5, 2))
    game.roll("h")
    game.bank("h", at(game, 1, 1, 1))
    assert game.final_round and game.current_player == "cpu"
    game.roll("cpu")
    game.roll("cpu", at(game, 3, 3, 3))
    return game


def test_expert_behind_in_the_final_round_rolls_on_instead_of_banking_short() -> None:
    game = final_round(SMALL)
    assert policy_for(SMALL).decide((1, 5, 2), 300).bank  # the turn-only policy would bank 450
    assert choose("normal", game).kind == "bank"  # and so does normal: it loses the game
    action = choose("expert", game)
    assert action.kind == "roll" and action in game.legal_actions()  # still playing for 1,050


@pytest.mark.parametrize(("tie_rule", "kept"), [("playoff", (1, 1, 1, 5)), ("share", (1, 1, 1))])
def test_expert_banks_once_ahead_and_a_tie_only_when_ties_share(tie_rule: str, kept: tuple[int, ...]) -> None:
    rules = SMALL.model_copy(update={"tie_rule": tie_rule})
    game = scripted(rules, ["h", "cpu"], (1, 1, 1, 2, 3, 4), (1, 1, 1, 5, 2, 3))
    game.roll("h")
    game.bank("h", at(game, 1, 1, 1))
    game.roll("cpu")
    assert choose("expert", game) == Action("bank", "cpu", at(game, *kept))


@pytest.mark.parametrize(("tie_rule", "need"), [("playoff", 1001), ("share", 1000)])
def test_a_last_chance_is_judged_by_the_chance_to_pass(tie_rule: str, need: int) -> None:
    """The one judge expert plays a last chance by and the review values it by (the review's own tests
    check the review's side)."""
    rules = SMALL.model_copy(update={"tie_rule": tie_rule})
    opening = scripted(rules, ["h", "cpu"])
    first, reach = turn_view(opening), policies_for(rules).reach
    assert points_to_beat(opening, first) is None and last_chance(opening, first, reach) is None
    game = final_round(rules)  # cpu has 300 kept and 1-5-2 on the table; h banked 1,000
    view = turn_view(game)
    chase = last_chance(game, view, reach)
    assert points_to_beat(game, view) == need and chase is not None and chase.goal == need
    table = policies_for(rules).reach
    enough = -(-need // table.unit)  # in units: turn totals are whole units (1,001 needs 1,050)
    assert chase.expected_if_rolling(300, 3) == table.rolling(enough - 300 // table.unit, 3)
    assert chase.after_keep(enough * table.unit, 2) == (1.0, True)
    assert chase.after_keep((enough - 1) * table.unit, 2) == (table.after(1, 2), False)


def test_expert_in_a_playoff_chases_the_posted_turn() -> None:
    rules = SMALL
    rolls = [(1, 1, 1, 2, 3, 4), (1, 1, 1, 2, 3, 4), (5, 5, 5, 2, 3, 4), (3, 3, 3, 2, 4, 6), (1, 2, 3)]
    game = scripted(rules, ["h", "cpu"], *rolls)
    for player in ("h", "cpu"):  # both bank 1,000: a tie, so a playoff
        game.roll(player)
        game.bank(player, at(game, 1, 1, 1))
    assert game.playoff == ("h", "cpu")
    game.roll("h")
    game.bank("h", at(game, 5, 5, 5))  # h posts 500
    game.roll("cpu")
    game.roll("cpu", at(game, 3, 3, 3))
    assert policy_for(rules).decide((1, 2, 3), 300).bank  # 400 with two dice: the turn policy banks
    assert choose("expert", game) == Action("roll", "cpu", at(game, 1))  # but 400 loses the playoff


def test_exact_target_banks_the_smallest_keep_reaching_it() -> None:
    """Family rules to 1,000: four 1s (2,000) would give the 1,000 over the target to the opponent."""
    rules = Ruleset.preset("family").model_copy(update={"target": 1000})
    game = scripted(rules, ["cpu", "h"], (1, 1, 1, 1, 2, 3))
    game.roll("cpu")
    assert policy_for(rules).decide((1, 1, 1, 1, 2, 3), 0).keep == (1, 1, 1, 1)
    action = choose("expert", game)
    assert action == Action("bank", "cpu", at(game, 1, 1, 1))
    game.apply(action)
    assert game.sides == (1000, 0)


@pytest.mark.parametrize(("points", "takes"), [(1000, True), (300, False)])
def test_piggyback_offers(points: int, takes: bool) -> None:
    """Last-loses piggybacks the previous points: three dice carrying 1,000 beat a fresh turn; 300 don't."""
    rules = Ruleset.preset("last-loses")
    first = (1, 1, 1, 2, 3, 4) if points == 1000 else (3, 3, 3, 2, 4, 6)
    game = scripted(rules, ["h", "cpu"], first)
    game.roll("h")
    game.bank("h", at(game, *first[:3]))
    assert game.turn.piggyback_dice == 3
    policy = policy_for(rules)
    assert (policy.expected_if_rolling(points, 3) > policy.expected_if_rolling(0, 6)) == takes
    assert choose("expert", game).kind == ("piggyback" if takes else "roll")
    assert choose("normal", game).kind == ("piggyback" if takes else "roll")
    assert choose("easy", game).kind == "roll"
    advice = advise(game, policies_for(game.rules))
    assert advice.recommendation == ("piggyback" if takes else "roll")
    assert advice.dice_to_roll == (3 if takes else 6)


def test_expert_takes_six_ones_when_they_win_at_once() -> None:
    rules = Ruleset(six_ones_instant_win=True)
    game = scripted(rules, ["cpu", "h"], (1, 1, 1, 1, 1, 1))
    game.roll("cpu")
    game.apply(choose("expert", game))
    assert game.result is not None and game.result.winners == ("cpu",)


# ---------------------------------------------------------------- the reach table behind the chase


@cache
def weighted_rolls(n: int) -> list[tuple[tuple[int, ...], float]]:
    """Every ordered outcome of n dice, folded into sorted rolls with their probabilities."""
    counts = Counter(tuple(sorted(roll)) for roll in product(range(1, 7), repeat=n))
    return [(roll, count / 6**n) for roll, count in counts.items()]


@cache
def every_keep(roll: tuple[int, ...], rules: Ruleset) -> list[tuple[int, int]]:
    """(points, dice left) of every scoring selection of the roll; none for a penalty roll."""
    if is_penalty_roll(roll, rules):
        return []
    chosen = {tuple(sorted(c)) for size in range(1, len(roll) + 1) for c in combinations(roll, size)}
    return [(points, len(roll) - len(keep)) for keep in chosen if (points := score_dice(keep, rules))]


@cache
def brute_reach(rules: Ruleset, gap: int, n: int, rerolls: int = 4) -> float:
    """Chance to gain `gap` points this turn and bank them, over every keep of every roll.

    With forced hot dice a keep of every die must roll on even past the gap; that chain is cut after
    `rerolls` such rolls (each needs an all-dice keep, so the cut costs far less than the tolerance).
    """

    def after(s: int, left: int) -> float:
        if s < gap:
            return brute_reach(rules, gap - s, left or 6, rerolls)
        if left or rules.hot_dice == "optional":
            return 1.0
        return brute_reach(rules, 0, 6, rerolls - 1) if rerolls else 0.0

    return sum(
        p * max((after(s, left) for s, left in every_keep(roll, rules)), default=0.0)
        for roll, p in weighted_rolls(n)
    )


FAMILY = Ruleset.preset("family")  # forced hot dice and the penalty roll


@pytest.mark.parametrize(
    ("rules", "n"), [(NO_STRAIGHT, 1), (NO_STRAIGHT, 3), (NO_STRAIGHT, 6), (FAMILY, 2), (FAMILY, 6)]
)
def test_reach_table_matches_brute_force(rules: Ruleset, n: int) -> None:
    table = policies_for(rules).reach
    assert table.unit == 50
    for gap in (0, 50, 100, 250, 400, 1050):
        assert table.rolling(gap // 50, n) == pytest.approx(brute_reach(rules, gap, n), abs=1e-7), gap
    assert policies_for(NO_STRAIGHT).reach.rolling(1, 1) == pytest.approx(1 / 3)


# ---------------------------------------------------------------- advice


@cache
def farkle_by_enumeration(n: int, rules: Ruleset) -> Fraction:
    misses = sum(1 for roll in product(range(1, 7), repeat=n) if not scoring_options(roll, rules))
    return Fraction(misses, 6**n)


@pytest.mark.parametrize("name", ["classic", "box"])
def test_advice_matches_the_solver(name: str) -> None:
    rules = Ruleset.preset(name)
    checked = 0
    for seed in range(6):
        game = Game.new(rules, ["a", "b"], ScriptedDice([], seed=seed))
        while game.result is None and not game.final_round:
            advice = advise(game, policies_for(game.rules))
            assert advice.farkle_chance == farkle_by_enumeration(advice.dice_to_roll, rules)
            me = next(p for p in game.players if p.id == game.current_player)
            t = game.turn
            if t.roll:
                decision = policy_for(rules, me.on_board).decide(t.roll, t.total, t.rolls)
                faces = tuple(sorted(t.roll[p] for p in advice.keep))
                assert faces == decision.keep
                assert (advice.recommendation == "bank") == decision.bank
                best = max(advice.expected_if_rolling, advice.bank_points or float("-inf"))
                assert best == pytest.approx(decision.expected)
                preview = game.preview(advice.keep)
                assert (advice.bank_points is not None) == preview.can_bank
                assert advice.turn_total == preview.turn_total and advice.dice_to_roll == preview.dice_to_roll
                checked += 1
            game.apply(choose("expert", game))
    assert checked > 300


def test_advice_at_turn_start_and_on_hot_dice() -> None:
    game = scripted(NO_STRAIGHT, ["a", "b"], (1, 1, 1, 5, 5, 5))
    advice = advise(game, policies_for(game.rules))
    assert advice.recommendation == "roll" and advice.dice_to_roll == 6 and advice.bank_points is None
    assert advice.expected_if_rolling == pytest.approx(446.5714, abs=1e-4)
    game.roll("a")
    advice = advise(game, policies_for(game.rules))
    assert advice.keep == (0, 1, 2, 3, 4, 5) and advice.keep_points == 1500 and advice.bank_points == 1500
    assert advice.dice_to_roll == 6 and advice.farkle_chance == farkle_by_enumeration(6, NO_STRAIGHT)
    assert advice.recommendation == "roll"  # six fresh dice at 1,500 are worth more than 1,500
    assert advice.expected_if_rolling == policy_for(NO_STRAIGHT).expected_if_rolling(1500, 6) > 1500
    forced = scripted(NO_STRAIGHT.model_copy(update={"hot_dice": "forced"}), ["a", "b"], (1, 1, 1, 5, 5, 5))
    forced.roll("a")
    assert advise(forced, policies_for(forced.rules)).bank_points is None


def test_advice_when_the_game_is_over() -> None:
    game = scripted(Ruleset(six_ones_instant_win=True), ["a", "b"], (1, 1, 1, 1, 1, 1))
    game.roll("a")
    game.bank("a", range(6))
    with pytest.raises(ValueError, match="game is over"):
        advise(game, policies_for(game.rules))
