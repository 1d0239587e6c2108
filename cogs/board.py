"""The board edge: the one place boards reach Discord.

It answers presses (every game button, on any board message, reaches its `on_interaction` listener,
which reads the button from the raw interaction, asks the session manager and answers), redraws boards
nobody pressed for (timers and computer players, read from the game-events stream), catches up after a
restart, pings the player whose turn it is, retires older copies of a board and chooses the language
every board is drawn in.

Render draws plain buttons whose custom ids this module matches (`TEMPLATE`), so a press on any board,
even one drawn before a restart or by an older drawing the player's screen still shows, reaches it.
"""

from __future__ import annotations

import asyncio
import logging
import re
from functools import partial
from typing import Any, Literal, cast

import discord
from discord.ext import commands

from bot.client import FarkleBot
from bot.engine.events import Left
from bot.engine.messages import N_, Message
from bot.errors import reply_ephemeral, report_error
from bot.i18n import for_member, for_server
from bot.render.components import TEMPLATE, ButtonRef, Rendered
from bot.render.help import hint_text
from bot.render.language import Translator
from bot.render.results import moved_board
from bot.render.table import render
from bot.sessions.actions import ButtonAction
from bot.sessions.commands import GAME_OVER
from bot.sessions.outcome import Outcome, Restored
from bot.sessions.session import Snapshot
from bot.sessions.stream import GameChanged, GameEvent
from cogs.answers import edit_in_answer
from cogs.delivery import Delivery

log = logging.getLogger(__name__)

# Seconds between boards redrawn after a restart: thousands of live games must not hit Discord's
# global rate limit (50 requests/s) at once, and live presses need room alongside.
CATCH_UP_PACE = 0.1
SAVED_NOT_SHOWN = N_("Your move counts, but I couldn't update the board: `/farkle board` shows it again.")
BOARD_REPOSTED = N_("Your move counts. The board had been deleted, so I posted a new one below.")
UNREADABLE = N_(
    "⚠️ I couldn't restore the Farkle game in this channel after a restart, sorry: "
    "start a new one with `/farkle new`."
)


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


Shown = Literal["edited", "posted"] | None  # how a redraw reached the channel; None: it didn't


async def _answer_with(interaction: discord.Interaction, rendered: Rendered) -> int:
    """Answer with a board and return its message id, taken from the answer itself: a second request
    for it would leave a window in which a quick press finds no board and posts another one."""
    answer = await interaction.response.send_message(**rendered.message)
    if answer.message_id is not None:
        return answer.message_id
    return (await interaction.original_response()).id  # an answer without its message (older API)


async def _tell_privately(interaction: discord.Interaction, text: str) -> None:
    try:
        await reply_ephemeral(interaction, text)
    except discord.HTTPException as error:
        log.warning("Could not tell member %s privately: %s", interaction.user.id, error)


async def _ping(channel: discord.PartialMessageable, user_id: int, text: str) -> discord.Message:
    """A message that pings exactly one member and nobody else."""
    only_them = discord.AllowedMentions(users=[discord.Object(user_id)], everyone=False, roles=False)
    return await channel.send(f"<@{user_id}> {text}", allowed_mentions=only_them)


