"""Game pins from the rule sheets, each forced with scripted dice, plus properties of random legal play."""

import json
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.dice import ScriptedDice
from bot.engine.game import Action, Game, IllegalAction
from bot.engine.game.keeps import list_legal_actions
from bot.engine.history import (
    Banked,
    Event,
    Farkled,
    GameOver,
    Kept,
    Left,
    Overflow,
    PenaltyRoll,
    Piggybacked,
    RollOff,
    Safe,
    ThreeFarkles,
    TimedOut,
    TurnStarted,
    event_from_row,
    event_row,
)
from bot.engine.review import _as_move
from bot.engine.rules import PRESET_NAMES, Ruleset

CLASSIC = Ruleset.preset("classic")

# Rolls named by what they offer under classic scoring.
ONE = (1, 2, 3, 4, 6, 6)  # a single 1 (100), five dice left
FIVE_OF_5 = (5, 2, 3, 4, 6)  # a single 5 on five dice
NOTHING = (2, 2, 3, 3, 4, 6)  # a Farkle on six dice
NOTHING_5 = (2, 3, 4, 6, 6)  # a Farkle on five dice
ONES = (1, 1, 1, 2, 3, 4)  # three 1s (1,000), three dice left
FIVES = (5, 5, 5, 2, 3, 4)  # three 5s (500), three dice left
HOT = (1, 1, 1, 5, 5, 5)  # 1,500 on all six dice


def start(rules: Ruleset, *rolls: Sequence[int], players: Sequence[str] = ("a", "b")) -> Game:
    """A game whose first seat (or team) wins the roll-off, then plays these rolls."""
    sides = rules.teams or len(players)
    return Game.new(rules, players, ScriptedDice([[6] + [1] * (sides - 1), *rolls]))


def at(game: Game, *faces: int) -> tuple[int, ...]:
    """Positions of these faces in the roll on the table."""
    roll, taken = game.turn.roll, list[int]()
    for face in faces:
        taken.append(next(p for p, f in enumerate(roll) if f == face and p not in taken))
    return tuple(taken)


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


def bank_of(game: Game, player: str) -> int:
    return next(p.bank for p in game.players if p.id == player)


def starters(game: Game) -> list[str | None]:
    return [e.player for e in game.events if e.kind == "turn_started"]


def refused(game: Game, message: str, action: str, player: str, keep: Sequence[int] = ()) -> None:
    """The action is refused with this message and the game is exactly as before."""
    before = game.to_json()
    with pytest.raises(IllegalAction) as error:
        getattr(game, action)(player, *([keep] if action in ("roll", "bank") else []))
    assert str(error.value) == message
    assert game.to_json() == before


# ---------------------------------------------------------------- roll-off and turn flow


def test_roll_off_highest_starts_and_ties_reroll_among_the_tied_only() -> None:
    dice = ScriptedDice([[5, 5, 2], [4, 6]])  # a and b tie on 5; c is out; b wins the re-roll
    game = Game.new(CLASSIC, ["a", "b", "c"], dice)
    assert dice.scripted_left == 0
    assert game.events[0] == RollOff("b", (4, 6))
    assert game.current_player == "b" and game.phase == "turn_start" and game.turn_number == 1
    game.timeout("b")
    game.timeout("c")
    assert game.current_player == "a"  # then seat order, wrapping around


def test_farkle_loses_the_turn_total_and_passes_the_dice() -> None:
    game = start(CLASSIC, ONE, NOTHING_5)
    game.roll("a")
    events = game.roll("a", at(game, 1))
    assert kinds(events) == ["kept", "rolled", "farkled", "turn_started"]
    assert events[2].points == 100
    assert bank_of(game, "a") == 0 and game.players[0].farkle_streak == 1
    assert game.current_player == "b"


def test_keep_then_bank_adds_the_turn_total() -> None:
    game = start(CLASSIC, ONE, FIVES[:5])
    game.roll("a")
    game.roll("a", at(game, 1))
    events = game.bank("a", at(game, 5, 5, 5))
    assert kinds(events) == ["kept", "banked", "turn_started"]
    assert events[1] == Banked("a", 600, 600)
    assert bank_of(game, "a") == 600 and game.sides == (600, 0)


# ---------------------------------------------------------------- hot dice


def test_hot_dice_over_several_rolls_give_six_fresh_dice() -> None:
    game = start(CLASSIC, ONE, (5, 5, 5, 2, 3), (1, 5), NOTHING)
    game.roll("a")
    game.roll("a", at(game, 1))
    game.roll("a", at(game, 5, 5, 5))
    events = game.roll("a", at(game, 1, 5))
    assert kinds(events)[:3] == ["kept", "hot_dice", "rolled"]
    assert len(events[2].dice) == 6
    assert events[3] == Farkled("a", 750)  # six fresh dice farkled the 750


