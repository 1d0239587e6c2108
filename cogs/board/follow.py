"""Follow boards: a spectator's read-only copy of a game's board in another channel (`/farkle watch`).

A follow board is the board without its game buttons, updated with every move and ending with the
results. Its one button, Stop watching, belongs to whoever posted it: anyone else's press is answered
privately and changes nothing. A busy game can't hit Discord's rate limit through them: each follow
board is edited at most once every `EDIT_EVERY` seconds, with the game as it is when the edit goes out.
They are rows of the board ledger (role "follow"), so they survive a restart like the main board.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any, cast

import discord

from bot.app.client import FarkleBot
from bot.app.errors import reply_ephemeral
from bot.engine.messages import N_, Message
from bot.render.components import Rendered, without_buttons
from bot.render.layout import ActionRow, Button
from bot.services.i18n import for_member
from bot.sessions.session import Snapshot
from cogs.board.delivery import answer_with, channel_routes
from cogs.board.ledger import MAX_FOLLOWS, Ledger, View
from cogs.board.publish import Publisher
from cogs.language import public

log = logging.getLogger(__name__)

EDIT_EVERY = 2.0  # seconds between two edits of one follow board, at the least
STOP_PREFIX = "farkle-follow"
STOP_BUTTON = re.compile(rf"{STOP_PREFIX}:(?P<game>[0-9a-f]{{1,16}}):(?P<channel>[0-9]{{1,20}})")
NOT_YOURS = N_("Only the member who posted this follow board can stop it.")
SAME_CHANNEL = N_("This game's own board is in this channel: follow boards are for other channels.")
TOO_MANY = N_("This game already has {count} follow boards, the most it can have.")
ALREADY = N_("This channel already follows that game.")
NOT_HERE = N_("Follow boards need the bot in this server's channel: add it to the server first.")


class Follows:
    def __init__(self, bot: FarkleBot, ledger: Ledger, publisher: Publisher) -> None:
        self.bot = bot
        self.ledger = ledger
        self.publisher = publisher
        self._latest: dict[tuple[str, int], Snapshot] = {}  # the next edit of each follow board
        self._last_edit: dict[tuple[str, int], float] = {}
        self._editors: dict[tuple[str, int], asyncio.Task[None]] = {}

    def rendered(self, snapshot: Snapshot, channel_id: int) -> Rendered:
        """The board for reading; while the game lasts, with Stop watching."""
        board = self.publisher.rendered(snapshot, watching=True)
        if snapshot.stage in ("over", "closed"):
            return without_buttons(board)
        tr = public(self.bot, snapshot.language, snapshot.guild_id)
        stop_id = f"{STOP_PREFIX}:{snapshot.game_id}:{channel_id}"
        stop = Button(label=tr.text("Stop watching"), custom_id=stop_id)
        return without_buttons(board, ActionRow(stop))

    async def watch(self, interaction: discord.Interaction, snapshot: Snapshot) -> None:
        """Post a follow board of `snapshot`'s game in the interaction's channel, as its answer."""
        channel_id = interaction.channel_id
        assert channel_id is not None
        tr = for_member(interaction)
        follows = self.ledger.follows(snapshot.game_id)
        refusal = (
            NOT_HERE
            if not channel_routes(interaction)
            else SAME_CHANNEL
            if channel_id == snapshot.channel_id
            else ALREADY
            if any(view.channel_id == channel_id for view in follows)
            else None
        )
        if refusal is not None:
            await reply_ephemeral(interaction, tr.term(refusal))
            return
        if len(follows) >= MAX_FOLLOWS:
            await reply_ephemeral(interaction, tr.say(Message(TOO_MANY, count=MAX_FOLLOWS)))
            return
        message_id = await answer_with(interaction, self.rendered(snapshot, channel_id))
        view = View(snapshot.game_id, channel_id, "follow", "channel", message_id, snapshot.version)
        view.owner_id = interaction.user.id
        await self.ledger.attach(view)
        self._last_edit[snapshot.game_id, channel_id] = self.bot.clock.now()
        now = self.bot.services.sessions.game(snapshot.game_id)
        if now is not None and now.version != snapshot.version:
            self.changed(now)  # moved on while it was being posted

    def changed(self, snapshot: Snapshot) -> None:
        """The game changed: each of its follow boards is edited, at most once every `EDIT_EVERY` s."""
        for view in self.ledger.follows(snapshot.game_id):
            key = (view.game_id, view.channel_id)
            self._latest[key] = snapshot
            editor = self._editors.get(key)
            if editor is None or editor.done():
                self._editors[key] = asyncio.create_task(self._edits(view), name=f"farkle-follow-{key}")

    async def _edits(self, view: View) -> None:
        key, clock = (view.game_id, view.channel_id), self.bot.clock
        try:
            while key in self._latest:
                await clock.sleep_until(self._last_edit.get(key, 0.0) + EDIT_EVERY)
                snapshot = self._latest.pop(key, None)
                if snapshot is None:  # stopped (Stop watching) while waiting
                    return
                self._last_edit[key] = clock.now()
                await self._edit(view, snapshot)
        finally:  # a follow board's editor lives while it has edits to make, not as long as the process
            if self._editors.get(key) is asyncio.current_task():
                del self._editors[key]

    async def _edit(self, view: View, snapshot: Snapshot) -> None:
        assert view.message_id is not None
        message = self.bot.get_partial_messageable(view.channel_id).get_partial_message(view.message_id)
        try:
            await message.edit(**self.rendered(snapshot, view.channel_id).message)
        except discord.NotFound:  # someone deleted it: nothing follows the game there any more
            await self._end(view)
            return
        except discord.HTTPException as error:
            log.warning("Could not edit the follow board in channel %s: %s", view.channel_id, error)
            return
        self.ledger.shown(view, snapshot.version)
        if snapshot.stage in ("over", "closed"):
            await self._end(view)  # it ends with the results

    async def _end(self, view: View) -> None:
        key = (view.game_id, view.channel_id)
        self._latest.pop(key, None)
        self._last_edit.pop(key, None)
        await self.ledger.forget(view)

    def catch_up(self, snapshots: list[Snapshot]) -> None:
        """After a restart: follow boards that fell behind their game are edited again."""
        for snapshot in snapshots:
            if any(view.shown_version != snapshot.version for view in self.ledger.follows(snapshot.game_id)):
                self.changed(snapshot)

    async def press(self, interaction: discord.Interaction) -> bool:
        """Stop watching; False for any other interaction."""
        data = cast(dict[str, Any], interaction.data or {})
        match = STOP_BUTTON.fullmatch(str(data.get("custom_id", "")))
        if interaction.type is not discord.InteractionType.component or match is None:
            return False
        self.bot.in_flight.answering()
        view = self.ledger.follow_in(match["game"], int(match["channel"]))
        if view is None or view.owner_id != interaction.user.id:
            await reply_ephemeral(interaction, for_member(interaction).term(NOT_YOURS))
            return True
        await interaction.response.defer()
        if interaction.message is not None:
            await interaction.message.delete()
        await self._end(view)
        return True

    async def close(self) -> None:
        for editor in self._editors.values():
            editor.cancel()
        await asyncio.gather(*self._editors.values(), return_exceptions=True)