class Boards(commands.Cog):
    """Delivers boards: answers, redraws, catch-up, pings and retirements, in the reader's language."""

    def __init__(self, bot: FarkleBot) -> None:
        self.bot = bot
        self.manager = bot.sessions
        self._catching_up: asyncio.Task[None] | None = None
        self.delivery = Delivery(bot.clock)

    async def cog_load(self) -> None:
        self.bot.pressed_message_unread(GAME_BUTTON.fullmatch)  # the button is read from the press
        self.manager.subscribe(self.on_game_event)
        self.manager.on_restore(self.catch_up)

    async def cog_unload(self) -> None:
        if self._catching_up is not None:
            self._catching_up.cancel()

    # ------------------------------------------------------------------ answering interactions

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every game button, on any board message, even one drawn before a restart: one hop from the
        press to the session manager and back."""
        ref = pressed_game_button(interaction)
        channel_id = interaction.channel_id
        if ref is None or channel_id is None:
            return
        self.bot.answering()
        try:
            if ref.action == ButtonAction.HINT:
                await self.hint(interaction, channel_id, ref)
                return
            user = interaction.user
            outcome = await self.manager.press(
                channel_id, ref.game_id, ref.seq, user.id, user.display_name, ref.action, ref.arg
            )
            await self.show(interaction, outcome, pressed=ref)
        except Exception as error:
            await report_error(interaction, error)

    async def show(
        self, interaction: discord.Interaction, outcome: Outcome, *, pressed: ButtonRef | None = None
    ) -> None:
        """Answer one interaction: a refusal privately, a change by redrawing the game's message."""
        tr = for_member(interaction)
        if outcome.outdated and self._on_the_board(interaction, outcome):
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
                await self.redraw(outcome.snapshot)
            return
        snapshot = outcome.snapshot
        rendered = render(snapshot, self.shown_to(snapshot), self.bot.dice_art)
        if pressed is not None and pressed.game_id == snapshot.game_id:
            await self._answer_press(interaction, outcome, rendered)
        elif outcome.opened or not snapshot.channel_routes:
            # A new lobby (or a rematch pressed on the results), or a game only interactions reach:
            # this answer is the board's message.
            message_id = await _answer_with(interaction, rendered)
            self.delivery.hold(snapshot, interaction)
            await self._attached(snapshot, message_id)
        elif snapshot.board_message_id is None:  # the answer that opened it is still posting it
            await interaction.response.send_message(self._acknowledge(outcome, tr), ephemeral=True)
        else:
            await self.redraw(snapshot, rendered)
            await interaction.response.send_message(self._acknowledge(outcome, tr), ephemeral=True)

    async def _answer_press(
        self, interaction: discord.Interaction, outcome: Outcome, rendered: Rendered
    ) -> None:
        """Edit the pressed board; if that answer fails, the committed move still reaches the board."""
        snapshot = outcome.snapshot
        assert snapshot is not None
        try:
            await edit_in_answer(interaction, **rendered.message)
            self.delivery.hold(snapshot, interaction)
        except discord.HTTPException as error:
            log.warning(
                "Could not answer a press in channel %s (%s): redrawing by id", snapshot.channel_id, error
            )
            shown = await self.redraw(snapshot, rendered)
            if shown != "edited":  # the member's answer failed: tell them where their move went
                said = BOARD_REPOSTED if shown == "posted" else SAVED_NOT_SHOWN
                await _tell_privately(interaction, for_member(interaction).term(said))
            return
        if not snapshot.channel_routes and interaction.message is not None:
            # Only this token can edit a board here: the message pressed is the board from now on.
            await self.manager.attach_board(
                snapshot.channel_id, snapshot.game_id, interaction.message.id, snapshot.version
            )
        elif interaction.message is not None and interaction.message.id == snapshot.board_message_id:
            # A turn ping follows: its mark records this board too, one write for both.
            ping_follows = outcome.turn_for is not None
            self.manager.mark_shown(
                snapshot.channel_id, snapshot.game_id, snapshot.version, ping_follows=ping_follows
            )
        else:  # pressed on an older copy whose retirement failed: the board players follow moves too
            await self.redraw(snapshot, rendered)

    @staticmethod
    def _on_the_board(interaction: discord.Interaction, outcome: Outcome) -> bool:
        """The press came from the game's own board message (not an older copy of it)."""
        snapshot, message = outcome.snapshot, interaction.message
        return snapshot is not None and message is not None and message.id == snapshot.board_message_id

    async def _redraw_in_answer(self, interaction: discord.Interaction, outcome: Outcome) -> None:
        """A press on the game's board whose drawing is behind (a crash came between a move and its
        drawing, and the catch-up has not reached it yet): the answer is the board as it is now, an
        edit that costs no rate limit; the member presses again on what they now see."""
        snapshot = outcome.snapshot
        assert snapshot is not None
        await edit_in_answer(interaction, **self.rendered(snapshot).message)
        self.delivery.hold(snapshot, interaction)
        self.manager.mark_shown(snapshot.channel_id, snapshot.game_id, snapshot.version)

    async def _redraw_pressed(self, interaction: discord.Interaction, pressed: ButtonRef) -> bool:
        """A refused press on a game only interactions reach: its answer is the one way to bring the board
        up to date (timers and computer turns may have played while every token was expired)."""
        channel_id = interaction.channel_id
        snapshot = self.manager.snapshot(channel_id) if channel_id is not None else None
        if snapshot is None or snapshot.channel_routes or snapshot.game_id != pressed.game_id:
            return False
        await self._answer_press(interaction, Outcome(snapshot=snapshot), self.rendered(snapshot))
        return True

    def rendered(self, snapshot: Snapshot) -> Rendered:
        return render(snapshot, self.shown_to(snapshot), self.bot.dice_art)

    async def hint(self, interaction: discord.Interaction, channel_id: int, ref: ButtonRef) -> None:
        advice = await self.manager.hint(channel_id, ref.game_id, interaction.user.id)
        snapshot = self.manager.snapshot(channel_id)
        tr = for_member(interaction)
        if isinstance(advice, Message) or snapshot is None:
            await reply_ephemeral(interaction, tr.say(advice if isinstance(advice, Message) else GAME_OVER))
            return
        await reply_ephemeral(interaction, hint_text(advice, snapshot, tr, self.bot.dice_art))

    async def post_again(self, interaction: discord.Interaction, snapshot: Snapshot) -> None:
        """`/farkle board`: the board as the answer, at the bottom of the channel; the old one retires."""
        old = snapshot.board_message_id
        message_id = await _answer_with(interaction, self.rendered(snapshot))
        self.delivery.hold(snapshot, interaction)
        await self.manager.attach_board(snapshot.channel_id, snapshot.game_id, message_id, snapshot.version)
        if old is not None and snapshot.channel_routes:  # elsewhere an older board is redrawn when pressed
            await self._retire_board(snapshot, old)

    async def post_in(self, channel: discord.abc.Messageable, snapshot: Snapshot) -> None:
        """Post a new game's board in `channel` (a game thread); raises what Discord refused."""
        message = await channel.send(**render(snapshot, self.shown_to(snapshot), self.bot.dice_art).message)
        await self._attached(snapshot, message.id)

    async def _attached(self, snapshot: Snapshot, message_id: int) -> None:
        """Remember the board's message; redraw it if the game moved on while it was being posted."""
        now = await self.manager.attach_board(
            snapshot.channel_id, snapshot.game_id, message_id, snapshot.version
        )
        if now is not None and now.version != snapshot.version:  # joined while it was being posted
            await self.redraw(now)

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
        """Changes nobody answers (timers, computer players) are drawn by message id; every change's
        turn ping or reminder goes out once the answers being sent are out."""
        if not isinstance(event, GameChanged):
            return
        outcome = event.outcome
        snapshot = outcome.snapshot
        if snapshot is None:
            return
        if not event.cause.answered and outcome.reminder_for is None:
            await self.redraw(snapshot)
        announces = (outcome.turn_for or outcome.reminder_for) is not None or outcome.moved_turn
        if announces and outcome.refusal is None:
            self.bot.after_answers(snapshot.channel_id, partial(self._announce, outcome))

    async def redraw(self, snapshot: Snapshot, rendered: Rendered | None = None) -> Shown:
        """Bring a game's board up to date by its message id, or post a new one if it was deleted.

        Returns how the board now shows `snapshot` (None: it doesn't); a failure is logged, and the next
        press or `/farkle board` recovers.
        """
        rendered = rendered or self.rendered(snapshot)
        if not snapshot.channel_routes:
            if not await self.delivery.edit_board(snapshot, rendered):
                return None
            self.manager.mark_shown(snapshot.channel_id, snapshot.game_id, snapshot.version)
            return "edited"
        channel = self.bot.get_partial_messageable(snapshot.channel_id)
        if snapshot.board_message_id is not None:
            try:
                await channel.get_partial_message(snapshot.board_message_id).edit(**rendered.message)
            except discord.NotFound:
                log.info("The board in channel %s was deleted: posting a new one", snapshot.channel_id)
            except discord.HTTPException as error:
                log.warning("Could not redraw the board in channel %s: %s", snapshot.channel_id, error)
                return None
            else:
                self.manager.mark_shown(snapshot.channel_id, snapshot.game_id, snapshot.version)
                return "edited"
        if snapshot.stage not in ("lobby", "playing"):
            return None
        try:
            message = await channel.send(**rendered.message)
        except discord.HTTPException as error:
            log.warning("Could not post a board in channel %s: %s", snapshot.channel_id, error)
            return None
        await self.manager.attach_board(snapshot.channel_id, snapshot.game_id, message.id, snapshot.version)
        return "posted"

    async def _announce(self, outcome: Outcome) -> None:
        """Pings are a courtesy: a channel that refuses them must not undo or hide the move itself.

        A channel holds at most one of them: the turn's ping, replaced by its reminder, deleted when the
        turn moves on (by the next turn's ping, or at once when nobody is pinged next)."""
        snapshot = outcome.snapshot
        assert snapshot is not None
        channel = self.bot.get_partial_messageable(snapshot.channel_id)
        tr = self.shown_to(snapshot)

        async def swap(user_id: int | None, text: str) -> None:
            if not snapshot.channel_routes:
                await self.delivery.swap_ping(snapshot, user_id, text)
            else:
                await self._swap_ping(snapshot, await _ping(channel, user_id, text) if user_id else None)

        try:
            if outcome.reminder_for is not None and snapshot.deadline is not None:
                left = max(1, round(snapshot.deadline - self.bot.clock.now()))
                reminder = tr.plural(
                    "⏳ {count} second left on your turn!", "⏳ {count} seconds left on your turn!", left
                )
                await swap(outcome.reminder_for, reminder)
            if outcome.turn_for is not None:
                await swap(outcome.turn_for, tr.text("🎲 it's your turn!"))
            elif outcome.moved_turn:
                await swap(None, "")
        except discord.HTTPException as error:
            log.warning("Could not post or tidy a turn ping in channel %s: %s", snapshot.channel_id, error)

    async def _swap_ping(self, snapshot: Snapshot, ping: discord.Message | None) -> None:
        """Record the channel's one ping (None: none) and delete the one it replaces."""
        previous = self.manager.attach_ping(
            snapshot.channel_id, snapshot.game_id, ping.id if ping else None, snapshot.turn_number
        )
        if previous is not None:
            await self.bot.get_partial_messageable(snapshot.channel_id).get_partial_message(previous).delete()

    async def _retire_board(self, snapshot: Snapshot, message_id: int) -> None:
        """An older board says where the game went and loses its buttons."""
        channel_id = snapshot.channel_id
        moved = moved_board(self.shown_to(snapshot))
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.edit(**moved.message)
        except discord.HTTPException:
            log.warning("Could not retire the board %s in channel %s", message_id, channel_id)

    # ------------------------------------------------------------------ after a restart

    async def catch_up(self, restored: Restored) -> None:
        """After a start-up, redraw the boards that fell behind their game, paced, in the background."""
        if restored.behind or restored.unreadable:
            self._catching_up = asyncio.create_task(self._catch_up(restored), name="farkle-catch-up")

    async def _catch_up(self, restored: Restored) -> None:
        clock = self.bot.clock
        for channel_id in restored.unreadable:
            try:
                channel = self.bot.get_channel(channel_id)
                guild_id = (
                    channel.guild.id
                    if isinstance(channel, discord.abc.GuildChannel | discord.Thread)
                    else None
                )
                notice = self.public(None, guild_id).term(UNREADABLE)
                await self.bot.get_partial_messageable(channel_id).send(notice)
            except discord.HTTPException as error:
                log.warning("Could not tell channel %s its game was not restored: %s", channel_id, error)
            await clock.sleep_until(clock.now() + CATCH_UP_PACE)
        for channel_id in restored.behind:
            outcome = self.manager.catch_up(channel_id)  # as it is now: players may have moved meanwhile
            # A game only interactions reach has no token after a restart: its next press redraws it.
            if outcome is not None and outcome.snapshot is not None and outcome.snapshot.channel_routes:
                if await self.redraw(outcome.snapshot):
                    await self._announce(outcome)
                await clock.sleep_until(clock.now() + CATCH_UP_PACE)

    # ------------------------------------------------------------------ languages

    def shown_to(self, snapshot: Snapshot) -> Translator:
        """The language of this game's public messages (the server's setting when it was created)."""
        return self.public(snapshot.language, snapshot.guild_id)

    def public(self, setting: str | None, guild_id: int | None) -> Translator:
        """The language of messages the whole channel reads: the server's setting, else its locale."""
        guild = self.bot.get_guild(guild_id) if guild_id is not None else None
        return for_server(setting, guild.preferred_locale if guild is not None else None)


async def setup(bot: FarkleBot) -> None:
    await bot.add_cog(Boards(bot))
