"""`/farkle` and the game's buttons: parse the interaction, ask the session manager, draw the outcome."""

from __future__ import annotations

import asyncio
import logging
from functools import partial

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.client import FarkleBot
from bot.engine.events import Left
from bot.engine.messages import N_, Message
from bot.errors import reply_ephemeral, report_error
from bot.i18n import for_member, for_server
from bot.render.board import Rendered, help_embed, hint_text, moved_board, render, rules_embed
from bot.render.choices import matching
from bot.render.components import ButtonRef
from bot.render.language import Translator
from bot.render.words import echo
from bot.sessions.actions import ButtonAction
from bot.sessions.commands import GAME_OVER
from bot.sessions.outcome import Outcome, Restored
from bot.sessions.session import Snapshot
from cogs.stats import StatsCommands
from cogs.threads import NO_THREAD, open_game_thread, show_lobby_in_thread

log = logging.getLogger(__name__)

# Seconds between boards redrawn after a restart: thousands of live games must not hit Discord's
# global rate limit (50 requests/s) at once, and live presses need room alongside.
CATCH_UP_PACE = 0.1
SAVED_NOT_SHOWN = N_("Your move counts, but I couldn't update the board: `/farkle board` shows it again.")
UNREADABLE = N_(
    "⚠️ I couldn't restore the Farkle game in this channel after a restart, sorry: "
    "start a new one with `/farkle new`."
)


async def _tell_privately(interaction: discord.Interaction, text: str) -> None:
    try:
        await reply_ephemeral(interaction, text)
    except discord.HTTPException as error:
        log.warning("Could not tell member %s privately: %s", interaction.user.id, error)


async def _ping(channel: discord.PartialMessageable, user_id: int, text: str) -> discord.Message:
    """A message that pings exactly one member and nobody else."""
    only_them = discord.AllowedMentions(users=[discord.Object(user_id)], everyone=False, roles=False)
    return await channel.send(f"<@{user_id}> {text}", allowed_mentions=only_them)


