"""Every use of discord.py's private internals, in one place: each saves parsing what nobody reads.

- `edit_in_answer`: discord.py's `InteractionResponse.edit_message` asks for the edited message
  (`with_response`) and parses all of it, the whole card just drawn, as cyclic garbage: as much CPU as
  parsing the press, a tenth of a Roll's. The same request goes through discord.py's own webhook adapter
  (its rate limits, retries and errors apply), only without `with_response`: Discord answers 204.
- `read_pressed_heads`: every press carries its whole message and discord.py parses all of it (each
  component of the card, and the command that posted it, its members and mentions); for a game button,
  answered by the message's id alone, only the message's head (`MESSAGE_HEAD`) is parsed.
- `post_for_id`: a message posted as `channel.send` does, reading only its id from Discord's answer (the
  `Message` that `send` parsed, author, member and mentions, was a tenth of a Bank's CPU, read by nobody).

`tests/app/test_discord_private.py` pins each to the discord.py it was written for.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import discord
from discord.http import Route, handle_message_parameters
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


# What discord.py keeps of a message whose press is answered by its id alone: enough for a `Message` of
# the right id, channel, author and flags; its components, embeds and mentions are left out (empty).
MESSAGE_HEAD = (
    "id",
    "channel_id",
    "guild_id",
    "type",
    "content",
    "author",
    "flags",
    "timestamp",
    "webhook_id",
)


def read_pressed_heads(client: discord.Client, answered_by_id: list[Callable[[str], object]]) -> None:
    """From now on, a press whose custom id makes one of `answered_by_id` true is parsed with its
    message's head only (the list may grow later)."""
    parsers = client._connection.parsers
    parsers["INTERACTION_CREATE"] = partial(_parse_interaction, parsers["INTERACTION_CREATE"], answered_by_id)


def _parse_interaction(
    parse: Callable[[Any], None], answered_by_id: list[Callable[[str], object]], data: Any
) -> None:
    message, pressed = data.get("message"), data.get("data") or {}
    if message is not None and any(f(str(pressed.get("custom_id", ""))) for f in answered_by_id):
        head = {key: message[key] for key in MESSAGE_HEAD if key in message}
        data["message"] = {**head, "components": [], "mentions": [], "mention_roles": []}
    parse(data)


async def post_for_id(
    client: discord.Client, channel_id: int, content: str, mentions: discord.AllowedMentions
) -> int:
    """Post `content` in the channel as `channel.send` would; the new message's id."""
    with handle_message_parameters(
        content, allowed_mentions=mentions, previous_allowed_mentions=client.allowed_mentions
    ) as params:
        posted = await client.http.send_message(channel_id, params=params)
    return int(posted["id"])