def test_optional_hot_dice_may_be_banked() -> None:
    game = start(CLASSIC, HOT)
    game.roll("a")
    preview = game.preview(at(game, 1, 1, 1, 5, 5, 5))
    assert (preview.dice_to_roll, preview.turn_total, preview.can_bank) == (6, 1500, True)
    assert kinds(game.bank("a", at(game, 1, 1, 1, 5, 5, 5))) == ["kept", "hot_dice", "banked", "turn_started"]
    assert bank_of(game, "a") == 1500


def test_forced_hot_dice_refuse_the_bank_until_rolled() -> None:
    game = start(Ruleset(hot_dice="forced"), HOT, ONE)
    game.roll("a")
    all_six = at(game, 1, 1, 1, 5, 5, 5)
    assert str(game.preview(all_six).bank_blocked) == "Hot dice must be rolled."
    refused(game, "Hot dice must be rolled.", "bank", "a", all_six)
    game.roll("a", all_six)
    game.bank("a", at(game, 1))
    assert bank_of(game, "a") == 1600


def test_forced_hot_dice_refuse_the_bank_when_the_keep_empties_the_table() -> None:
    game = start(Ruleset(hot_dice="forced"), ONE, (5, 5, 5, 1, 1))
    game.roll("a")
    game.roll("a", at(game, 1))
    refused(game, "Hot dice must be rolled.", "bank", "a", at(game, 5, 5, 5, 1, 1))
    game.roll("a", at(game, 5, 5, 5, 1, 1))
    assert game.turn.hot_dice is False and len(game.turn.roll) == 6


# ---------------------------------------------------------------- entry and bank minimum


def test_entry_minimum_refuses_a_small_first_bank() -> None:
    game = start(Ruleset.preset("box"), ONE, (5, 5, 5, 2, 3), ONE)
    game.roll("a")
    assert str(game.preview(at(game, 1)).bank_blocked) == "You need 500 to get on the board."
    refused(game, "You need 500 to get on the board.", "bank", "a", at(game, 1))
    game.roll("a", at(game, 1))
    game.bank("a", at(game, 5, 5, 5))
    assert game.players[0].on_board and bank_of(game, "a") == 600
    game.timeout("b")
    game.roll("a")
    game.bank("a", at(game, 1))  # on the board: any bank
    assert bank_of(game, "a") == 700


def test_entry_roll_limit_ends_the_turn_with_nothing_when_out_of_reach() -> None:
    game = start(Ruleset.preset("doubling"), ONE, FIVE_OF_5, (1, 2, 3, 4))
    game.roll("a")
    game.roll("a", at(game, 1))
    events = game.roll("a", at(game, 5))  # third roll: 250 + 100 at best < 500
    assert kinds(events) == ["kept", "rolled", "entry_failed", "turn_started"]
    assert bank_of(game, "a") == 0 and game.players[0].farkle_streak == 0
    assert game.current_player == "b"


def test_after_the_entry_roll_limit_only_keeps_reaching_the_entry_are_legal() -> None:
    game = start(Ruleset.preset("doubling"), ONE, FIVE_OF_5, (1, 1, 1, 2))
    game.roll("a")
    game.roll("a", at(game, 1))
    game.roll("a", at(game, 5))
    refused(game, "You need 500 on this roll to get on the board.", "roll", "a", at(game, 1))
    assert str(game.preview(at(game, 1)).error) == "You need 500 on this roll to get on the board."
    game.bank("a", at(game, 1, 1, 1))
    assert bank_of(game, "a") == 1150


def test_bank_minimum_applies_on_every_turn() -> None:
    game = start(Ruleset(bank_minimum=500), ONE, (5, 5, 5, 2, 3), ONE, NOTHING_5)
    game.roll("a")
    refused(game, "You need 500 to bank.", "bank", "a", at(game, 1))
    game.roll("a", at(game, 1))
    game.bank("a", at(game, 5, 5, 5))
    game.timeout("b")
    game.roll("a")
    refused(game, "You need 500 to bank.", "bank", "a", at(game, 1))


# ---------------------------------------------------------------- three Farkles


def test_three_farkles_cost_1000_and_may_go_negative() -> None:
    game = start(Ruleset(three_farkles="minus_1000"), *[NOTHING] * 5)
    for player in "ababa":
        events = game.roll(player)
    assert ThreeFarkles("a", -1000, -1000) in events
    assert bank_of(game, "a") == -1000 and game.players[0].farkle_streak == 0
    assert game.players[1].farkle_streak == 2


