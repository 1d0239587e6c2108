"""The board edge's door: answering presses and the commands' outcomes, and the game-events stream.

Every game button, on any board message, reaches `on_interaction`, which reads the button from the raw
interaction, asks the session manager and answers with the board the press produced (one hop). The jobs
behind it each have their own module: publishing through a transport (`cogs.board.publish`, with the repair
of answers Discord applied out of order), follow boards (`cogs.board.follow`), turn pings
(`cogs.board.pings`, a
subscriber of the stream in its own right), catch-up after a restart (`cogs.board.catch_up`), the ledger of
the messages showing each game (`cogs.board.ledger`) and the language of public messages (`cogs.language`).

Render draws plain buttons whose custom ids this module matches (`TEMPLATE`), so a press on any board,
even one drawn before a restart or by an older drawing the player's screen still shows, reaches it.
"""

from __future__ import annotations

import logging
import re
from typing import Any, cast

import discord
from discord.ext import commands

from bot.app.client import FarkleBot
from bot.app.discord_private import edit_in_answer
from bot.app.errors import reply_ephemeral, report_error
from bot.app.wiring import Hooks
from bot.engine.history import Left
from bot.engine.messages import N_, Message
from bot.render.components import TEMPLATE, ButtonRef, Rendered
from bot.render.help import hint_text
from bot.render.language import Translator
from bot.services.i18n import for_member
from bot.sessions.actions import ButtonAction
from bot.sessions.commands import GAME_OVER
from bot.sessions.outcome import Outcome
from bot.sessions.requests import Press
from bot.sessions.stream_events import GameChanged, GameEvent, GamesRestored
from bot.storage.boards import SqlBoardLedger
from cogs.board.catch_up import CatchUp
from cogs.board.delivery import Delivery, answer_with, channel_routes
from cogs.board.follow import Follows
from cogs.board.ledger import Ledger
from cogs.board.pings import Pings
from cogs.board.publish import Publisher

log = logging.getLogger(__name__)

SAVED_NOT_SHOWN = N_("Your move counts, but I couldn't update the board: `/farkle board` shows it again.")
BOARD_REPOSTED = N_("Your move counts. The board had been deleted, so I posted a new one below.")

GAME_BUTTON = re.compile(TEMPLATE)


def pressed_game_button(interaction: discord.Interaction) -> ButtonRef | None:
    """The game button a press names (`farkle:<game>:<seq>:<action>[:<arg>]`), read from the raw
    interaction; None for any other interaction.

    Not a `DynamicItem`: before calling one, discord.py rebuilds the whole pressed card as a view (every
    item of it, cyclic garbage for the collector) only to find the button Discord already named, and
    Discord itself refuses a press whose id is no longer on the message. In a burst that was about a
    quarter of a press's CPU, the collections it caused included.
    """
    if interaction.type is not discord.InteractionType.component:
        return None
    data = cast(dict[str, Any], interaction.data or {})
    if data.get("component_type") != discord.ComponentType.button.value:
        return None
    match = GAME_BUTTON.fullmatch(str(data.get("custom_id", "")))
    if match is None:
        return None
    return ButtonRef(match["game"], match["seq"], match["action"], match["arg"])


async def _tell_privately(interaction: discord.Interaction, text: str) -> None:
    try:
        await reply_ephemeral(interaction, text)
    except discord.HTTPException as error:
        log.warning("Could not tell member %s privately: %s", interaction.user.id, error)


