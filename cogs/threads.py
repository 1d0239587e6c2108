"""Games in their own threads, so a busy channel stays readable (a helper of `cogs.farkle`, not a cog)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.engine.messages import N_
from bot.render.language import Translator
from bot.render.words import capped_name, clip, rules_name
from bot.sessions.manager import SessionManager
from bot.sessions.outcome import Outcome
from bot.sessions.session import Snapshot

log = logging.getLogger(__name__)

NO_THREAD = N_(
    "I couldn't open a thread for this game (I need the Create Public Threads and Send Messages in "
    "Threads permissions here), so it is in this channel. A server admin can grant them, or turn game "
    "threads off with `/farkle-config set threads off`."
)


def thread_name(host_name: str) -> str:
    return clip(f"Farkle · {host_name}", 100)  # Discord's limit for a thread name


async def open_game_thread(interaction: discord.Interaction) -> tuple[discord.Thread | None, str | None]:
    """A public thread for a new game, or (None, why not) to play in the channel instead.

    A command used inside a thread (or any channel that can't hold threads) plays where it is, silently.
    """
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel):
        return None, None
    allowed = interaction.app_permissions
    if not (allowed.create_public_threads and allowed.send_messages_in_threads):
        return None, NO_THREAD
    try:
        thread = await channel.create_thread(
            name=thread_name(interaction.user.display_name),
            type=discord.ChannelType.public_thread,
            auto_archive_duration=1440,  # a day without messages
        )
    except discord.HTTPException as error:
        log.warning("Could not create a game thread in %s: %s", channel.id, error)
        return None, NO_THREAD
    return thread, None


async def show_lobby_in_thread(
    interaction: discord.Interaction,
    manager: SessionManager,
    outcome: Outcome,
    thread: discord.Thread,
    tr: Translator,
    post: Callable[[discord.Thread, Snapshot], Awaitable[None]],
) -> bool:
    """Post the board in the thread (`post`: the board edge's), then link it from the channel. Players
    join the thread when its turn pings mention them.

    A thread that refuses the bot (403) would leave an empty thread and a lobby with no board: the
    lobby is closed, the thread removed, and False tells the caller to play in the channel instead.
    """
    snapshot = outcome.snapshot
    assert snapshot is not None, "a new thread has no game to refuse the lobby"
    try:
        await post(thread, snapshot)
    except discord.HTTPException as error:
        log.warning("Could not post a lobby in the new thread %s: %s", thread.id, error)
        await manager.cancel(thread.id, snapshot.host_id)
        await _remove(thread)
        return False
    host = discord.utils.escape_markdown(capped_name(interaction.user.display_name))
    opened = tr.text(
        "🎲 **{host}** opened a Farkle lobby ({rules} rules): join in {thread}",
        host=host,
        rules=rules_name(snapshot.rules.name, tr),
        thread=thread.mention,
    )
    await interaction.response.send_message(opened)
    return True


async def _remove(thread: discord.Thread) -> None:
    try:
        await thread.delete()
    except discord.HTTPException as error:  # deleting needs Manage Threads: it stays, empty and unused
        log.warning("Could not remove the unusable thread %s: %s", thread.id, error)
