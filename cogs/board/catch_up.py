"""Catch-up after a restart: the boards that fell behind their game are redrawn, and the turns never
pinged are pinged, paced, in the background (follow boards at their own pace); channels whose saved game
could not be read are told."""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.app.client import FarkleBot
from bot.engine.messages import N_
from bot.sessions.outcome import Outcome, Restored
from bot.sessions.session import Snapshot
from cogs.board.follow import Follows
from cogs.board.ledger import Ledger
from cogs.board.pings import Pings
from cogs.board.publish import Publisher
from cogs.language import public, server_public

log = logging.getLogger(__name__)

# Seconds between boards redrawn after a restart: thousands of live games must not hit Discord's
# global rate limit (50 requests/s) at once, and live presses need room alongside.
CATCH_UP_PACE = 0.1
UNREADABLE = N_(
    "⚠️ I couldn't restore the Farkle game in this channel after a restart, sorry: "
    "start a new one with `/farkle new`."
)
_ORDER = {"playing": 0, "lobby": 1, "over": 2, "closed": 3}  # live games first


class CatchUp:
    def __init__(
        self, bot: FarkleBot, ledger: Ledger, publisher: Publisher, pings: Pings, follows: Follows
    ) -> None:
        self.bot = bot
        self.ledger = ledger
        self.publisher = publisher
        self.pings = pings
        self.follows = follows
        self._task: asyncio.Task[None] | None = None

    async def restored(self, restored: Restored) -> None:
        """After a start-up: read the ledger of the games restored, then catch up in the background."""
        await self.ledger.restore([snapshot.game_id for snapshot in restored.sessions])
        self.follows.catch_up(list(restored.sessions))
        behind = [snapshot for snapshot in restored.sessions if self.needed(snapshot) is not None]
        behind.sort(key=lambda snapshot: _ORDER[snapshot.stage])
        if behind or restored.unreadable:
            games = [snapshot.game_id for snapshot in behind]
            self._task = asyncio.create_task(self._run(games, restored.unreadable), name="farkle-catch-up")

    def needed(self, snapshot: Snapshot) -> Outcome | None:
        """The redraw a board needs after a crash, with the turn ping its player never got; None if none."""
        board = self.ledger.board(snapshot.game_id)
        current = snapshot.current_seat
        unpinged = (
            snapshot.stage == "playing"
            and current is not None
            and current.computer is None
            and (board is None or board.pinged_turn != snapshot.turn_number)
        )
        behind = snapshot.stage != "closed" and (
            board is None or board.message_id is None or board.shown_version != snapshot.version
        )
        if not (behind or unpinged):
            return None
        return Outcome(snapshot=snapshot, turn_for=current.user_id if unpinged and current else None)

    async def _run(self, games: list[str], unreadable: tuple[int, ...]) -> None:
        clock = self.bot.clock
        if unreadable:
            await self.bot.wait_until_ready()  # the channels' servers known: each notice in its language
        for channel_id in unreadable:
            try:
                channel = self.bot.get_channel(channel_id)
                guild_id = (
                    channel.guild.id
                    if isinstance(channel, discord.abc.GuildChannel | discord.Thread)
                    else None
                )
                tr = (
                    await server_public(self.bot, guild_id)
                    if guild_id is not None
                    else public(self.bot, None, None)
                )
                notice = tr.term(UNREADABLE)
                await self.bot.get_partial_messageable(channel_id).send(notice)
            except Exception as error:  # a refused post or an unreadable setting: one line, the rest goes on
                log.warning("Could not tell channel %s its game was not restored: %s", channel_id, error)
            await clock.sleep_until(clock.now() + CATCH_UP_PACE)
        for game_id in games:
            snapshot = self.bot.services.sessions.game(game_id)  # as it is now: players may have moved
            outcome = self.needed(snapshot) if snapshot is not None else None
            if outcome is None or snapshot is None or not self._reachable(snapshot):
                continue
            if await self.publisher.redraw(snapshot):
                await self.pings.announce(outcome)
            await clock.sleep_until(clock.now() + CATCH_UP_PACE)

    def _reachable(self, snapshot: Snapshot) -> bool:
        """A game only interactions reach has no token after a restart: its next press redraws it."""
        board = self.ledger.board(snapshot.game_id)
        if board is not None:
            return board.route == "channel"
        return snapshot.guild_id != snapshot.channel_id and self.bot.get_guild(snapshot.guild_id) is not None

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
