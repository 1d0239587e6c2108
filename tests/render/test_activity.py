"""The Activity's table is drawn from the same snapshot and words as the chat board, for one member."""

from __future__ import annotations

from bot.engine import Game, Ruleset, ScriptedDice
from bot.render.activity import PAGE_WORDS, die_name, moves, table
from bot.render.turn import bank_label, roll_label
from bot.services.i18n import translator
from bot.sessions.session import Seat, Session

ANA, BEN, CY = 11, 12, 13


def rolled_game(selection: tuple[int, ...] = ()) -> Session:
    """Ana and Ben at the classic rules, Ana to move with (1, 5, 2, 3, 4, 6) on the table."""
    rules = Ruleset.preset("classic")
    session = Session(game_id="abc", guild_id=1, channel_id=2, host_id=ANA, rules=rules)
    session.seats = [Seat(ANA, "Ana"), Seat(BEN, "Ben")]
    session.game = Game.new(rules, [str(ANA), str(BEN)], ScriptedDice([(6, 2), (1, 5, 2, 3, 4, 6)]))
    session.stage = "playing"
    session.remember(session.game.roll(str(ANA)))
    session.selection = selection
    return session


def test_the_player_to_move_gets_the_boards_words_and_their_moves() -> None:
    snapshot = rolled_game((0,)).snapshot()
    tr = translator("de")
    drawn = table(snapshot, ANA, tr)
    assert drawn["current"] == str(ANA) and drawn["version"] == snapshot.version
    assert drawn["turn"]["roll"] == [1, 5, 2, 3, 4, 6] and drawn["turn"]["picked"] == [0]
    assert drawn["labels"] == {"roll": roll_label(snapshot, tr), "bank": bank_label(snapshot, tr)}
    assert drawn["turn"]["die_names"][:2] == ["Würfel 1, gewählt", "Würfel 2"]
    assert set(drawn["moves"]) >= {"pick", "drop", "roll", "bank"} and "bank_all" not in drawn["moves"]
    assert drawn["words"]["standings"] == tr.term(PAGE_WORDS["standings"]) != "Standings"
    assert [p["name"] for p in drawn["players"]] == ["Ana", "Ben"] and drawn["language"] == "de"


def test_nothing_picked_offers_bank_all_and_a_spectator_nothing() -> None:
    snapshot = rolled_game().snapshot()
    assert "bank_all" in moves(snapshot, ANA) and "bank" not in moves(snapshot, ANA)
    assert moves(snapshot, BEN) == [] and moves(snapshot, CY) == []
    watched = table(snapshot, CY, translator("en"))
    assert watched["turn"] == table(snapshot, ANA, translator("en"))["turn"], "the same table for everyone"


def test_a_lobby_offers_joining_and_the_host_starting() -> None:
    session = rolled_game()
    session.stage, session.game = "lobby", None
    snapshot = session.snapshot()
    assert moves(snapshot, ANA) == ["leave", "start"]
    assert moves(snapshot, CY) == ["join"]
    assert table(None, CY, translator("en"))["moves"] == ["new"]
    assert die_name(2, False, translator("fr")) == "dé 3"
