"""Syncing the slash commands with Discord: only when the tree changed (Discord rate-limits syncs), keeping
the Activity's Entry Point command, and taking back the copies a development server was given.

A sync is a bulk overwrite (`PUT .../commands`): Discord replaces the scope's commands with the list sent.
An app whose Activities are turned on owns an Entry Point command (type 4, `PRIMARY_ENTRY_POINT`) that
Discord created, and it refuses an overwrite of the global commands that leaves it out (error 50240), so
discord.py's `CommandTree.sync` would stop the bot's start. The global overwrite therefore sends back the
Entry Point Discord has, as Discord holds it. None is created here: Discord makes one when the host turns
Activities on, and an app without Activities may not have one.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands

from bot.storage import Database, command_sync

log = logging.getLogger(__name__)

GLOBAL = "global"
ENTRY_POINT = 4  # `PRIMARY_ENTRY_POINT`, the command that launches the app's Activity
# What an Entry Point fetched from Discord is sent back with (the rest, its id and version, are Discord's).
ENTRY_POINT_FIELDS = (
    "name",
    "type",
    "handler",
    "description",
    "name_localizations",
    "description_localizations",
    "integration_types",
    "contexts",
    "default_member_permissions",
    "nsfw",
)
# A server that answers these to an overwrite has let the app go: there is nothing left to clear there.
GONE = (403, 404)

Tree = app_commands.CommandTree[Any]


async def command_payload(tree: Tree, guild: discord.abc.Snowflake | None) -> list[dict[str, Any]]:
    """The commands as a sync uploads them: with every language's descriptions and choice names."""
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is None:
        return [command.to_dict(tree) for command in commands]
    return [await command.get_translated_payload(tree, translator) for command in commands]


async def sync_if_changed(tree: Tree, db: Database, dev_guild_id: int | None) -> bool:
    """Sync the tree to DEV_GUILD_ID's server (or globally) when it differs from the last one synced there;
    first clear the servers given copies before that DEV_GUILD_ID no longer names."""
    await _clear_other_servers(tree, db, keep=dev_guild_id)
    guild = discord.Object(dev_guild_id) if dev_guild_id else None
    if guild is not None:
        tree.copy_global_to(guild=guild)
    scope = str(guild.id) if guild else GLOBAL
    payload = await command_payload(tree, guild)
    tree_hash = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
    if await command_sync.last_hash(db, scope) == tree_hash:
        log.info("Command tree unchanged; not syncing")
        return False
    http, application_id = tree.client.http, _application_id(tree)
    if guild is None:
        entry_points = await _entry_points(http, application_id)
        await http.bulk_upsert_global_commands(application_id, [*payload, *entry_points])
    else:
        await http.bulk_upsert_guild_commands(application_id, guild.id, payload)
    await command_sync.record_hash(db, scope, tree_hash)
    log.info("Synced %d commands to %s", len(payload), scope)
    return True


async def _entry_points(http: discord.http.HTTPClient, application_id: int) -> list[dict[str, Any]]:
    """The app's Entry Point command as Discord holds it (none for an app without Activities)."""
    existing: list[dict[str, Any]] = list(await http.get_global_commands(application_id))  # type: ignore[arg-type]
    return [
        {key: command[key] for key in ENTRY_POINT_FIELDS if key in command}
        for command in existing
        if command.get("type") == ENTRY_POINT
    ]


async def _clear_other_servers(tree: Tree, db: Database, *, keep: int | None) -> None:
    """Empty the command list of every server synced to before that is not `keep`, and forget it: once
    DEV_GUILD_ID is unset (or names another server), its members would otherwise see each command twice."""
    for scope in await command_sync.scopes(db):
        if scope == GLOBAL or scope == str(keep):
            continue
        try:
            await tree.client.http.bulk_upsert_guild_commands(_application_id(tree), int(scope), [])
        except discord.HTTPException as error:
            if error.status not in GONE:
                log.warning("Could not clear the commands synced to server %s: %s", scope, error)
                continue
        await command_sync.forget(db, scope)
        log.info("Cleared the commands synced to server %s", scope)


def _application_id(tree: Tree) -> int:
    application_id: int | None = tree.client.application_id
    if application_id is None:
        raise discord.errors.MissingApplicationID
    return application_id
