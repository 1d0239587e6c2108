"""The engine speaks in message ids and parameters, so refusals translate; `str()` stays English."""

from __future__ import annotations

import pytest

from bot.engine import Game, IllegalAction, RulesError, Ruleset, ScriptedDice
from bot.engine.messages import Listing, Message, english


def test_an_illegal_action_carries_its_message_id_and_parameters() -> None:
    rules = Ruleset(entry_minimum=500)
    game = Game.new(rules, ["ana", "ben"], ScriptedDice([(6, 2), (1, 2, 3, 4, 6, 6)]))
    game.roll("ana")
    with pytest.raises(IllegalAction) as refused:
        game.bank("ana", (0,))
    assert refused.value.message == Message("You need {points} to get on the board.", points=500)
    assert str(refused.value) == "You need 500 to get on the board."


def test_a_selection_that_does_not_score_names_the_dice_in_a_plural_message() -> None:
    game = Game.new(Ruleset(), ["ana", "ben"], ScriptedDice([(6, 2), (1, 2, 3, 3, 4, 6)]))
    game.roll("ana")
    with pytest.raises(IllegalAction) as refused:
        game.roll("ana", (0, 2, 3))
    message = refused.value.message
    assert (message.msgid, message.plural_id, message.count) == (
        "The {dice} doesn't score.",
        "The {dice} don't score.",
        2,
    )
    assert str(message) == "The 3s don't score."


def test_english_numbers_lists_and_plurals() -> None:
    assert english(1000) == "1,000"
    assert english(Listing(("a", "b", "c"))) == "a, b or c"
    assert english(Listing(("ana", "ben"), "and")) == "ana and ben"
    assert english(Listing(("solo",))) == "solo"
    assert str(Message.plural("{count} die", "{count} dice", 1)) == "1 die"
    assert str(Message.plural("{count} die", "{count} dice", 1500)) == "1,500 dice"
    nested = Message(
        "{option} takes {allowed}.", option="teams", allowed=Listing((Message("0 (no teams)"), "2"))
    )
    assert str(nested) == "teams takes 0 (no teams) or 2."


def test_rule_refusals_are_messages_too() -> None:
    with pytest.raises(RulesError) as refused:
        Ruleset(target=1000, entry_minimum=1500)
    assert refused.value.message.msgid == "The entry minimum ({points}) can't be above the target ({target})."
    assert dict(refused.value.message.params) == {"points": 1500, "target": 1000}
