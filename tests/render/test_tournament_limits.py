"""A 64-player tournament's card and podium stay inside Components V2's limits in every language, with
32-character names, at sign-up, in the first round and at the end."""

from __future__ import annotations

import random

import pytest

from bot.engine import Ruleset
from bot.engine.tournament import Bracket
from bot.render.language import LANGUAGES
from bot.render.tournament import match_call, match_line, podium, thread_title, tournament_card
from bot.services.i18n import translator
from bot.sessions.tournament.state import Tournament
from tests.render.test_board_limits import assert_within_limits


def tournament_of(players: int, format: str = "single") -> Tournament:
    tournament = Tournament(
        tournament_id="a" * 12,
        guild_id=1,
        channel_id=2,
        host_id=3,
        name="W" * 100,
        format="swiss" if format == "swiss" else "single",
        rounds=0,
        best_of=3,
        rules=Ruleset.preset("classic"),
        match_deadline=600,
        signup_until=1_800_000_000.0,
        created_at=0.0,
    )
    tournament.entrants = {10 + n: f"{n}" + "W" * 31 for n in range(players)}
    return tournament


def played_out(tournament: Tournament, rounds: int | None = None) -> Tournament:
    tournament.bracket = Bracket.start(tournament.format, list(tournament.entrants), 3)
    tournament.stage = "running"
    pick = random.Random(4)
    for _ in range(rounds if rounds is not None else tournament.bracket.rounds_total):
        for match in tournament.bracket.open_matches():
            winner = pick.choice(match.players)
            while not match.decided:
                tournament.bracket.record_game(match.key, winner)
        tournament.bracket.next_round()
    if tournament.bracket.finished:
        tournament.stage = "over"
    return tournament


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("format", ["single", "swiss"])
def test_the_largest_cards_fit(language: str, format: str) -> None:
    tr = translator(language)
    assert_within_limits(tournament_card(tournament_of(64, format).view(), tr))
    running = tournament_of(64, format)
    running.bracket = Bracket.start(running.format, list(running.entrants), 3)
    running.stage = "running"
    assert_within_limits(tournament_card(running.view(), tr))
    match = running.bracket.current[0]
    text, _ = match_call(running.view(), match, tr)
    assert len(text) <= 2000
    assert_within_limits(tournament_card(played_out(tournament_of(64, format), 3).view(), tr))
    over = played_out(tournament_of(64, format)).view()
    assert over.stage == "over"
    assert_within_limits(tournament_card(over, tr))
    assert_within_limits(podium(over, tr))


@pytest.mark.parametrize("language", [language for language in LANGUAGES if language != "en"])
def test_match_lines_and_thread_titles_are_in_the_readers_language(language: str) -> None:
    tr = translator(language)
    running = tournament_of(8)
    running.bracket = Bracket.start(running.format, list(running.entrants), 3)
    running.stage = "running"
    view = running.view()
    open_match = view.bracket.current[0]
    lines = [match_line(view, open_match, tr), thread_title(view, open_match, tr)]
    decided = played_out(tournament_of(8), 1).view()
    lines += [match_line(decided, match, tr) for match in decided.bracket.rounds[0]]
    for line in lines:
        assert " vs " not in line and " beat " not in line, line
