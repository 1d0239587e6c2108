"""A game button's press reaches the board edge without discord.py parsing the card it was pressed on
(issue 40: a tenth of a Roll's CPU): the answer needs only the message's id. Other presses are parsed
as discord.py always does."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from bot.app.discord_private import _parse_interaction
from bot.render.components import TEMPLATE
from tests.cogs.conftest import Dice, Table
from tests.cogs.play import ROLL_OFF, act, board_message, buttons, open_game


async def test_a_game_press_carries_the_message_id_but_not_its_components(
    table: Table, dice: Dice, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[int, int]] = []  # (message id, components parsed) of every component press
    from_data = discord.Interaction._from_data

    def spy(self: discord.Interaction, data: Any) -> None:
        from_data(self, data)
        if self.message is not None:
            seen.append((self.message.id, len(self.message.components)))

    monkeypatch.setattr(discord.Interaction, "_from_data", spy)
    board = await roll_and_pick_a_die(table, dice, forgetting=seen)

    assert seen == [(board.id, 0), (board.id, 0)]
    # The board was still edited in place, the die picked.
    assert board_message(table.channel).id == board.id
    assert buttons(board_message(table.channel))["die:0"].custom_id.endswith(":drop:0")  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("custom_id", "kept"),
    [
        ("farkle:ab12:3-1:roll", False),
        ("farkle-lb:wins:all:2:next", True),
        ("farkle-daily:12:1-1:roll", True),
    ],
)
def test_only_a_game_buttons_message_is_left_unparsed(custom_id: str, kept: bool) -> None:
    answered_by_id = [re.compile(TEMPLATE).fullmatch]  # as the board edge's hooks say
    parsed: list[Any] = []
    components = [{"type": 1, "components": [{"type": 2, "custom_id": custom_id, "style": 1}]}]
    posted_by = {"id": "9", "type": 2, "name": "farkle", "user": {"id": "5", "username": "ana"}}
    whole = {"id": "7", "type": 0, "content": "", "components": components, "interaction": posted_by}
    data = {"data": {"custom_id": custom_id, "component_type": 2}, "message": dict(whole)}

    _parse_interaction(parsed.append, answered_by_id, data)

    (message,) = (each["message"] for each in parsed)
    head = {"id": "7", "type": 0, "content": "", "components": [], "mentions": [], "mention_roles": []}
    assert message == (whole if kept else head)


async def test_a_press_is_answered_without_the_edited_card_sent_back_and_parsed(
    table: Table, dice: Dice, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed_answers: list[object] = []
    update = discord.InteractionCallbackResponse._update

    def spy(self: discord.InteractionCallbackResponse[Any], data: Any) -> None:
        parsed_answers.append(data.get("resource"))
        update(self, data)

    monkeypatch.setattr(discord.InteractionCallbackResponse, "_update", spy)
    board = await roll_and_pick_a_die(table, dice, forgetting=parsed_answers)

    assert parsed_answers == []
    shown = board_message(table.channel)
    assert shown.id == board.id and buttons(shown)["die:0"].custom_id.endswith(":drop:0")  # type: ignore[union-attr]


async def roll_and_pick_a_die(table: Table, dice: Dice, forgetting: list[Any]) -> discord.Message:
    """Two game presses on a fresh board, Roll then the first die; what `forgetting` gathered while the game
    opened is cleared first, so it holds the presses' alone. The board message as opened."""
    dice.script(ROLL_OFF, (1, 5, 2, 3, 4, 6))
    await open_game(table.channel, table.ana, table.ben)
    board = board_message(table.channel)
    forgetting.clear()
    await act(table.ana, table.channel, "roll")
    await act(table.ana, table.channel, "die:0")
    return board