def test_three_farkles_reset_the_bank_to_zero() -> None:
    game = start(Ruleset(three_farkles="reset"), ONES, *[NOTHING] * 6)
    game.roll("a")
    game.bank("a", at(game, 1, 1, 1))
    for player in "bababa":
        events = game.roll(player)
    assert ThreeFarkles("a", -1000, 0) in events
    assert bank_of(game, "a") == 0


def test_a_bank_restarts_the_farkle_streak() -> None:
    game = start(Ruleset(three_farkles="minus_1000"), *[NOTHING] * 4, ONE, NOTHING, NOTHING)
    for player in "abab":
        game.roll(player)
    game.roll("a")
    game.bank("a", at(game, 1))
    game.roll("b")  # b's third Farkle in a row
    game.roll("a")
    assert game.players[0].farkle_streak == 1 and bank_of(game, "a") == 100
    assert bank_of(game, "b") == -1000


# ---------------------------------------------------------------- piggyback

PIGGY = Ruleset(piggyback="previous_points")


def test_piggyback_is_offered_after_a_bank_with_dice_left_and_inherits_the_points() -> None:
    game = start(PIGGY, ONE, FIVE_OF_5)
    game.roll("a")
    game.bank("a", at(game, 1))
    assert game.turn.piggyback_dice == 5
    assert [a.kind for a in game.legal_actions()] == ["roll", "piggyback"]
    events = game.piggyback("b")
    assert events[0] == Piggybacked("b", 100, 5)
    assert game.turn.total == 100 and game.turn.piggybacked
    game.bank("b", at(game, 5))
    assert bank_of(game, "b") == 150


def test_piggyback_bonus_adds_the_fixed_bonus() -> None:
    game = start(Ruleset(piggyback="bonus", piggyback_bonus=1000), ONE, FIVE_OF_5)
    game.roll("a")
    game.bank("a", at(game, 1))
    game.piggyback("b")
    assert game.turn.total == 1000
    game.bank("b", at(game, 5))
    assert bank_of(game, "b") == 1050


def test_piggyback_chains_and_a_failed_piggyback_is_a_farkle() -> None:
    game = start(PIGGY, ONE, FIVE_OF_5, (2, 3, 4, 6))
    game.roll("a")
    game.bank("a", at(game, 1))
    game.piggyback("b")
    game.bank("b", at(game, 5))
    assert game.turn.piggyback_dice == 4  # a may build on b's 150 in turn
    events = game.piggyback("a")
    assert events[0] == Piggybacked("a", 150, 4)
    assert kinds(events)[1:3] == ["rolled", "farkled"] and events[2].points == 0
    assert bank_of(game, "a") == 100 and game.players[0].farkle_streak == 1


def test_no_piggyback_after_hot_dice_a_farkle_or_with_piggyback_off() -> None:
    game = start(PIGGY, HOT, NOTHING)
    game.roll("a")
    game.bank("a", at(game, 1, 1, 1, 5, 5, 5))
    assert game.turn.piggyback_dice is None
    refused(game, "There are no dice to piggyback on.", "piggyback", "b")
    game.roll("b")
    assert game.turn.piggyback_dice is None
    off = start(CLASSIC, ONE)
    off.roll("a")
    off.bank("a", at(off, 1))
    assert off.turn.piggyback_dice is None


def test_piggyback_waits_until_everyone_is_on_the_board_when_required() -> None:
    rules = Ruleset(piggyback="previous_points", piggyback_needs_all_on_board=True, entry_minimum=500)
    game = start(rules, FIVES, FIVES)
    game.roll("a")
    game.bank("a", at(game, 5, 5, 5))
    assert game.turn.piggyback_dice is None  # b is not on the board yet
    game.roll("b")
    game.bank("b", at(game, 5, 5, 5))
    assert game.turn.piggyback_dice == 3


# ---------------------------------------------------------------- end of game


def test_final_round_gives_every_other_player_exactly_one_more_turn() -> None:
    game = start(Ruleset(target=1000), ONES, ONE, ONES, (1, 5, 2), players=("a", "b", "c"))
    game.roll("a")
    events = game.bank("a", at(game, 1, 1, 1))
    assert "final_round" in kinds(events) and game.final_round
    game.roll("b")
    game.bank("b", at(game, 1))
    game.roll("c")
    game.roll("c", at(game, 1, 1, 1))
    events = game.bank("c", at(game, 1, 5))
    assert kinds(events)[-1] == "game_over"
    assert starters(game) == ["a", "b", "c"]
    result = game.result
    assert result is not None and game.phase == "over" and game.current_player is None
    assert result.winners == ("c",) and result.reason == "target"
    assert result.placements == (("c",), ("a",), ("b",))
    assert result.banks == {"a": 1000, "b": 100, "c": 1150}


