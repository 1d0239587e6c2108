"""The stored session format: versioned, upgraded on load, and refused when it is newer than the bot."""

from __future__ import annotations

import json

import pytest

from bot.engine import Game, Ruleset, ScriptedDice
from bot.sessions.session import FORMAT, ROLLBACK_WINDOW_BITS, Seat, Session


def playing() -> Session:
    rules = Ruleset.preset("classic")
    session = Session(game_id="abc", guild_id=1, channel_id=2, host_id=10, rules=rules)
    session.seats = [Seat(10, "ana"), Seat(11, "ben")]
    dice = ScriptedDice([(6, 2), (1, 5, 2, 3, 4, 6)], seed=1)
    session.dice_start = dice.state()
    session.game = Game.new(rules, ["10", "11"], dice)
    session.stage = "playing"
    session.game.roll("10")
    return session


def older(session: Session, format: int) -> dict[str, object]:
    """The row an older bot wrote: the game as JSON text, its events inside, its board's message and
    route (the ledger's since format 4); format 1 without pings."""
    assert session.game is not None
    row = {**json.loads(session.dump()), "format": format, "game": session.game.to_json()}
    row |= {"board_message_id": 900, "ping_message_id": None, "pinged_turn": 1}
    row["table"] = {**row["table"], "channel_routes": True}  # type: ignore[dict-item]
    if format == 1:
        del row["format"], row["pinged_turn"]
    return row


def test_a_format_1_row_loads_without_the_messages_that_showed_it() -> None:
    session = playing()
    loaded = Session.load(json.dumps(older(session, 1)))
    assert json.loads(loaded.dump())["format"] == FORMAT
    assert "900" not in loaded.dump()
    assert loaded.snapshot() == session.snapshot()


def test_a_format_2_row_loads_the_game_and_its_events() -> None:
    session = playing()
    loaded = Session.load(json.dumps(older(session, 2)))
    assert session.game is not None and loaded.game is not None
    assert loaded.game.events == session.game.events and loaded.snapshot() == session.snapshot()


def test_a_saved_game_leaves_its_event_log_out_and_replays_it_when_loaded() -> None:
    """Most of a game's bytes are its event log, and the moves and starting dice already tell it."""
    session = playing()
    saved = json.loads(session.dump())
    assert saved["format"] == FORMAT and "events" not in saved["game"]
    loaded = Session.load(session.dump())
    assert session.game is not None and loaded.game is not None
    assert loaded.game.events == session.game.events
    assert loaded.game.to_json() == session.game.to_json(), "the same game, dice state included"


def test_the_rollback_copy_reads_back_and_is_packed_with_a_small_window() -> None:
    """Every commit packs the session for a rollback: with zlib's default window each copy took 256 KB of
    working memory, which the allocator maps afresh once it has handed its free pages back."""
    session = playing()
    state = session.dump()
    session.committed(state)
    assert session.saved is not None and session.last_committed() == state
    window_bits = (session.saved[0] >> 4) + 8  # the zlib header's CINFO: log2 of the window, less 8
    assert window_bits == ROLLBACK_WINDOW_BITS < 15
    assert len(session.saved) < len(state) / 2


def test_a_game_read_back_shares_each_players_id_across_its_actions_and_events() -> None:
    """A restored game kept a copy of its player's id (and of the move's kind) in every action and event
    it read back, where a live game's share one: memory that grew with the game, for its whole life."""
    session = playing()
    assert session.game is not None
    session.game.bank("10", (0,))
    session.remember(session.game.roll("11"))
    loaded = Session.load(session.dump())
    assert loaded.game is not None
    ids = {action.player for action in loaded.game.history} | {event.player for event in loaded.recent}
    strings = {id(action.player) for action in loaded.game.history}
    strings |= {id(event.player) for event in loaded.recent}
    assert len(strings) == len(ids) == 2
    assert len({id(action.kind) for action in loaded.game.history}) == len(
        {a.kind for a in loaded.game.history}
    )


def test_live_games_share_their_table_settings_and_ruleset() -> None:
    """Hundreds of live games hold one copy of what they have in common, loaded or new."""
    loaded = [Session.load(playing().dump()) for _ in range(2)]
    fresh = playing()
    assert loaded[0].table is loaded[1].table is fresh.table
    assert loaded[0].rules is loaded[1].rules


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
