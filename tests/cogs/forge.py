"""Interactions a real client can send but SimCord's actors refuse to: presses that arrive together,
guild commands from a DM, custom ids that no message carries.

SimCord settles every actor operation before the next, checks that a component is on the message and
that a command is visible where it is used; a hostile or racing client is under no such rule, so these
helpers build the gateway payload themselves (with SimCord's payload builders) and emit it.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import simcord
from simcord.backend import serializers
from simcord.enums import ComponentType, InteractionType
from simcord.interactions import base_payload, nest_options, walk_to_subcommand
from simcord.results import InteractionResult

Actor = simcord.MemberActor | simcord.UserHandle


def _emit(
    actor: Actor,
    channel_id: int,
    kind: InteractionType,
    data: dict[str, Any],
    message: discord.Message | None = None,
    components: list[dict[str, Any]] | None = None,
) -> InteractionResult:
    """Emit one INTERACTION_CREATE; `components` replaces what the pressed message carries."""
    env = actor._env
    backend = env.backend
    guild = actor.guild.id if isinstance(actor, simcord.MemberActor) else None
    record, payload = base_payload(
        backend, type=kind, channel_id=channel_id, guild_id=guild, user_id=actor.id, data=data
    )
    if message is not None:
        stored = backend.get_message(channel_id, message.id)
        payload["message"] = dict(serializers.message_payload(backend, stored))
        if components is not None:
            payload["message"]["components"] = [{"type": ComponentType.ACTION_ROW, "components": components}]
        record.source_message_id = stored.id
    env._notify_dispatch_observers(record)
    backend.emit("INTERACTION_CREATE", payload)
    return InteractionResult(env, record)


def _component(custom_id: str, values: list[str] | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The interaction's data and the component the message is claimed to carry."""
    if values is None:
        button = {"type": ComponentType.BUTTON, "style": 2, "label": "Next", "custom_id": custom_id}
        return {"custom_id": custom_id, "component_type": ComponentType.BUTTON}, button
    options = [{"label": value, "value": value} for value in values]
    menu = {"type": ComponentType.STRING_SELECT, "custom_id": custom_id, "options": options}
    return {"custom_id": custom_id, "component_type": ComponentType.STRING_SELECT, "values": values}, menu


def send_press(actor: Actor, message: discord.Message, custom_id: str) -> InteractionResult:
    """A press on its way to the bot: nothing has run yet (settle the environment to let it)."""
    data, _ = _component(custom_id, None)
    return _emit(actor, message.channel.id, InteractionType.MESSAGE_COMPONENT, data, message)


async def until_answered(result: InteractionResult) -> None:
    """Let the bot run only until it has answered: its follow-up work (the turn ping) is still to come."""
    for _ in range(10_000):
        if result.acknowledged:
            return
        await asyncio.sleep(0)  # one turn of the event loop, not a wait for time to pass
    raise AssertionError("the bot never answered")


async def press_together(
    env: simcord.Env, presses: list[tuple[Actor, discord.Message, str]]
) -> list[InteractionResult]:
    """Every press reaches the bot before it has answered any of them."""
    results = [send_press(actor, message, custom_id) for actor, message, custom_id in presses]
    await env.settle()
    return results


async def forged_component(
    actor: Actor, message: discord.Message, custom_id: str, *, values: list[str] | None = None
) -> InteractionResult:
    """A button press (or, with `values`, a select choice) with any custom id, claimed to be on `message`."""
    data, component = _component(custom_id, values)
    kind = InteractionType.MESSAGE_COMPONENT
    result = _emit(actor, message.channel.id, kind, data, message, [component])
    await actor._env.settle()
    return result


async def dm_slash(user: simcord.UserHandle, name: str) -> InteractionResult:
    """A slash command (without options) sent from the user's DM with the bot, visible there or not."""
    root_name, *path = name.split()
    root = user._env.backend.find_command(root_name, None)
    assert root is not None, f"/{root_name} is not synced"
    _, nesting = walk_to_subcommand(root, path)
    data = {"id": root["id"], "name": root["name"], "type": 1, "options": nest_options(root, nesting, [])}
    result = _emit(user, user.dm_channel.id, InteractionType.APPLICATION_COMMAND, data)
    await user._env.settle()
    return result