def test_ties_play_off_from_the_first_to_reach_the_target_until_untied() -> None:
    rolls = [FIVES, ONES, NOTHING, FIVES, ONE, ONE, NOTHING, ONE]
    game = start(Ruleset(target=1000), *rolls, players=("a", "b", "c"))
    game.roll("a")
    game.bank("a", at(game, 5, 5, 5))
    game.roll("b")
    game.bank("b", at(game, 1, 1, 1))  # b reaches the target first
    game.roll("c")
    game.roll("a")
    events = game.bank("a", at(game, 5, 5, 5))  # a ties b at 1,000
    assert [e.player for e in events if e.kind == "playoff"] == ["b", "a"]
    assert game.playoff == ("b", "a") and game.current_player == "b"
    for player in "ba":  # both bank 100: still tied
        game.roll(player)
        game.bank(player, at(game, 1))
    assert game.result is None and game.current_player == "b"
    game.roll("b")  # Farkle
    game.roll("a")
    game.bank("a", at(game, 1))
    assert game.result is not None and game.result.winners == ("a",)
    assert game.result.placements == (("a",), ("b",), ("c",))
    assert starters(game)[4:] == ["b", "a", "b", "a"]  # c never plays off


def test_shared_win_on_a_tie() -> None:
    game = start(Ruleset(target=1000, tie_rule="share"), ONES, ONES)
    for player in "ab":
        game.roll(player)
        game.bank(player, at(game, 1, 1, 1))
    assert game.result is not None
    assert game.result.winners == ("a", "b") and game.result.placements == (("a", "b"),)


def test_last_loses_safe_players_skip_turns_and_the_last_one_loses() -> None:
    rules = Ruleset(target=1000, end_rule="last_loses")
    game = start(rules, ONES, NOTHING, NOTHING, ONES, players=("a", "b", "c"))
    game.roll("a")
    events = game.bank("a", at(game, 1, 1, 1))
    assert Safe("a") in events and game.players[0].safe
    game.roll("b")
    game.roll("c")
    assert game.current_player == "b"  # a is safe and skipped
    game.roll("b")
    game.bank("b", at(game, 1, 1, 1))
    result = game.result
    assert result is not None and result.reason == "last_loses"
    assert result.winners == ("a", "b") and result.placements == (("a",), ("b",), ("c",))


def test_under_last_loses_leaving_concedes_the_loss() -> None:
    game = start(Ruleset(target=1000, end_rule="last_loses"), ONES, players=("a", "b", "c"))
    game.roll("a")
    game.bank("a", at(game, 1, 1, 1))
    game.leave("c")  # b and c were still below the target: c's leaving decides it
    result = game.result
    assert result is not None and result.reason == "last_loses"
    assert result.winners == ("a", "b") and result.placements == (("a",), ("b",), ("c",))


def test_exact_target_sends_the_excess_to_the_lowest_other_player() -> None:
    rules = Ruleset(target=1000, end_rule="exact")
    game = start(rules, FIVES, ONE, ONE, ONES, players=("a", "b", "c"))
    game.roll("a")
    game.bank("a", at(game, 5, 5, 5))
    for player in "bc":  # b and c tie at 100: b has the earlier seat
        game.roll(player)
        game.bank(player, at(game, 1))
    game.roll("a")
    events = game.bank("a", at(game, 1, 1, 1))
    assert events[1] == Banked("a", 1000, 1000)
    assert Overflow("a", 500, 600, "b") in events
    assert game.sides == (1000, 600, 100) and game.final_round


def test_exact_target_overflow_goes_to_the_lowest_whatever_the_seat() -> None:
    rules = Ruleset(target=1000, end_rule="exact")
    game = start(rules, FIVES, FIVES, ONE, ONES, players=("a", "b", "c"))
    for player, kept in (("a", (5, 5, 5)), ("b", (5, 5, 5)), ("c", (1,))):
        game.roll(player)
        game.bank(player, at(game, *kept))
    game.roll("a")
    events = game.bank("a", at(game, 1, 1, 1))
    assert Overflow("a", 500, 600, "c") in events
    assert game.sides == (1000, 500, 600)


