"""An answer that edits the pressed message, without asking Discord for the message back.

discord.py's `InteractionResponse.edit_message` asks for the edited message (`with_response`) and parses
all of it: the whole card the bot has just drawn, every component, left as cyclic garbage. That was as
much CPU as parsing the press itself, a tenth of a Roll's, and the board edge needs nothing from it
(the message's id is the pressed one). This sends the same request through discord.py's own webhook
adapter (so its rate limits, retries and errors apply), only without `with_response`: Discord then
answers 204, as it did before that parameter existed.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.http import Route
from discord.webhook.async_ import async_context, interaction_message_response_params

UPDATE = discord.InteractionResponseType.message_update


async def edit_in_answer(interaction: discord.Interaction, **fields: Any) -> None:
    """`await interaction.response.edit_message(**fields)`, returning nothing (raises the same errors)."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    state = interaction._state
    params = interaction_message_response_params(
        type=UPDATE.value, previous_allowed_mentions=state.allowed_mentions, **fields
    )
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    http = state.http
    await async_context.get().request(
        route,
        session=interaction._session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        payload=params.payload,
    )
    response._response_type = UPDATE