@app_commands.guild_only()
class Farkle(
    StatsCommands,
    commands.GroupCog,
    group_name="farkle",
    group_description=locale_str("Play Farkle in this channel"),
):
    def __init__(self, bot: FarkleBot) -> None:
        self.bot = bot
        self.manager = bot.sessions
        self._catching_up: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self.bot.answer_presses(self.on_press, self.turn_page)
        self.manager.subscribe(self.show_unprompted)
        self.manager.on_restore(self.catch_up)

    async def cog_unload(self) -> None:
        if self._catching_up is not None:
            self._catching_up.cancel()

    # ------------------------------------------------------------------ drawing outcomes

    async def show(
        self, interaction: discord.Interaction, outcome: Outcome, *, pressed: ButtonRef | None = None
    ) -> None:
        """Answer one interaction: a refusal privately, a change by redrawing the game's message."""
        tr = for_member(interaction)
        if outcome.refusal is not None or outcome.snapshot is None:
            await reply_ephemeral(interaction, tr.say(outcome.refusal or Message("Nothing changed.")))
            if outcome.snapshot is not None:  # the game moved on elsewhere: show it as it is
                await self.redraw(outcome.snapshot)
            return
        snapshot = outcome.snapshot
        rendered = render(snapshot, self.shown_to(snapshot), self.bot.dice_art)
        if pressed is not None and pressed.game_id == snapshot.game_id:
            await self._answer_press(interaction, snapshot, rendered)
        elif outcome.opened:  # a new lobby (or a rematch pressed on the results): this answer is its message
            await interaction.response.send_message(**rendered.message)
            message = await interaction.original_response()
            now = await self.manager.attach_board(
                snapshot.channel_id, snapshot.game_id, message.id, snapshot.version
            )
            if now is not None and now.version != snapshot.version:  # joined while it was being posted
                await self.redraw(now)
        elif snapshot.board_message_id is None:  # the answer that opened it is still posting it
            await interaction.response.send_message(self._acknowledge(outcome, tr), ephemeral=True)
        else:
            await self.redraw(snapshot, rendered)
            await interaction.response.send_message(self._acknowledge(outcome, tr), ephemeral=True)
        self._announce_later(outcome)

    async def _answer_press(
        self, interaction: discord.Interaction, snapshot: Snapshot, rendered: Rendered
    ) -> None:
        """Edit the pressed board; if that answer fails, the committed move still reaches the board."""
        try:
            await interaction.response.edit_message(**rendered.message)
        except discord.HTTPException as error:
            log.warning(
                "Could not answer a press in channel %s (%s): redrawing by id", snapshot.channel_id, error
            )
            if not await self.redraw(snapshot, rendered):
                await _tell_privately(interaction, for_member(interaction).term(SAVED_NOT_SHOWN))
            return
        if interaction.message is not None and interaction.message.id == snapshot.board_message_id:
            self.manager.mark_shown(snapshot.channel_id, snapshot.game_id, snapshot.version)
        else:  # pressed on an older copy whose retirement failed: the board players follow moves too
            await self.redraw(snapshot, rendered)

    async def show_unprompted(self, outcome: Outcome) -> None:
        """Timers and computer players change games with nobody pressing: edit the board by id."""
        snapshot = outcome.snapshot
        if snapshot is None:
            return
        if outcome.reminder_for is None:
            await self.redraw(snapshot)
        self._announce_later(outcome)

    async def redraw(self, snapshot: Snapshot, rendered: Rendered | None = None) -> bool:
        """Bring a game's board up to date by its message id, or post a new one if it was deleted.

        Returns whether the board now shows `snapshot`; a failure is logged, and the next press or
        `/farkle board` recovers.
        """
        rendered = rendered or render(snapshot, self.shown_to(snapshot), self.bot.dice_art)
        channel = self.bot.get_partial_messageable(snapshot.channel_id)
        if snapshot.board_message_id is not None:
            try:
                await channel.get_partial_message(snapshot.board_message_id).edit(**rendered.message)
            except discord.NotFound:
                log.info("The board in channel %s was deleted: posting a new one", snapshot.channel_id)
            except discord.HTTPException as error:
                log.warning("Could not redraw the board in channel %s: %s", snapshot.channel_id, error)
                return False
            else:
                self.manager.mark_shown(snapshot.channel_id, snapshot.game_id, snapshot.version)
                return True
        if snapshot.stage not in ("lobby", "playing"):
            return False
        try:
            message = await channel.send(**rendered.message)
        except discord.HTTPException as error:
            log.warning("Could not post a board in channel %s: %s", snapshot.channel_id, error)
            return False
        await self.manager.attach_board(snapshot.channel_id, snapshot.game_id, message.id, snapshot.version)
        return True

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
            if outcome is not None and outcome.snapshot is not None:
                if await self.redraw(outcome.snapshot):
                    await self._announce(outcome)
                await clock.sleep_until(clock.now() + CATCH_UP_PACE)

    def _announce_later(self, outcome: Outcome) -> None:
        """Turn pings and reminders go out once the answers being sent are out (`after_answers`)."""
        if outcome.snapshot is not None and (outcome.turn_for or outcome.reminder_for) is not None:
            self.bot.after_answers(outcome.snapshot.channel_id, partial(self._announce, outcome))

    async def _announce(self, outcome: Outcome) -> None:
        """Pings are a courtesy: a channel that refuses them must not undo or hide the move itself."""
        snapshot = outcome.snapshot
        assert snapshot is not None
        channel = self.bot.get_partial_messageable(snapshot.channel_id)
        tr = self.shown_to(snapshot)
        try:
            if outcome.reminder_for is not None:
                half = snapshot.turn_timeout // 2
                reminder = tr.plural(
                    "⏳ {count} second left on your turn!", "⏳ {count} seconds left on your turn!", half
                )
                await _ping(channel, outcome.reminder_for, reminder)
            if outcome.turn_for is None:
                return
            ping = await _ping(channel, outcome.turn_for, tr.text("🎲 it's your turn!"))
            previous = await self.manager.attach_ping(
                snapshot.channel_id, snapshot.game_id, ping.id, snapshot.turn_number
            )
            if previous is not None:
                await channel.get_partial_message(previous).delete()
        except discord.HTTPException as error:
            log.warning("Could not post or tidy a turn ping in channel %s: %s", snapshot.channel_id, error)

    async def _retire_board(self, snapshot: Snapshot, message_id: int) -> None:
        """An older board says where the game went and loses its buttons."""
        channel_id = snapshot.channel_id
        moved = moved_board(self.shown_to(snapshot))
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.edit(**moved.message)
        except discord.HTTPException:
            log.warning("Could not retire the board %s in channel %s", message_id, channel_id)

    def shown_to(self, snapshot: Snapshot) -> Translator:
        """The language of this game's public messages (the server's setting when it was created)."""
        return self.public(snapshot.language, snapshot.guild_id)

    def public(self, setting: str | None, guild_id: int | None) -> Translator:
        """The language of messages the whole channel reads: the server's setting, else its locale."""
        guild = self.bot.get_guild(guild_id) if guild_id is not None else None
        return for_server(setting, guild.preferred_locale if guild is not None else None)

    @staticmethod
    def _acknowledge(outcome: Outcome, tr: Translator) -> str:
        snapshot = outcome.snapshot
        assert snapshot is not None
        if snapshot.stage == "closed":
            return tr.text("Done: the game is closed.")
        if any(isinstance(event, Left) for event in outcome.events):
            return tr.text("You left the game.")
        return tr.text("Done: the board is updated.")

    # ------------------------------------------------------------------ buttons

    async def on_press(self, interaction: discord.Interaction, ref: ButtonRef) -> None:
        self.bot.answering()
        try:
            if interaction.channel_id is None:
                return
            if ref.action == ButtonAction.HINT:
                await self._hint(interaction, interaction.channel_id, ref)
                return
            outcome = await self.manager.press(
                interaction.channel_id,
                ref.game_id,
                ref.seq,
                interaction.user.id,
                interaction.user.display_name,
                ref.action,
                ref.arg,
            )
            await self.show(interaction, outcome, pressed=ref)
            # Roll and Bank are disabled for a selection that does not score: say why, privately.
            shown = outcome.snapshot
            if (
                ref.action in (ButtonAction.PICK, ButtonAction.DROP)
                and shown
                and shown.selection
                and shown.preview
                and shown.preview.error
            ):
                await interaction.followup.send(
                    for_member(interaction).say(shown.preview.error), ephemeral=True
                )
        except Exception as error:
            await report_error(interaction, error)

    async def _hint(self, interaction: discord.Interaction, channel_id: int, ref: ButtonRef) -> None:
        advice = await self.manager.hint(channel_id, ref.game_id, interaction.user.id)
        snapshot = self.manager.snapshot(channel_id)
        tr = for_member(interaction)
        if isinstance(advice, Message) or snapshot is None:
            await reply_ephemeral(interaction, tr.say(advice if isinstance(advice, Message) else GAME_OVER))
            return
        await reply_ephemeral(interaction, hint_text(advice, snapshot, tr, self.bot.dice_art))

    # ------------------------------------------------------------------ commands

    @app_commands.command(description=locale_str("Open a Farkle lobby in this channel"))
    @app_commands.describe(rules=locale_str("Which rules to play (default: this server's)"))
    async def new(self, interaction: discord.Interaction, rules: str | None = None) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        config = await self.bot.config.get(interaction.guild_id)
        ruleset = await self.bot.config.resolve(interaction.guild_id, rules) if rules else config.ruleset
        if ruleset is None:
            names = await self.bot.config.rules_names(interaction.guild_id)
            unknown = for_member(interaction).text(
                "Unknown rules “{name}”: choose one of {names}.",
                name=echo(str(rules)),
                names=", ".join(names),
            )
            await reply_ephemeral(interaction, unknown)
            return
        user = interaction.user
        open_in = partial(
            self.manager.open_lobby,
            interaction.guild_id,
            host_id=user.id,
            host_name=user.display_name,
            rules=ruleset,
            table=config.table,
        )
        thread, no_thread = await open_game_thread(interaction) if config.threads else (None, None)
        if thread is not None:
            outcome = await open_in(thread.id)
            public = self.public(config.table.language, interaction.guild_id)
            if await show_lobby_in_thread(interaction, self.manager, outcome, thread, public):
                return
            no_thread = NO_THREAD
        await self.show(interaction, await open_in(interaction.channel_id))
        if no_thread:
            await interaction.followup.send(for_member(interaction).term(no_thread), ephemeral=True)

    @new.autocomplete("rules")
    async def _rules_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        assert interaction.guild_id is not None
        return matching(await self.bot.config.rules_names(interaction.guild_id), current)

    @app_commands.command(description=locale_str("Join the lobby in this channel"))
    async def join(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        outcome = await self.manager.join(
            interaction.channel_id, interaction.user.id, interaction.user.display_name
        )
        await self.show(interaction, outcome)

    @app_commands.command(description=locale_str("Leave the lobby or the game in this channel"))
    async def leave(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        await self.show(interaction, await self.manager.leave(interaction.channel_id, interaction.user.id))

    @app_commands.command(description=locale_str("Start the game (host only)"))
    async def start(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        await self.show(interaction, await self.manager.start(interaction.channel_id, interaction.user.id))

    @app_commands.command(
        description=locale_str("End the lobby or game in this channel (host or Manage Messages)")
    )
    async def end(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        moderator = interaction.permissions.manage_messages
        outcome = await self.manager.cancel(interaction.channel_id, interaction.user.id, moderator=moderator)
        await self.show(interaction, outcome)

    @app_commands.command(description=locale_str("Post the game board again at the bottom of the channel"))
    async def board(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        snapshot = self.manager.snapshot(interaction.channel_id)
        if snapshot is None or snapshot.stage == "closed":
            tr = for_member(interaction)
            await reply_ephemeral(
                interaction, tr.text("There is no Farkle game in this channel: start one with `/farkle new`.")
            )
            return
        old = snapshot.board_message_id
        rendered = render(snapshot, self.shown_to(snapshot), self.bot.dice_art)
        await interaction.response.send_message(**rendered.message)
        message = await interaction.original_response()
        await self.manager.attach_board(snapshot.channel_id, snapshot.game_id, message.id, snapshot.version)
        if old is not None:
            await self._retire_board(snapshot, old)

    @app_commands.command(description=locale_str("The rules of this channel's game, in plain words"))
    async def rules(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        tr = for_member(interaction)
        snapshot = self.manager.snapshot(interaction.channel_id)
        if snapshot is not None and snapshot.stage != "closed":
            ruleset = snapshot.rules
            title = tr.text("Rules of this game: {rules}", rules=ruleset.name)
        else:
            ruleset = (await self.bot.config.get(interaction.guild_id)).ruleset
            title = tr.text("This server's rules: {rules}", rules=ruleset.name)
        embed = rules_embed(ruleset, tr, title=title)
        embed.set_footer(text=tr.text("Target {points}", points=tr.points(ruleset.target)))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(description=locale_str("How to play Farkle with this bot"))
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=help_embed(for_member(interaction)), ephemeral=True)


async def setup(bot: FarkleBot) -> None:
    await bot.add_cog(Farkle(bot))