def test_exact_target_overflow_is_capped_at_the_target_too() -> None:
    rules = Ruleset(target=1000, end_rule="exact", tie_rule="share")
    game = start(rules, FIVES, (3, 3, 3, 6, 6, 6), ONES)
    game.roll("a")
    game.bank("a", at(game, 5, 5, 5))
    game.roll("b")
    game.bank("b", at(game, 3, 3, 3, 6, 6, 6))
    game.roll("a")
    events = game.bank("a", at(game, 1, 1, 1))
    assert Overflow("a", 500, 1000, "b") in events
    assert game.sides == (1000, 1000)


def test_six_ones_win_at_once_when_the_option_is_on() -> None:
    game = start(Ruleset(six_ones_instant_win=True), (1, 1, 1, 1, 1, 1))
    game.roll("a")
    assert game.preview(range(6)).can_bank
    events = game.roll("a", range(6))
    assert kinds(events) == ["kept", "game_over"]
    result = game.result
    assert result is not None and result.reason == "instant_win" and result.winners == ("a",)
    assert not game.final_round


def test_six_ones_are_just_points_without_the_option() -> None:
    game = start(CLASSIC, (1, 1, 1, 1, 1, 1))
    game.roll("a")
    assert kinds(game.bank("a", range(6)))[:3] == ["kept", "hot_dice", "banked"]
    assert game.result is None and bank_of(game, "a") == 2000


def test_penalty_roll_ends_the_turn_and_the_bank_stops_at_zero() -> None:
    game = start(Ruleset.preset("family"), ONES, NOTHING, (6, 6, 1, 6, 6, 6))
    game.roll("a")
    game.bank("a", at(game, 1, 1, 1))
    game.roll("b")
    events = game.roll("a")
    assert kinds(events) == ["rolled", "penalty_roll", "turn_started"]
    assert events[1] == PenaltyRoll("a", -1000, 0)
    assert game.current_player == "b" and game.players[0].farkle_streak == 0


def test_a_smaller_penalty_just_subtracts() -> None:
    game = start(Ruleset(penalty_roll=-500), ONES, NOTHING, (6, 6, 1, 6, 6, 6))
    game.roll("a")
    game.bank("a", at(game, 1, 1, 1))
    game.roll("b")
    game.roll("a")
    assert bank_of(game, "a") == 500


# ---------------------------------------------------------------- teams


def test_teams_share_a_bank_and_alternate_with_members_rotating() -> None:
    game = start(Ruleset(teams=2), ONE, *[NOTHING] * 4, players=("a", "b", "c", "d"))
    assert [p.team for p in game.players] == [0, 1, 0, 1]
    game.roll("a")
    game.bank("a", at(game, 1))
    assert game.sides == (100, 0) and bank_of(game, "c") == 100
    for player in "bcda":
        game.roll(player)
    assert starters(game) == ["a", "b", "c", "d", "a", "b"]
    assert game.players[0].farkle_streak == game.players[2].farkle_streak == 2  # a team's streak


def test_explicit_teams_and_a_team_plays_on_when_a_member_leaves() -> None:
    dice = ScriptedDice([[6, 1], NOTHING, NOTHING])
    game = Game.new(Ruleset(teams=2), ["a", "b", "c", "d"], dice, teams=[0, 0, 1, 1])
    game.roll("a")
    game.leave("b")
    game.roll("c")
    assert game.current_player == "a" and game.result is None
    game.leave("a")
    assert game.result is not None and game.result.reason == "players_left"
    assert game.result.winners == ("c", "d")


# ---------------------------------------------------------------- timeouts and leaving


def test_timeouts_strike_and_three_in_a_row_remove_the_player() -> None:
    game = start(CLASSIC, NOTHING)
    for player in "abab":
        game.timeout(player)
    assert [p.idle_strikes for p in game.players] == [2, 2]
    game.roll("a")  # acting clears a's strikes
    assert game.players[0].idle_strikes == 0
    events = game.timeout("b")
    assert kinds(events) == ["timed_out", "removed", "game_over"]
    result = game.result
    assert result is not None and result.reason == "players_left" and result.winners == ("a",)
    assert result.placements == (("a",), ("b",))


def test_leaving_skips_the_player_and_the_last_one_standing_wins() -> None:
    game = start(CLASSIC, NOTHING, NOTHING, players=("a", "b", "c"))
    game.roll("a")
    game.leave("c")  # not their turn: leaving is always allowed
    assert not game.players[2].active
    game.roll("b")
    assert game.current_player == "a"
    refused(game, "You're not playing in this game.", "roll", "c")
    events = game.leave("a")
    assert kinds(events) == ["left", "game_over"]
    assert game.result is not None and game.result.winners == ("b",)
    assert game.result.placements == (("b",), ("a", "c"))


