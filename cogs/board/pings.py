"""Turn pings: a game's channel holds at most one, the turn's ping, replaced by its reminder and deleted
when the turn moves on (by the next turn's ping, or at once when nobody is pinged next) and when the game
ends, however it ends. The ledger keeps it with the game's board: a start-up knows which turns were
pinged.

A subscriber of the game-events stream: each change's ping goes out once the answers being sent are out
(or `PING_WAIT` later), after the channel's earlier pings, and a shutdown lets it finish."""

from __future__ import annotations

import asyncio
import logging
from functools import partial

import discord

from bot.app.client import FarkleBot
from bot.app.discord_private import post_for_id
from bot.sessions.outcome import Outcome
from bot.sessions.stream_events import GameChanged, GameEvent
from cogs.board.delivery import Delivery
from cogs.board.ledger import Ledger
from cogs.language import public

log = logging.getLogger(__name__)

# How long a turn ping waits for the answers being sent to finish first, at the most.
PING_WAIT = 1.0


async def _ping(bot: FarkleBot, channel_id: int, user_ids: tuple[int, ...], text: str) -> int:
    """Post a message that pings exactly these members and nobody else; its id."""
    only_them = discord.AllowedMentions(
        users=[discord.Object(i) for i in user_ids], everyone=False, roles=False
    )
    mentions = " ".join(f"<@{user_id}>" for user_id in user_ids)
    return await post_for_id(bot, channel_id, f"{mentions} {text}", only_them)


class Pings:
    def __init__(self, bot: FarkleBot, ledger: Ledger, delivery: Delivery) -> None:
        self.bot = bot
        self.ledger = ledger
        self.delivery = delivery
        self._newest: dict[int, asyncio.Task[None]] = {}  # each channel's newest ping on its way

    async def on_game_event(self, event: GameEvent) -> None:
        """A change that pings, reminds, tidies a ping away or ends the game: queued behind the channel's
        earlier pings, not awaited (the stream must not wait for a burst's answers)."""
        if not isinstance(event, GameChanged):
            return
        outcome = event.outcome
        snapshot = outcome.snapshot
        if snapshot is None or outcome.refusal is not None:
            return
        ended = snapshot.stage in ("over", "closed")
        pinged = (outcome.turn_for or outcome.reminder_for) is not None
        if not (pinged or outcome.moved_turn or ended or outcome.invited):
            return
        channel_id = snapshot.channel_id
        earlier = self._newest.get(channel_id)
        task = asyncio.create_task(self._after(earlier, outcome), name=f"farkle-ping-{channel_id}")
        self._newest[channel_id] = task
        task.add_done_callback(partial(self._sent, channel_id))
        self.bot.in_flight.finish_before_closing(task)

    def _sent(self, channel_id: int, task: asyncio.Task[None]) -> None:
        if self._newest.get(channel_id) is task:
            del self._newest[channel_id]

    async def _after(self, earlier: asyncio.Task[None] | None, outcome: Outcome) -> None:
        """The ping once the channel's earlier ones and the answers being sent are out; a closed game's
        messages then leave the ledger (nothing shows it any more)."""
        if earlier is not None:
            await asyncio.gather(earlier, return_exceptions=True)
        await self.bot.in_flight.quiet(PING_WAIT)
        snapshot = outcome.snapshot
        try:
            await self.announce(outcome)
            if snapshot is not None and snapshot.stage == "closed":
                await self.ledger.forget_game(snapshot.game_id)
        except Exception:
            log.exception("A turn ping failed")

    async def announce(self, outcome: Outcome) -> None:
        """The ping, reminder or tidying this change needs. Pings are a courtesy: a channel that refuses
        them must not undo or hide the move itself."""
        snapshot = outcome.snapshot
        assert snapshot is not None
        if outcome.turn_for is not None:
            # No answer waits now: the next turn's first roll has its live chances solved, then the ping.
            self.bot.services.sessions.solve_next_roll(snapshot.game_id)
        tr = public(self.bot, snapshot.language, snapshot.guild_id)
        try:
            if outcome.invited:
                await self._invite(
                    outcome, tr.text("🎲 A rematch is open: press Join on the lobby to play again!")
                )
            if outcome.reminder_for is not None and snapshot.deadline is not None:
                left = max(1, round(snapshot.deadline - self.bot.clock.now()))
                reminder = tr.plural(
                    "⏳ {count} second left on your turn!", "⏳ {count} seconds left on your turn!", left
                )
                await self._swap(outcome, outcome.reminder_for, reminder)
            if outcome.turn_for is not None:
                await self._swap(outcome, outcome.turn_for, tr.text("🎲 it's your turn!"))
            elif outcome.moved_turn or snapshot.stage in ("over", "closed"):  # a game's end: no ping left
                await self._swap(outcome, None, "")
        except discord.HTTPException as error:
            log.warning("Could not post or tidy a turn ping in channel %s: %s", snapshot.channel_id, error)

    async def _invite(self, outcome: Outcome, text: str) -> None:
        """A rematch's one call to the last game's players (a conversation only its answers reach has no
        channel message to spare: its lobby is there to see)."""
        snapshot = outcome.snapshot
        assert snapshot is not None
        board = self.ledger.board(snapshot.game_id)
        if board is None or board.route == "token":
            return
        await _ping(self.bot, snapshot.channel_id, outcome.invited, text)

    async def _swap(self, outcome: Outcome, user_id: int | None, text: str) -> None:
        """The channel's one ping: post the new one (None: none), record it, delete the one it replaces."""
        snapshot = outcome.snapshot
        assert snapshot is not None
        board = self.ledger.board(snapshot.game_id)
        if board is None:
            return  # nothing shows the game yet: the board itself will say whose turn it is
        turn = snapshot.turn_number
        if board.route == "token":
            await self.delivery.swap_ping(snapshot.channel_id, user_id, text)
            self.ledger.pinged(board, None, turn)
            return
        ping = await _ping(self.bot, snapshot.channel_id, (user_id,), text) if user_id is not None else None
        previous = self.ledger.pinged(board, ping, turn)
        if previous is not None:
            await self.bot.http.delete_message(snapshot.channel_id, previous)
