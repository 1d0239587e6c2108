"""Every state a member can meet, drawn in every language: no message id without a translation, and no
English board word on a translated drawing.

The translator is wrapped so that each message id it is asked for and does not find counts as a miss
(an id added to the source but not to a catalogue, or one the extractor never saw, such as a `tr.text`
inside an f-string). The English words are the ones a player reads on boards, results and reviews.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator

import discord
import pytest
import simcord

from bot.core.records import GameSummary
from bot.engine import Game, Ruleset, ScriptedDice
from bot.engine.review import Decision, GameReview, Move, PlayerReview
from bot.engine.strategies import advise
from bot.render.components import Drawing, Rendered
from bot.render.daily import daily_board
from bot.render.dice import KEYCAP_ART
from bot.render.help import help_embed, hint_text, rules_embed
from bot.render.language import LANGUAGES, SOURCE_LANGUAGE, Translator
from bot.render.replay import replay_card
from bot.render.review import review_card
from bot.render.stats import history_embed, replay_lines, stats_embed
from bot.render.table import render
from bot.services.i18n import translator
from bot.sessions.daily.attempt import DailyAttempt
from bot.sessions.outcome import Hint
from bot.sessions.session import Seat, Session
from cogs.farkle import command_descriptions
from tests.solved import policies_for

TRANSLATED = [code for code in LANGUAGES if code != SOURCE_LANGUAGE]
# What an English board says that a translated one must say in its own words.
ENGLISH = (
    "turn total", "Standings", "Final standings", "Set aside", "Next roll", "Press **Join**", "Rematch",
    "wins!", "Bank all", "Bank ", "Roll ", "Hot dice", "hot dice", "Farkle chance", "farkled", "banked",
    "ran out of time", "Latest", "Last moves", "Numbers", "best turn", "Players (", "Leave", "Hint",
    "Add computer", "(easy)", "(normal)", "(expert)", "(master)", "custom", "Doesn't score", "Pick dice",
    "Review of game", "Replay of game", "Previous", "Next", "Accuracy", "Turn ", "rolled ", "kept ",
    "Daily challenge", "This turn", "Chances to win", "you win", "Computer levels", "rules ·", "· move",
    "(skill ", "your level", "Your level", "Skill counts", "Shaky", "small slips", "not yet",
)  # fmt: skip
COMPUTER = {"fr": "Computer", "es": "Computer", "pt-BR": "Computer"}  # German says "Computer" too


class Watched(gettext.NullTranslations):
    """A catalogue that records every message id it does not hold."""

    def __init__(self, inner: gettext.GNUTranslations) -> None:
        super().__init__()
        self.inner, self.missed = inner, set[str]()

    def gettext(self, message: str) -> str:
        if message not in self.inner._catalog:  # type: ignore[attr-defined]
            self.missed.add(message)
        return self.inner.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        if (singular, 0) not in self.inner._catalog:  # type: ignore[attr-defined]
            self.missed.add(singular)
        return self.inner.ngettext(singular, plural, n)


def watched(language: str) -> tuple[Translator, Watched]:
    catalogue = Watched(translator(language)._translations)  # type: ignore[arg-type]
    return Translator(language, catalogue), catalogue


def texts(drawn: Rendered | discord.Embed | Drawing | str) -> Iterator[str]:
    if isinstance(drawn, str):
        yield drawn
    elif isinstance(drawn, discord.Embed):
        yield from (drawn.title or "", drawn.description or "", drawn.footer.text or "")
        for field in drawn.fields:
            yield from (field.name or "", field.value or "")
    else:
        view = drawn.view if isinstance(drawn, Rendered) else drawn
        for item in view.walk_parts():
            yield getattr(item, "content", None) or getattr(item, "label", None) or ""


def spaced(drawings: Iterator[object]) -> str:
    """All the text, no-break spaces read as spaces (the results keep each item on one line with them)."""
    shown = "\n".join(text for drawn in drawings for text in texts(drawn))  # type: ignore[arg-type]
    return shown.replace("\u00a0", " ").replace("\u202f", " ")


def session(rules: str = "classic", *rolls: tuple[int, ...]) -> Session:
    table = Session(game_id="abc123", guild_id=1, channel_id=2, host_id=10, rules=Ruleset.preset(rules))
    table.seats = [Seat(10, "Alex"), Seat(-1, "Computer 1 (master)", computer="master")]
    return table


def play(table: Session, *rolls: tuple[int, ...]) -> Game:
    table.game = Game.new(table.rules, [s.player_id for s in table.seats], ScriptedDice([(6, 2), *rolls]))
    table.stage = "playing"
    table.remember(list(table.game.events))
    table.deadline = 1_800_000_000.4
    return table.game


@pytest.fixture
def descriptions(env: simcord.Env) -> dict[str, str]:
    """What the help card says of each slash command: its description, from the bot's command tree."""
    found = command_descriptions(env.bot.tree)
    assert "farkle new" in found and "farkle-config set" in found
    return found


