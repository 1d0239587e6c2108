"""The largest boards stay inside Components V2's limits in every language: 8 players with 32-character
names, every line the board can draw."""

from __future__ import annotations

import pytest

from bot.engine import Game, Ruleset, ScriptedDice
from bot.render.components import MOST_COMPONENTS, MOST_TEXT, Rendered
from bot.render.dice import KEYCAP_ART
from bot.render.language import LANGUAGES
from bot.render.table import render
from bot.services.i18n import translator
from bot.sessions.session import Seat, Session

FARKLE = (2, 3, 4, 6, 2, 3)


def table_of_eight() -> Session:
    """Eight players named with 32 wide characters, box rules (entry minimum), each farkled once."""
    rules = Ruleset.preset("box")
    ids = [10 + seat for seat in range(8)]
    session = Session(game_id="f" * 10, guild_id=1, channel_id=2, host_id=ids[0], rules=rules)
    session.seats = [Seat(user_id, f"{seat}" + "W" * 31) for seat, user_id in enumerate(ids)]
    dice = ScriptedDice([(6, 5, 4, 3, 2, 1, 1, 1), *[FARKLE] * 8, (1, 1, 5, 2, 3, 4)])
    session.game = Game.new(rules, [str(user_id) for user_id in ids], dice)
    session.stage = "playing"
    for _ in range(8):
        session.remember(session.game.roll(str(session.current_seat.user_id)))  # type: ignore[union-attr]
    session.remember(session.game.roll(str(session.current_seat.user_id)))  # type: ignore[union-attr]
    session.selection = (0, 1, 2)
    session.deadline = 1_800_000_000.0
    return session


def assert_within_limits(rendered: Rendered) -> None:
    view = rendered.view
    assert view.total_children_count <= MOST_COMPONENTS
    assert view.content_length() <= MOST_TEXT
    for item in view.walk_parts():
        assert len(getattr(item, "label", None) or "") <= 80
        assert len(getattr(item, "custom_id", None) or "") <= 100


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_largest_game_and_results_fit_in_every_language(language: str) -> None:
    tr = translator(language)
    session = table_of_eight()
    board = session.snapshot()
    assert len(board.seats) == 8 and len(board.recent) >= 8
    assert_within_limits(render(board, tr, KEYCAP_ART))
    at_the_table = render(board, tr, KEYCAP_ART, at_the_table=True)
    assert_within_limits(at_the_table)
    assert at_the_table.view.total_children_count == render(board, tr).view.total_children_count + 1
    game = session.game
    assert game is not None
    for seat in session.seats[1:]:
        session.remember(game.leave(seat.player_id))
    session.stage = "over"
    results = session.snapshot()
    assert results.numbers, "results with every player's numbers"
    assert_within_limits(render(results, tr, KEYCAP_ART))


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_fullest_lobby_fits_in_every_language(language: str) -> None:
    """A member and seven computers at chosen skills (seven removal buttons), every Add-computer button
    (the four levels and "your level") and the line saying why "your level" is normal's."""
    session = Session(game_id="f" * 10, guild_id=1, channel_id=2, host_id=10, rules=Ruleset.preset("classic"))
    computers = [Seat(-n, f"Computer {n} (skill 100)", computer="skill:100") for n in range(1, 8)]
    session.seats = [Seat(10, "W" * 32), *computers]
    lobby = render(session.snapshot(), translator(language))
    assert_within_limits(lobby)
    labels = [getattr(item, "label", "") or "" for item in lobby.view.walk_parts()]
    assert (
        sum(
            1
            for label in labels
            if label.startswith(translator(language).text("Add computer: {level}", level=""))
        )
        == 5
    )