def test_a_player_leaving_during_the_final_round_is_not_waited_for() -> None:
    game = start(Ruleset(target=1000), ONES, players=("a", "b", "c"))
    game.roll("a")
    game.bank("a", at(game, 1, 1, 1))
    game.leave("c")
    game.timeout("b")
    assert game.result is not None and game.result.winners == ("a",) and game.result.reason == "target"


# ---------------------------------------------------------------- refused actions


def test_refused_actions_explain_and_change_nothing() -> None:
    game = start(CLASSIC, ONE)
    refused(game, "It's not your turn.", "roll", "b")
    refused(game, "You're not playing in this game.", "roll", "zed")
    refused(game, "Roll the dice first.", "bank", "a")
    refused(game, "Roll the dice before keeping any.", "roll", "a", (0,))
    refused(game, "There are no dice to piggyback on.", "piggyback", "a")
    game.roll("a")
    refused(game, "Keep at least one scoring die.", "roll", "a")
    refused(game, "The 3 doesn't score.", "roll", "a", at(game, 3))
    refused(game, "The 3 doesn't score.", "bank", "a", at(game, 1, 3))
    refused(game, "The 2 and 3 don't score.", "roll", "a", at(game, 2, 3))
    refused(game, "The 6s don't score.", "roll", "a", at(game, 6, 6))
    refused(game, "Each die can be kept only once.", "roll", "a", (0, 0))
    refused(game, "That die isn't on the table.", "roll", "a", (6,))
    refused(game, "It's not your turn.", "bank", "b", at(game, 1))


def test_a_fourth_die_without_a_four_of_a_kind_rule_does_not_score() -> None:
    game = start(CLASSIC, (2, 2, 2, 2, 3, 4))
    game.roll("a")
    refused(game, "The extra 2 doesn't score.", "roll", "a", at(game, 2, 2, 2, 2))


def test_nothing_is_legal_once_the_game_is_over() -> None:
    game = start(CLASSIC)
    game.leave("b")
    refused(game, "The game is over.", "roll", "a")
    refused(game, "The game is over.", "leave", "a")
    assert game.legal_actions() == ()


def test_preview_describes_the_buttons() -> None:
    game = start(Ruleset.preset("box"), ONE)
    assert game.preview(()).can_roll and not game.preview(()).can_bank
    game.roll("a")
    preview = game.preview(at(game, 1))
    assert (preview.points, preview.error, preview.dice_to_roll, preview.turn_total) == (100, None, 5, 100)
    assert preview.can_roll and not preview.can_bank
    assert str(preview.bank_blocked) == "You need 500 to get on the board."
    bad = game.preview(at(game, 3))
    assert bad.points is None and str(bad.error) == "The 3 doesn't score." and not bad.can_roll


def test_the_table_must_fit_the_rules() -> None:
    with pytest.raises(IllegalAction, match="2 to 8 players"):
        Game.new(CLASSIC, ["a"], ScriptedDice([]))
    with pytest.raises(IllegalAction, match="only one seat"):
        Game.new(CLASSIC, ["a", "a"], ScriptedDice([]))
    with pytest.raises(IllegalAction, match="don't play in teams"):
        Game.new(CLASSIC, ["a", "b"], ScriptedDice([]), teams=[0, 1])


def test_to_json_round_trip_restores_and_continues_identically() -> None:
    game = start(PIGGY, ONE, FIVE_OF_5)
    game.roll("a")
    game.bank("a", at(game, 1))
    restored = Game.from_json(game.to_json())
    assert restored.to_json() == game.to_json()
    assert restored.piggyback("b") == game.piggyback("b")
    assert restored.to_json() == game.to_json()


@pytest.mark.parametrize(
    "event",
    [Overflow("a", 300, 900, "b"), Kept("a", 150, (1, 5), 450), GameOver(None), Left("c"), TimedOut("a", 2)],
)
def test_events_round_trip_through_rows(event: Event) -> None:
    assert event_from_row(json.loads(json.dumps(event_row(event)))) == event


def test_events_saved_before_typed_kinds_still_load() -> None:
    """Sessions saved each event as a dict of the six overloaded columns; games as the same row."""
    saved = {"kind": "overflow", "player": "a", "points": 300, "dice": [], "total": 900, "other": "b"}
    assert event_from_row(saved) == Overflow("a", 300, 900, "b")
    assert event_from_row(["kept", "a", 150, [1, 5], 450, None]) == Kept("a", 150, (1, 5), 450)
    with pytest.raises(ValueError, match="Unknown saved event"):
        event_from_row(["exploded", "a", 0, [], 0, None])