def every_drawing(tr: Translator, descriptions: dict[str, str]) -> Iterator[object]:
    """Lobby, each phase of a turn, a Farkle, hot dice, a timeout, the results, review, history, replay,
    rules, help, hint and the daily board."""
    table = session()
    yield render(table.snapshot(), tr)  # the lobby, with a computer
    lobby = session()
    lobby.seats.append(Seat(-2, "Computer 2 (skill 72)", computer="skill:72"))
    yield render(lobby.snapshot(), tr)  # a computer at a chosen skill; "your level" at normal's, and why
    yield stats_embed("Alex", None, tr, skill=(0.0021, 50))  # no rated game, a skill from computers
    yield stats_embed("Alex", None, tr, skill=(0.0, 7), everywhere=True)  # not yet: 7 of 20
    game = play(table, (1, 5, 2, 3, 3, 4), (1, 1, 5, 5), (5, 2, 3, 4, 6, 6), (2, 3, 4, 6, 6))
    yield render(table.snapshot(), tr)  # a turn before its first roll (the roll-off above it)
    table.remember(game.roll("10"))
    yield render(table.snapshot(), tr)  # a roll, nothing selected: Bank all
    table.selection = (0, 1)
    yield render(table.snapshot(), tr)  # a selection
    yield render(table.snapshot(), tr, watching=True)  # a spectator's follow board
    table.selection = (2,)
    yield render(table.snapshot(), tr)  # a selection that doesn't score
    table.remember(game.roll("10", (0, 1)))  # four dice left, two set aside
    table.selection = ()
    yield render(table.snapshot(), tr)
    advice = advise(game, policies_for(game.rules))
    yield hint_text(Hint(advice, None, True), table.snapshot(), tr)
    yield hint_text(Hint(advice, None, False, 0.347), table.snapshot(), tr)  # three or more players
    table.remember(game.roll("10", (0, 1, 2, 3)))  # every die kept: hot dice, six fresh ones
    yield render(table.snapshot(), tr)
    table.remember(game.roll("10", (0,)))  # farkles: the computer's turn
    yield render(table.snapshot(), tr)
    table.remember(game.timeout("-1"))
    yield render(table.snapshot(), tr)
    table.remember(game.leave("-1"))
    table.stage = "over"
    yield render(table.snapshot(), tr)  # the results
    names = {"10": "Alex", "-1": "Computer 1 (master)"}
    worst = Decision(
        "10", 0, 3, (1, 5, 5, 2, 3, 4), Move("roll", (1, 5), 150, 4), Move("bank", (), 250, 0), 0.0, 1.0, -1.0
    )
    review = GameReview(
        "win", (PlayerReview("10", 3, 0.5, 1, (worst,)), PlayerReview("-1", 3, 1.0, 0, ())), (worst,)
    )
    yield review_card("abc123", review, names, tr)
    shaky = GameReview("win", (PlayerReview("10", 35, 0.74, 0, (worst,)),), (worst,))
    yield review_card("abc123", shaky, names, tr)  # shaky without a costly choice
    yield history_embed(
        "—", [GameSummary("abc123", 2, 1_800_000_000, "classic", (("Computer 2 (skill 72)", 500, True),))], tr
    )
    yield history_embed(
        "—", [GameSummary("abc123", 2, 1_800_000_000, "custom", (("Computer 1 (master)", 500, True),))], tr
    )
    yield from replay_lines(game, names, tr)
    yield from replay_card("abc123", [["—"], ["—"]], 0, tr)
    yield rules_embed(Ruleset.preset("box"), tr, title="—")
    yield help_embed(tr, descriptions)
    attempt = DailyAttempt(
        user_id=10, name="Alex", guild_id=1, day=20000, score=300, turn_number=2, rolls=1,
        roll=(1, 5, 2, 3, 3, 4), selected=(0,), turn_total=0, dice_left=6, ends=("banked",),
        turn_points=(300,), kept=((1, 5),), finished=False,
    )  # fmt: skip
    yield daily_board(attempt, tr, KEYCAP_ART)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_state_in_every_language_is_translated(language: str, descriptions: dict[str, str]) -> None:
    tr, catalogue = watched(language)
    shown = spaced(every_drawing(tr, descriptions))
    assert not catalogue.missed, f"no {language} translation for: {sorted(catalogue.missed)}"
    english = [word for word in ENGLISH if word in shown]
    assert not english, f"English on a {language} drawing: {english}\n{shown}"
    if language in COMPUTER:
        assert COMPUTER[language] not in shown, "a computer is named in the reader's language"
    if language == "fr":
        assert "de Alex" not in shown and "À Alex de jouer" in shown, "no 'de' before a vowel (d’Alex)"


def test_the_scan_sees_english(descriptions: dict[str, str]) -> None:
    """The same scan over the English drawings finds the words it looks for (so it can fail)."""
    tr, catalogue = watched("de")
    shown = spaced(every_drawing(translator("en"), descriptions))
    assert {
        "Set aside",
        "Bank all",
        "Hot dice",
        "(master)",
        "best turn",
        "farkled",
        "(skill ",
        "your level",
    } | {"Your level", "Skill counts", "small slips", "not yet"} <= {w for w in ENGLISH if w in shown}
    assert tr.text("an id no catalogue has") == "an id no catalogue has" and catalogue.missed