class Boards(commands.Cog):
    """Answers presses and commands with boards, and hands every other change to the view it concerns."""

    def __init__(self, bot: FarkleBot) -> None:
        self.bot = bot
        self.manager = bot.services.sessions
        self.delivery = Delivery(bot.clock)
        self.ledger = Ledger(SqlBoardLedger(bot.services.database))
        self.publisher = Publisher(bot, self.ledger, self.delivery)
        self.pings = Pings(bot, self.ledger, self.delivery)
        self.follows = Follows(bot, self.ledger, self.publisher)
        self.catching_up = CatchUp(bot, self.ledger, self.publisher, self.pings, self.follows)

    def hooks(self) -> Hooks:
        """Every game event, redrawn, then pinged (a ping follows its board); a game button is read from
        the press, not from the pressed message."""
        return Hooks(
            stream=(self.on_game_event, self.pings.on_game_event), answered_by_id=GAME_BUTTON.fullmatch
        )

    async def cog_unload(self) -> None:
        self.catching_up.cancel()
        await self.publisher.close()
        await self.follows.close()
        await self.ledger.close()

    # ------------------------------------------------------------------ answering interactions

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every game button, on any board message, even one drawn before a restart: one hop from the
        press to the session manager and back."""
        ref = pressed_game_button(interaction)
        channel_id = interaction.channel_id
        if ref is None or channel_id is None:
            await self.follows.press(interaction)
            return
        self.bot.in_flight.answering()
        try:
            if ref.action == ButtonAction.HINT:
                await self.hint(interaction, channel_id, ref)
                return
            user = interaction.user
            press = Press(channel_id, ref.game_id, ref.seq, user.id, user.display_name, ref.action, ref.arg)
            outcome = await self.manager.press(press)
            await self.show(interaction, outcome, pressed=ref)
        except Exception as error:
            await report_error(interaction, error)

    async def show(
        self, interaction: discord.Interaction, outcome: Outcome, *, pressed: ButtonRef | None = None
    ) -> None:
        """Answer one interaction: a refusal privately, a change by redrawing the game's message."""
        tr = for_member(interaction)
        board = self.ledger.board(outcome.snapshot.game_id) if outcome.snapshot is not None else None
        on_the_board = board is not None and _pressed_message(interaction) == board.message_id
        if outcome.outdated and on_the_board:
            await self._redraw_in_answer(interaction, outcome)
            return
        if (
            outcome.refusal is not None
            and pressed is not None
            and await self._redraw_pressed(interaction, pressed)
        ):
            await interaction.followup.send(tr.say(outcome.refusal), ephemeral=True)
            self.delivery.followed_up(interaction)
            return
        if outcome.refusal is not None or outcome.snapshot is None:
            await reply_ephemeral(interaction, tr.say(outcome.refusal or Message("Nothing changed.")))
            if outcome.snapshot is not None and not outcome.outdated:  # moved on elsewhere: show it
                await self.publisher.redraw(outcome.snapshot)
            return
        snapshot = outcome.snapshot
        rendered = self.publisher.rendered(snapshot)
        if pressed is not None and pressed.game_id == snapshot.game_id:
            await self._answer_press(interaction, outcome, rendered)
        elif outcome.opened or not channel_routes(interaction):
            # A new lobby (or a rematch pressed on the results), or a game only interactions reach:
            # this answer is the board's message.
            await self.publisher.attached(snapshot, interaction, await answer_with(interaction, rendered))
        elif board is None:  # the answer that opened it is still posting it
            await interaction.response.send_message(self._acknowledge(outcome, tr), ephemeral=True)
        else:
            await self.publisher.redraw(snapshot, rendered)
            await interaction.response.send_message(self._acknowledge(outcome, tr), ephemeral=True)

    async def _answer_press(
        self, interaction: discord.Interaction, outcome: Outcome, rendered: Rendered
    ) -> None:
        """Edit the pressed board; if that answer fails, the committed move still reaches the board."""
        snapshot = outcome.snapshot
        assert snapshot is not None
        try:
            await edit_in_answer(interaction, **rendered.message)
        except discord.HTTPException as error:
            log.warning(
                "Could not answer a press in channel %s (%s): redrawing by id", snapshot.channel_id, error
            )
            shown = await self.publisher.redraw(snapshot, rendered)
            if shown != "edited":  # the member's answer failed: tell them where their move went
                said = BOARD_REPOSTED if shown == "posted" else SAVED_NOT_SHOWN
                await _tell_privately(interaction, for_member(interaction).term(said))
            return
        board = self.ledger.board(snapshot.game_id)
        pressed = _pressed_message(interaction)
        if not channel_routes(interaction) and pressed is not None:
            # Only this token can edit a board here: the message pressed is the board from now on.
            if board is None or board.message_id != pressed:
                board = await self.publisher.attach(snapshot, pressed, "token")
            self.delivery.hold(snapshot.channel_id, interaction)
            self.publisher.drawn(board, snapshot.version)
        elif board is not None and pressed == board.message_id:
            self.publisher.drawn(board, snapshot.version)
        else:  # pressed on an older copy whose retirement failed: the board players follow moves too
            await self.publisher.redraw(snapshot, rendered)

    async def _redraw_in_answer(self, interaction: discord.Interaction, outcome: Outcome) -> None:
        """A press on the game's board whose drawing is behind (a crash came between a move and its
        drawing, and the catch-up has not reached it yet): the answer is the board as it is now, an
        edit that costs no rate limit; the member presses again on what they now see."""
        snapshot = outcome.snapshot
        assert snapshot is not None
        await self._answer_press(interaction, outcome, self.publisher.rendered(snapshot))

    async def _redraw_pressed(self, interaction: discord.Interaction, pressed: ButtonRef) -> bool:
        """A refused press on a game only interactions reach: its answer is the one way to bring the board
        up to date (timers and computer turns may have played while every token was expired)."""
        channel_id = interaction.channel_id
        snapshot = self.manager.snapshot(channel_id) if channel_id is not None else None
        if snapshot is None or channel_routes(interaction) or snapshot.game_id != pressed.game_id:
            return False
        await self._answer_press(interaction, Outcome(snapshot=snapshot), self.publisher.rendered(snapshot))
        return True

    async def hint(self, interaction: discord.Interaction, channel_id: int, ref: ButtonRef) -> None:
        advice = await self.manager.hint(channel_id, ref.game_id, interaction.user.id)
        snapshot = self.manager.snapshot(channel_id)
        tr = for_member(interaction)
        if isinstance(advice, Message) or snapshot is None:
            await reply_ephemeral(interaction, tr.say(advice if isinstance(advice, Message) else GAME_OVER))
            return
        await reply_ephemeral(interaction, hint_text(advice, snapshot, tr, self.bot.dice_art))

    @staticmethod
    def _acknowledge(outcome: Outcome, tr: Translator) -> str:
        snapshot = outcome.snapshot
        assert snapshot is not None
        if snapshot.stage == "closed":
            return tr.text("Done: the game is closed.")
        if any(isinstance(event, Left) for event in outcome.events):
            return tr.text("You left the game.")
        return tr.text("Done: the board is updated.")

    # ------------------------------------------------------------------ the game-events stream

    async def on_game_event(self, event: GameEvent) -> None:
        """A start-up's restored games catch up; changes nobody answers (timers, computer players) are
        drawn by message id, and every change reaches the game's follow boards."""
        if isinstance(event, GamesRestored):
            await self.catching_up.restored(event.restored)
            return
        if not isinstance(event, GameChanged):
            return
        outcome = event.outcome
        snapshot = outcome.snapshot
        if snapshot is None:
            return
        if not event.cause.answered and outcome.reminder_for is None:
            await self.publisher.redraw(snapshot)
        if outcome.reminder_for is None:
            self.follows.changed(snapshot)


def _pressed_message(interaction: discord.Interaction) -> int | None:
    return interaction.message.id if interaction.message is not None else None


async def setup(bot: FarkleBot) -> None:
    await bot.add_cog(Boards(bot))
