"""One button vocabulary: what a custom id's action means, including ids drawn by older versions."""

from bot.sessions.actions import LOBBY_ACTIONS, TURN_ACTIONS, ButtonAction


def test_every_action_parses_from_its_own_id() -> None:
    for action in ButtonAction:
        assert ButtonAction.parse(action.value) is action


def test_a_piggyback_button_drawn_before_the_rename_still_works() -> None:
    assert ButtonAction.parse("piggy") is ButtonAction.PIGGYBACK


def test_unknown_and_forged_actions_mean_nothing() -> None:
    for text in ("", "PICK", "roll ", "teleport", "piggybacks"):
        assert ButtonAction.parse(text) is None


def test_lobby_and_turn_buttons_never_overlap() -> None:
    assert not LOBBY_ACTIONS & TURN_ACTIONS
    assert ButtonAction.REMATCH not in LOBBY_ACTIONS | TURN_ACTIONS
    assert ButtonAction.HINT not in LOBBY_ACTIONS | TURN_ACTIONS