def test_random_games_do_not_all_play_alike() -> None:
    """Guards the property tests below against a degenerate engine (every game the same)."""
    seen = set()
    for seed in range(5):
        rng = random.Random(seed)
        game = Game.new(CLASSIC, ["a", "b"], ScriptedDice([], seed=seed))
        while game.result is None:
            game.apply(rng.choice(game.legal_actions()))
        seen.add((game.turn_number, game.sides))
    assert len(seen) > 1


# ---------------------------------------------------------------- random legal play

RULESETS = {name: Ruleset.preset(name) for name in PRESET_NAMES} | {
    "share": Ruleset(target=3000, tie_rule="share", three_farkles="minus_1000"),
    "exact-bonus": Ruleset(
        target=2000, end_rule="exact", piggyback="bonus", entry_minimum=350, entry_roll_limit=2
    ),
    "teams": Ruleset(target=3000, teams=2, piggyback="previous_points", hot_dice="forced"),
    "instant": Ruleset(
        target=3000, six_ones=5000, six_ones_instant_win=True, penalty_roll=-500, bank_minimum=300
    ),
    "last-loses-3": Ruleset(target=2000, end_rule="last_loses", three_farkles="reset"),
}
TURN_CAP = 5000


def new_random_game(name: str, seed: int) -> Game:
    players = ["a", "b", "c", "d"] if name == "teams" else ["a", "b", "c"][: 2 + seed % 2]
    return Game.new(RULESETS[name], players, ScriptedDice([], seed=seed))


def play_random(
    game: Game, rng: random.Random, disrupt: float = 0.0, steps: int | None = None
) -> list[list[Event]]:
    """Random legal moves (sometimes a timeout or someone leaving) until the end, the cap or `steps`."""
    batches: list[list[Event]] = []
    while game.result is None and game.turn_number < TURN_CAP and (steps is None or len(batches) < steps):
        if rng.random() < disrupt:
            active = [p.id for p in game.players if p.active]
            action = Action("timeout", str(game.current_player)) if rng.random() < 0.5 else None
            action = action or Action("leave", rng.choice(active))
        else:
            action = rng.choice(game.legal_actions())
        batches.append(game.apply(action))
    return batches


game_names = st.sampled_from(sorted(RULESETS))
seeds = st.integers(0, 2**32)


@settings(max_examples=60, deadline=None)
@given(game_names, seeds, st.sampled_from([0.0, 0.02]))
def test_random_legal_play_always_ends_with_a_result(name: str, seed: int, disrupt: float) -> None:
    game = new_random_game(name, seed)
    play_random(game, random.Random(seed), disrupt)
    result = game.result
    assert result is not None, f"no result after {TURN_CAP} turns"
    placed = [pid for group in result.placements for pid in group]
    assert sorted(placed) == sorted(p.id for p in game.players)
    assert result.winners and set(result.placements[0]) <= set(result.winners) <= set(placed)
    assert game.phase == "over" and game.events[-1].kind == "game_over"


@settings(max_examples=40, deadline=None)
@given(game_names, seeds, st.integers(0, 400))
def test_json_round_trip_at_any_point(name: str, seed: int, steps: int) -> None:
    game = new_random_game(name, seed)
    play_random(game, random.Random(seed), 0.01, steps)
    restored = Game.from_json(game.to_json())
    assert restored.to_json() == game.to_json()
    assert restored.players == game.players and restored.turn == game.turn and restored.result == game.result
    play_random(game, random.Random(seed + 1), 0.01)
    play_random(restored, random.Random(seed + 1), 0.01)
    assert restored.to_json() == game.to_json()


@settings(max_examples=40, deadline=None)
@given(game_names, seeds, st.integers(0, 400))
def test_a_state_saved_without_events_replays_them_from_the_starting_dice(
    name: str, seed: int, steps: int
) -> None:
    game = new_random_game(name, seed)
    dice_start = ScriptedDice([], seed=seed).state()
    play_random(game, random.Random(seed), 0.01, steps)
    state = game.state(events=False)
    assert "events" not in state
    restored = Game.from_state(json.loads(json.dumps(state)), dice_start)
    assert restored.to_json() == game.to_json(), "every event back, and the same state"
    with pytest.raises(ValueError, match="started with"):
        Game.from_state(state)


