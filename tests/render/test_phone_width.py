"""What keeps a board and the results on one line per item at a phone's width (390 px): no bars past four
players, and the results' numbers labelled in words that break only between items."""

from __future__ import annotations

from bot.engine import Game, Ruleset, ScriptedDice
from bot.render.table import render
from bot.services.i18n import translator
from bot.sessions.session import Seat, Session
from tests.render.test_every_language import texts


def table(players: int) -> Session:
    session = Session(game_id="abc123", guild_id=1, channel_id=2, host_id=10, rules=Ruleset.preset("classic"))
    session.seats = [Seat(10 + seat, f"player{seat}") for seat in range(players)]
    ids = [seat.player_id for seat in session.seats]
    session.game = Game.new(session.rules, ids, ScriptedDice([tuple(range(players, 0, -1))]))
    session.stage = "playing"
    return session


def standings(session: Session) -> list[str]:
    shown = "\n".join(texts(render(session.snapshot(), translator("en"))))
    return shown.split("**Standings**\n", 1)[1].split("\n\n", 1)[0].splitlines()


def test_bars_up_to_four_players_and_none_past() -> None:
    four, six = standings(table(4)), standings(table(6))
    assert len(four) == 4 and all("▱▱▱▱▱▱▱▱" in line for line in four)
    assert len(six) == 6 and not any("▱" in line for line in six)
    assert max(len(line) for line in six) < 30, "short enough for a phone"


def test_results_numbers_are_words_that_wrap_only_between_items() -> None:
    session = table(2)
    game = session.game
    assert game is not None
    session.remember(game.leave("11"))
    session.stage = "over"
    for language in ("en", "de"):
        shown = "\n".join(texts(render(session.snapshot(), translator(language))))
        line = next(line for line in shown.splitlines() if line.startswith("**player0**"))
        items = line.split(": ", 1)[1].split(" · ")
        assert len(items) == 4 and all(" " not in item for item in items), items
        assert all("\u00a0" in item for item in items), "each item holds its words with no-break spaces"
    english = "\n".join(texts(render(session.snapshot(), translator("en")))).replace("\u00a0", " ")
    assert "**player0**: best turn 0 · 💥 0 Farkles · 🔥 0 hot dice · 🎲 1 turn" in english
