"""Tournament pairings and placings: tables for the bracket's shape, properties over whole tournaments."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.tournament import STAND_IN, Bracket, bracket_order, elimination_rounds, swiss_pairs


def play_out(bracket: Bracket, pick: random.Random) -> None:
    """Every open match won by a random player, round after round, to the end."""
    while not bracket.finished:
        for match in bracket.open_matches():
            winner = pick.choice(match.players)
            while not match.decided:
                bracket.record_game(match.key, winner)
        bracket.next_round()


@pytest.mark.parametrize(
    ("size", "order"),
    [(2, [1, 2]), (4, [1, 4, 2, 3]), (8, [1, 8, 4, 5, 2, 7, 3, 6])],
)
def test_bracket_order_keeps_the_best_seeds_apart(size: int, order: list[int]) -> None:
    assert bracket_order(size) == order


def test_eight_players_first_round_pairs_seeds_one_with_eight() -> None:
    bracket = Bracket.start("single", [11, 12, 13, 14, 15, 16, 17, 18])
    assert [m.players for m in bracket.current] == [(11, 18), (14, 15), (12, 17), (13, 16)]
    assert bracket.rounds_total == 3 and not any(m.decided for m in bracket.current)


def test_six_players_give_the_two_best_seeds_a_bye() -> None:
    bracket = Bracket.start("single", [1, 2, 3, 4, 5, 6])
    assert [(m.players, m.how) for m in bracket.current] == [
        ((1,), "bye"),
        ((4, 5), None),
        ((2,), "bye"),
        ((3, 6), None),
    ]
    bracket.record_game("1-2", 5)
    assert bracket.next_round() == [], "the round is not over"
    bracket.record_game("1-4", 3)
    assert [m.players for m in bracket.next_round()] == [(1, 5), (2, 3)]


def test_best_of_three_needs_two_wins() -> None:
    bracket = Bracket.start("single", [1, 2, 3, 4], best_of=3)
    assert not bracket.record_game("1-1", 4)
    assert not bracket.record_game("1-1", 1)
    assert bracket.record_game("1-1", 4)
    match = bracket.match("1-1")
    assert match is not None and (match.winner, match.games) == (4, [4, 1, 4])
    assert not bracket.record_game("1-1", 1), "a decided match takes no more games"


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=4, max_value=64), st.integers(min_value=0, max_value=2**32))
def test_single_elimination_crowns_one_champion_after_n_minus_one_matches(entrants: int, seed: int) -> None:
    bracket = Bracket.start("single", list(range(1, entrants + 1)))
    play_out(bracket, random.Random(seed))
    played = [m for rnd in bracket.rounds for m in rnd if m.second is not None]
    assert len(played) == entrants - 1, "every match eliminates one player"
    assert len(bracket.rounds) == elimination_rounds(entrants)
    losers = [m.loser for m in played]
    assert len(set(losers)) == len(losers), "nobody loses twice"
    champion = bracket.champion()
    assert champion is not None and champion not in losers
    standings = bracket.standings()
    assert standings[0].player == champion
    assert sorted(s.player for s in standings) == list(range(1, entrants + 1))
    assert [s.place for s in standings][:2] == [1, 2]
    if entrants >= 4:
        assert [s.place for s in standings][2:4] == [3, 3], "the semi-final losers share third"


def test_five_player_swiss_adds_a_stand_in_and_avoids_rematches() -> None:
    bracket = Bracket.start("swiss", [1, 2, 3, 4, 5], rounds=3)
    assert bracket.seeds == [1, 2, 3, 4, 5, STAND_IN]
    met: set[frozenset[int]] = set()
    play_out(bracket, random.Random(7))
    for rnd in bracket.rounds:
        assert sorted(p for m in rnd for p in m.players) == [STAND_IN, 1, 2, 3, 4, 5]
        for match in rnd:
            pair = frozenset(match.players)
            assert pair not in met, f"a rematch in round {match.round}"
            met.add(pair)
    assert STAND_IN not in [s.player for s in bracket.standings()]


def test_swiss_pairs_equal_scores_first() -> None:
    points = {1: 1.0, 2: 1.0, 3: 1.0, 4: 1.0, 5: 0.0, 6: 0.0, 7: 0.0, 8: 0.0}
    met = {frozenset((1, 5)), frozenset((2, 6)), frozenset((3, 7)), frozenset((4, 8))}
    assert swiss_pairs(list(points), points, met) == [(1, 2), (3, 4), (5, 6), (7, 8)]
    met.add(frozenset((1, 2)))
    assert swiss_pairs(list(points), points, met) == [(1, 3), (2, 4), (5, 6), (7, 8)]


def test_swiss_pairs_a_rematch_only_when_nothing_else_completes_the_round() -> None:
    points = {1: 0.0, 2: 0.0}
    assert swiss_pairs([1, 2], points, {frozenset((1, 2))}) == [(1, 2)]


def test_swiss_tie_breaks_recomputed_by_hand() -> None:
    """Four players, two rounds: 1 beats 4 and 2; 2 beats 3; 3 beats 4 (round 2)."""
    bracket = Bracket.start("swiss", [1, 2, 3, 4], rounds=2)
    assert [m.players for m in bracket.current] == [(1, 2), (3, 4)]
    bracket.record_game("1-1", 1)
    bracket.record_game("1-2", 4)
    assert [m.players for m in bracket.next_round()] == [(1, 4), (2, 3)]
    bracket.record_game("2-1", 1)
    bracket.record_game("2-2", 2)
    assert bracket.finished
    lines = {s.player: s for s in bracket.standings()}
    points = {1: 2, 2: 1, 3: 0, 4: 1}
    assert {p: s.points for p, s in lines.items()} == points
    assert lines[1].buchholz == points[2] + points[4] == 2
    assert lines[2].buchholz == points[1] + points[3] == 2
    assert lines[4].buchholz == points[3] + points[1] == 2
    assert lines[2].sonneborn_berger == points[3] == 0
    assert lines[4].sonneborn_berger == points[3] == 0
    # 2 and 4 tie on points, Buchholz and Sonneborn-Berger and matches won: the better seed is ahead.
    assert [(s.player, s.place) for s in bracket.standings()] == [(1, 1), (2, 2), (4, 3), (3, 4)]


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=4, max_value=40), st.integers(min_value=0, max_value=2**32))
def test_swiss_points_sum_to_the_matches_won(entrants: int, seed: int) -> None:
    bracket = Bracket.start("swiss", list(range(1, entrants + 1)))
    play_out(bracket, random.Random(seed))
    matches = [m for rnd in bracket.rounds for m in rnd]
    assert sum(bracket.points().values()) == len(matches)
    for line in bracket.standings():
        opponents = [
            next(p for p in m.players if p != line.player) for m in matches if line.player in m.players
        ]
        assert line.buchholz == sum(bracket.points()[o] for o in opponents)
        assert line.won + line.lost == len(bracket.rounds)


def test_disqualified_player_loses_the_open_match_and_is_paired_no_more() -> None:
    bracket = Bracket.start("swiss", [1, 2, 3, 4, 5, 6], rounds=3)
    match = bracket.disqualify(3)
    assert match is not None and (match.winner, match.how) == (
        next(p for p in match.players if p != 3),
        "disqualified",
    )
    for m in bracket.open_matches():
        bracket.record_game(m.key, m.first)
    second = bracket.next_round()
    assert 3 not in [p for m in second for p in m.players]
    assert STAND_IN in [p for m in second for p in m.players], "five left: the stand-in plays"


def test_single_elimination_no_show_on_both_sides_needs_a_winner() -> None:
    bracket = Bracket.start("single", [1, 2, 3, 4])
    with pytest.raises(ValueError, match="advances"):
        bracket.decide("1-1", None, "forfeit")
    assert bracket.decide("1-1", 1, "forfeit")
    assert not bracket.decide("1-1", 4, "advanced"), "decided once"


def test_json_round_trip_keeps_everything() -> None:
    bracket = Bracket.start("swiss", [5, 6, 7, 8, 9], best_of=3, rounds=3)
    bracket.record_game("1-1", 5)
    bracket.disqualify(9)
    assert Bracket.from_json(bracket.to_json()) == bracket