@settings(max_examples=40, deadline=None)
@given(game_names, seeds)
def test_same_seed_and_actions_replay_to_the_same_state(name: str, seed: int) -> None:
    game = new_random_game(name, seed)
    dice_state = ScriptedDice([], seed=seed).state()
    play_random(game, random.Random(seed), 0.01)
    players = [p.id for p in game.players]
    teams = [p.team for p in game.players if p.team is not None] or None
    replayed = Game.replay(game.rules, players, dice_state, game.history, teams)
    assert replayed.to_json() == game.to_json()


@settings(max_examples=60, deadline=None)
@given(game_names, seeds, st.sampled_from([0.0, 0.02]))
def test_points_are_conserved(name: str, seed: int, disrupt: float) -> None:
    """Banks move only by banked turns (the sum of their keeps), penalties, three Farkles and overflow."""
    game = new_random_game(name, seed)
    batches = play_random(game, random.Random(seed), disrupt)
    rules = game.rules
    side_of = {p.id: (p.team if p.team is not None else seat) for seat, p in enumerate(game.players)}
    banks = [0] * len(game.sides)
    kept = inherited = 0
    for batch in batches:
        for i, e in enumerate(batch):
            if isinstance(e, TurnStarted):
                kept = inherited = 0
            elif isinstance(e, Kept):
                kept += e.points
            elif isinstance(e, Piggybacked):
                inherited = e.points
            elif isinstance(e, Banked):
                assert e.points == kept + inherited
                following = batch[i + 1] if i + 1 < len(batch) else None
                excess = following.points if isinstance(following, Overflow) else 0
                side = side_of[e.player]
                assert e.bank == banks[side] + e.points - excess
                banks[side] = e.bank
            elif isinstance(e, Overflow):
                recipient = side_of[e.recipient]
                banks[recipient] = min(rules.target, banks[recipient] + e.points)
                assert e.bank == banks[recipient]
            elif isinstance(e, ThreeFarkles | PenaltyRoll):
                side = side_of[e.player]
                assert e.bank == banks[side] + e.change
                banks[side] = e.bank
            if rules.end_rule == "exact":
                assert max(banks) <= rules.target
    assert tuple(banks) == game.sides


@pytest.mark.parametrize("name", sorted(RULESETS))
@pytest.mark.parametrize("seed", range(4))
def test_games_play_to_the_end_under_every_rule_set(name: str, seed: int) -> None:
    game = new_random_game(name, seed)
    play_random(game, random.Random(seed))
    result, rules = game.result, game.rules
    assert result is not None
    top = max(game.sides)
    winners_banks = {result.banks[w] for w in result.winners}
    if rules.end_rule == "last_loses":
        assert result.reason == "last_loses"
        loser = result.placements[-1]
        assert all(result.banks[p] < rules.target for p in loser)
        assert all(result.banks[p] >= rules.target for p in result.winners)
    elif result.reason == "target":
        assert top >= rules.target
        if "playoff" not in kinds(game.events):
            assert winners_banks == {top}
        if rules.end_rule == "exact":
            assert top == rules.target
    else:
        assert result.reason == "instant_win" and rules.six_ones_instant_win


@settings(max_examples=40, deadline=None)
@given(game_names, seeds)
def test_the_best_bank_is_the_bank_whose_preview_totals_most(name: str, seed: int) -> None:
    """`best_bank` (one pass over the roll's options) against every legal bank previewed, the first of
    equals, at every step of a random game."""
    game = new_random_game(name, seed)
    rng = random.Random(seed)
    while game.result is None and game.turn_number < TURN_CAP:
        banks = [action.keep for action in game.legal_actions() if action.kind == "bank"]
        totals = [game.preview(keep).turn_total for keep in banks]
        expected = (banks[totals.index(max(totals))], max(totals)) if banks else None
        assert game.best_bank() == expected
        game.apply(rng.choice(game.legal_actions()))


@settings(max_examples=40, deadline=None)
@given(game_names, seeds)
def test_a_legal_moves_reading_is_what_its_preview_says_and_the_kept_moves_are_never_stale(
    name: str, seed: int
) -> None:
    """The review's reading of a legal move (its total and dice left, read off the roll without judging
    the keep again) against the keep previewed; and the legal moves kept between actions against a fresh
    listing, asked before and after every action of a random game."""
    game = new_random_game(name, seed)
    rng = random.Random(seed)
    while game.result is None and game.turn_number < TURN_CAP:
        legal = game.legal_actions()
        assert legal == list_legal_actions(game._state)
        for action in legal if game.phase == "choosing" else ():
            move, preview = _as_move(game, action), game.preview(action.keep)
            assert move.total == preview.turn_total
            assert move.dice == (0 if action.kind == "bank" else preview.dice_to_roll)
        game.apply(rng.choice(legal))
