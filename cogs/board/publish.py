"""Publishing a game's board through its transport: a channel message where the app is a member, the
freshest interaction token where it is not (`cogs.board.delivery`).

Separate answers are not ordered: two answers sent a millisecond apart can be applied in either order.
Every drawing that lands on a board is noted with its version (`Ledger.landed`); where an older drawing
landed after a newer one, the board is redrawn once more as the game is now (a repair), so every burst
of presses ends with the board showing the latest state.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Literal

import discord

from bot.app.client import FarkleBot
from bot.render.components import Rendered
from bot.render.results import moved_board
from bot.render.table import render
from bot.sessions.session import Snapshot
from cogs.board.delivery import Delivery, answer_with, channel_routes
from cogs.board.ledger import Ledger, View
from cogs.language import public

log = logging.getLogger(__name__)

Shown = Literal["edited", "posted"] | None  # how a redraw reached the channel; None: it didn't
# Off only to show, in a test, the board an out-of-order answer leaves without the repair.
REPAIR = True


class Publisher:
    def __init__(self, bot: FarkleBot, ledger: Ledger, delivery: Delivery) -> None:
        self.bot = bot
        self.ledger = ledger
        self.delivery = delivery
        self._repairs: dict[str, asyncio.Task[None]] = {}  # by game id

    def rendered(self, snapshot: Snapshot, *, watching: bool = False) -> Rendered:
        tr = public(self.bot, snapshot.language, snapshot.guild_id)
        at_the_table = self.bot.settings.activity_port is not None and not watching
        return render(snapshot, tr, self.bot.dice_art, watching=watching, at_the_table=at_the_table)

    def drawn(self, view: View, version: int) -> None:
        """A drawing of `version` landed on `view`; an older one landing last is repaired."""
        self.ledger.shown(view, version)
        if self.ledger.landed(view, version) and REPAIR:
            repair = self._repairs.get(view.game_id)
            if repair is None or repair.done():
                self._repairs[view.game_id] = asyncio.create_task(
                    self._repair(view), name=f"farkle-repair-{view.game_id}"
                )

    async def _repair(self, view: View) -> None:
        try:
            snapshot = self.bot.services.sessions.game(view.game_id)
            if snapshot is not None:
                log.info("An older drawing of game %s landed last: redrawing it", view.game_id)
                await self.redraw(snapshot)
        finally:  # kept while it runs, not for as long as the process
            if self._repairs.get(view.game_id) is asyncio.current_task():
                del self._repairs[view.game_id]

    async def redraw(self, snapshot: Snapshot, rendered: Rendered | None = None) -> Shown:
        """Bring a game's board up to date (by its message, or its token), or post a new one if it was
        deleted. Returns how the board now shows `snapshot` (None: it doesn't); a failure is logged, and
        the next press or `/farkle board` recovers."""
        rendered = rendered or self.rendered(snapshot)
        board = self.ledger.board(snapshot.game_id)
        by_token = board.route == "token" if board is not None else self.delivery.holds(snapshot.channel_id)
        if by_token:
            if not await self.delivery.edit_board(snapshot.channel_id, rendered):
                return None
            if board is not None:
                self.drawn(board, snapshot.version)
            return "edited"
        channel = self.bot.get_partial_messageable(snapshot.channel_id)
        if board is not None and board.message_id is not None:
            try:
                await channel.get_partial_message(board.message_id).edit(**rendered.message)
            except discord.NotFound:
                log.info("The board in channel %s was deleted: posting a new one", snapshot.channel_id)
            except discord.HTTPException as error:
                log.warning("Could not redraw the board in channel %s: %s", snapshot.channel_id, error)
                return None
            else:
                self.drawn(board, snapshot.version)
                return "edited"
        if snapshot.stage not in ("lobby", "playing"):
            return None
        try:
            message = await channel.send(**rendered.message)
        except discord.HTTPException as error:
            log.warning("Could not post a board in channel %s: %s", snapshot.channel_id, error)
            return None
        await self.attach(snapshot, message.id, "channel")
        return "posted"

    async def attach(self, snapshot: Snapshot, message_id: int, route: Literal["channel", "token"]) -> View:
        """`message_id` now shows the game's board at `snapshot`'s version: it is the ledger's from now."""
        view = View(snapshot.game_id, snapshot.channel_id, "board", route, message_id, snapshot.version)
        view.newest_landed = snapshot.version
        await self.ledger.attach(view)
        return view

    async def post_again(self, interaction: discord.Interaction, snapshot: Snapshot) -> None:
        """`/farkle board`: the board as the answer, at the bottom of the channel; the old one retires."""
        old = self.ledger.board(snapshot.game_id)
        message_id = await answer_with(interaction, self.rendered(snapshot))
        await self.attached(snapshot, interaction, message_id)
        if old is not None and old.message_id is not None and old.route == "channel":
            await self.retire(snapshot, old.message_id)  # elsewhere a press redraws it

    async def post_in(self, channel: discord.abc.Messageable, snapshot: Snapshot) -> None:
        """Post a new game's board in `channel` (a game thread); raises what Discord refused."""
        message = await channel.send(**self.rendered(snapshot).message)
        await self.attached(snapshot, None, message.id)

    async def attached(
        self, snapshot: Snapshot, interaction: discord.Interaction | None, message_id: int
    ) -> None:
        """Record the board's message; redraw it if the game moved on while it was being posted."""
        by_token = interaction is not None and not channel_routes(interaction)
        await self.attach(snapshot, message_id, "token" if by_token else "channel")
        if interaction is not None and by_token:
            self.delivery.hold(snapshot.channel_id, interaction)
        now = self.bot.services.sessions.game(snapshot.game_id)
        if now is not None and now.version != snapshot.version:
            await self.redraw(now)  # joined while it was being posted

    async def retire(self, snapshot: Snapshot, message_id: int) -> None:
        """An older board says where the game went and loses its buttons."""
        moved = moved_board(public(self.bot, snapshot.language, snapshot.guild_id))
        message = self.bot.get_partial_messageable(snapshot.channel_id).get_partial_message(message_id)
        try:
            await message.edit(**moved.message)
        except discord.HTTPException:
            log.warning("Could not retire the board %s in channel %s", message_id, snapshot.channel_id)

    async def close(self) -> None:
        for repair in self._repairs.values():
            repair.cancel()
        await asyncio.gather(*self._repairs.values(), return_exceptions=True)
