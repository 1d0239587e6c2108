"""The games by id, each channel's current game as an index: a new game in a channel replaces the index
entry and the old game, and a game that leaves never takes another game's channel entry with it."""

from __future__ import annotations

from bot.engine import Ruleset
from bot.sessions.registry import GameRegistry
from bot.sessions.session import Session

CHANNEL, OTHER = 100, 200


def game(game_id: str, channel_id: int = CHANNEL) -> Session:
    return Session(game_id, 1, channel_id, 11, Ruleset.preset("classic"))


def test_a_new_game_in_a_channel_replaces_the_old_one_and_leaves_other_channels_alone() -> None:
    games = GameRegistry()
    old, elsewhere, new = game("old"), game("elsewhere", OTHER), game("new")
    assert games.put(old) is None and games.put(elsewhere) is None
    assert games.put(new) is old, "the game it replaced is handed back"
    assert games.get("old") is None and games.get("new") is new
    assert games.in_channel(CHANNEL) is new and games.in_channel(OTHER) is elsewhere
    assert {session.game_id for session in games} == {"new", "elsewhere"}


def test_a_game_put_again_is_its_own_state_read_back_not_a_replacement() -> None:
    games = GameRegistry()
    games.put(game("g"))
    again = game("g")
    assert games.put(again) is None and games.in_channel(CHANNEL) is again


def test_dropping_a_replaced_game_keeps_the_channels_new_one() -> None:
    games = GameRegistry()
    old, new = game("old"), game("new")
    games.put(old)
    games.put(new)
    games.drop(old)  # e.g. a late rollback of the old game's last change
    assert games.in_channel(CHANNEL) is new
    games.drop(new)
    assert games.in_channel(CHANNEL) is None and list(games) == []
