"""One place that turns failures into answers a player understands."""

from __future__ import annotations

import logging
import secrets

import discord
from discord import AppCommandOptionType, app_commands

from bot.engine import UserFacingError
from bot.engine.messages import N_, Message
from bot.render.language import Translator
from bot.render.words import MESSAGE_LIMIT, capped_name, clip
from bot.services.i18n import for_member
from bot.storage.database import DatabaseBusy

log = logging.getLogger(__name__)


NOT_IN_DMS = Message("This works in a server only, not in direct messages.")

# Discord's settings screens use these names, not the API's.
_PERMISSION_NAMES = {"manage_guild": N_("Manage Server"), "manage_messages": N_("Manage Messages")}


def _permissions(names: list[str], tr: Translator) -> str:
    return ", ".join(tr.term(_PERMISSION_NAMES.get(name, name.replace("_", " ").title())) for name in names)


def explain(error: BaseException, tr: Translator) -> str | None:
    """The sentence for a known failure in the reader's language, or None when it is a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, DatabaseBusy):
        return tr.text("The database is busy right now, so nothing changed: please try again in a moment.")
    if isinstance(error, UserFacingError):
        return tr.say(error.message)
    if isinstance(error, app_commands.NoPrivateMessage):
        return tr.say(NOT_IN_DMS)
    if isinstance(error, app_commands.MissingPermissions):
        return tr.text(
            "You need the {permissions} permission to do that.",
            permissions=_permissions(error.missing_permissions, tr),
        )
    if isinstance(error, app_commands.BotMissingPermissions):
        return tr.text(
            "I need the {permissions} permission in this channel to do that.",
            permissions=_permissions(error.missing_permissions, tr),
        )
    if isinstance(error, app_commands.TransformerError) and error.type is AppCommandOptionType.user:
        who = capped_name(getattr(error.value, "display_name", tr.text("That member")))
        return tr.text(
            "{name} is not a member of this server.", name=who
        )  # a member option naming someone outside
    if isinstance(error, app_commands.CommandOnCooldown):
        return tr.text("Slow down: try again in {seconds} s.", seconds=round(error.retry_after))
    if isinstance(error, app_commands.CheckFailure):
        return tr.text("You can't use that command here.")
    return None


async def reply_ephemeral(interaction: discord.Interaction, content: str) -> None:
    """Answer privately whether or not the interaction was already acknowledged.

    Refusals can quote names and typed text: clipped, so Discord never rejects the answer itself.
    """
    content = clip(content, MESSAGE_LIMIT)
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True)
    else:
        await interaction.response.send_message(content, ephemeral=True)


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Known failures get their sentence; anything else a reference that matches the log line."""
    tr = for_member(interaction)
    message = explain(error, tr)
    if message is None:
        ref = secrets.token_hex(2).upper()
        original = getattr(error, "original", error)
        log.error(
            "Unexpected error (ref %s)", ref, exc_info=(type(original), original, original.__traceback__)
        )
        message = tr.text("Something went wrong (ref {ref}). The game is safe; please try again.", ref=ref)
    try:
        await reply_ephemeral(interaction, message)
    except discord.HTTPException:
        log.warning("Could not send an error reply for interaction %s", interaction.id)
