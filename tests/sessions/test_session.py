"""The stored session format: versioned, upgraded on load, and refused when it is newer than the bot."""

from __future__ import annotations

import json

import pytest

from bot.engine import Game, Ruleset, ScriptedDice
from bot.sessions.session import FORMAT, Seat, Session


def playing() -> Session:
    rules = Ruleset.preset("classic")
    session = Session(game_id="abc", guild_id=1, channel_id=2, host_id=10, rules=rules)
    session.seats = [Seat(10, "ana"), Seat(11, "ben")]
    session.game = Game.new(rules, ["10", "11"], ScriptedDice([(6, 2), (1, 5, 2, 3, 4, 6)], seed=1))
    session.stage = "playing"
    session.game.roll("10")
    return session


def test_a_format_1_row_loads_with_its_current_turn_counted_as_pinged() -> None:
    session = playing()
    old = json.loads(session.dump())
    del old["format"], old["pinged_turn"]
    loaded = Session.load(json.dumps(old))
    assert session.game is not None and loaded.pinged_turn == session.game.turn_number
    assert json.loads(loaded.dump())["format"] == FORMAT
    assert loaded.snapshot() == session.snapshot()


def test_a_row_from_a_newer_bot_is_refused() -> None:
    newer = {**json.loads(playing().dump()), "format": FORMAT + 1}
    with pytest.raises(ValueError, match="newer"):
        Session.load(json.dumps(newer))


def test_the_roll_sequence_moves_with_the_dice_not_with_the_selection() -> None:
    session = playing()
    seq = session.seq
    session.selection = (0, 1)
    assert session.seq == seq
    assert session.game is not None
    session.game.roll("10", (0, 1))
    assert session.seq != seq
