"""A conversation's tokens: the freshest reaches its game while it lives; expired, it is let go."""

from __future__ import annotations

import gc
import weakref
from typing import cast

import discord

from cogs.board.delivery import SWEEP_EVERY, TOKEN_LIFETIME, Delivery
from tests.fakes import FakeClock


class Pressed:
    """Stands for an answered interaction (only its identity matters here)."""

    id = 1


async def test_expired_tokens_are_let_go_and_their_conversations_still_known() -> None:
    """Every token holds its interaction (the press, its member, its message): a bot in many
    conversations kept one for each of them, for the life of the process, long after it expired."""
    clock = FakeClock()
    delivery = Delivery(clock)
    pressed = [Pressed() for _ in range(3)]
    for channel_id, interaction in enumerate(pressed):
        delivery.hold(channel_id, cast(discord.Interaction, interaction))
    held = [weakref.ref(interaction) for interaction in pressed]
    del pressed, interaction
    await clock.advance(TOKEN_LIFETIME + SWEEP_EVERY)
    fresh = Pressed()
    delivery.hold(9, cast(discord.Interaction, fresh))
    gc.collect()
    assert [ref() for ref in held] == [None, None, None], "expired tokens kept"
    assert all(delivery.holds(channel_id) for channel_id in (0, 1, 2, 9)), "games reached by tokens only"
    assert delivery._tokens.keys() == {9}
