"""What a player does and sees in a channel, as small helpers over SimCord."""

from __future__ import annotations

import discord
import simcord

BOARD_TITLE = "🎲 Farkle"


def board_message(channel: simcord.ChannelHandle) -> discord.Message:
    """The newest lobby, board or results message: what a player scrolls to."""
    for message in reversed(channel.history()):
        if message.embeds and (message.embeds[0].title or "").startswith(("🎲 Farkle", "🏆")):
            return message
    raise AssertionError("no Farkle board in the channel")


def buttons(message: discord.Message) -> dict[str, discord.Button]:
    """Buttons by custom id tail ("roll", "bank", "die:0", ...)."""
    found: dict[str, discord.Button] = {}
    for row in message.components:
        for item in getattr(row, "children", []):
            if isinstance(item, discord.Button) and item.custom_id:
                found[item.custom_id.split(":", 3)[3]] = item
    return found


def labels(message: discord.Message) -> dict[str, str]:
    return {key: button.label or "" for key, button in buttons(message).items()}


async def press(member: simcord.MemberActor, channel: simcord.ChannelHandle, action: str) -> simcord.InteractionResult:
    """Press a button of the current board by its action ("roll", "bank", "die:2", "join", ...)."""
    message = board_message(channel)
    button = buttons(message)[action]
    return await member.click(message, custom_id=button.custom_id)


async def keep(member: simcord.MemberActor, channel: simcord.ChannelHandle, *positions: int) -> None:
    for position in positions:
        result = await press(member, channel, f"die:{position}")
        assert not result.ephemeral, result.response and result.response.content


def field(message: discord.Message, name: str) -> str:
    embed = message.embeds[0]
    return next(f.value or "" for f in embed.fields if f.name == name)


def pings(channel: simcord.ChannelHandle) -> list[str]:
    return [m.content for m in channel.history() if "it's your turn" in m.content]
