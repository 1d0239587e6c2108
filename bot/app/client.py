"""The Discord client: its configuration (intents, shards, the HTTP pool), its start-up and its shutdown.

`setup_hook` builds the services (`bot.app.wiring`), loads the cogs, connects what they listen to,
restores the games and syncs the commands; what else a process does lives in its own module of
`bot.app`: answers in flight (`in_flight`), discord.py's internals (`discord_private`), the die emojis.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.app.command_sync import sync_if_changed
from bot.app.discord_private import read_pressed_heads
from bot.app.emojis import await_dice_art, load_dice_art
from bot.app.errors import NOT_IN_DMS, reply_ephemeral, report_error
from bot.app.in_flight import AnswersInFlight, tune_collector
from bot.app.memory import release_memory
from bot.app.system_clock import SystemClock
from bot.app.wiring import Services, build_services, connect, subscribe_view
from bot.core.clock import Clock
from bot.core.environment import Settings
from bot.engine import PRESET_NAMES, DiceSource, Ruleset
from bot.engine.win.tables import WinTables
from bot.render.dice import KEYCAP_ART, DiceArt
from bot.services.i18n import CommandTranslator, for_member, translators
from bot.sessions.win_tables import Solve, solve_in_process

if TYPE_CHECKING:
    from bot.activity.server import ActivityServer

log = logging.getLogger(__name__)


# Extensions loaded at start-up (add new cogs here), the board edge first: the others hand it their
# outcomes, and its stream subscribers come first. Mixin modules in cogs/ are imported by them.
EXTENSIONS = ("cogs.board.boards", "cogs.farkle", "cogs.server_settings", "cogs.seasons")
# How long a shutdown waits, in all, for interactions being answered, the game-events stream's subscribers
# and the work they left on its way (turn pings) (Docker allows 10 s by default before it kills the process).
DRAIN_SECONDS = 8.0
# A start-up reviews the games of this many last seconds that a crash left unreviewed.
REVIEW_RECOVERY_SECONDS = 7 * 24 * 3600
# Connections to Discord's API at most (discord.py's own pool has no bound): a burst of 500 presses opened
# one for nearly each (a TLS handshake each on Discord); beyond this many a request waits for one to come
# free. 100 keep up even at 100 ms a round trip (1,000 requests a second, more than one core answers).
HTTP_CONNECTIONS = 100


class FarkleTree(app_commands.CommandTree["FarkleBot"]):
    """Every slash command and autocomplete passes here first."""

    async def interaction_check(self, interaction: discord.Interaction[FarkleBot], /) -> bool:
        """Count it as in flight for a clean shutdown, and answer guild-only commands sent from a DM:
        Discord hides them there, but a client can still send them."""
        self.client.in_flight.answering()
        command = interaction.command
        root = getattr(command, "root_parent", None) or command  # a group's subcommands follow the group
        if interaction.guild_id is not None or root is None or not root.guild_only:
            return True
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await reply_ephemeral(interaction, for_member(interaction).say(NOT_IN_DMS))
        return False


class FarkleBot(commands.AutoShardedBot):
    """The bot: one process runs the shards `SHARD_IDS` of `SHARD_COUNT` (all of them when unset)."""

    services: Services  # built in `setup_hook`, on the database it opens

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Clock | None = None,
        dice: Callable[[], DiceSource] | None = None,
        win_solver: Solve = solve_in_process,
        win_tables: Sequence[WinTables] = (),
    ) -> None:
        """`win_tables`: tables loaded before the start (a tool's), used from set-up on."""
        # Unset, discord.py asks Discord how many shards to run and runs them all here.
        shards: dict[str, Any] = {"shard_count": settings.shard_count}
        if settings.shard_ids is not None:
            shards["shard_ids"] = list(settings.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            # Guilds only: the bot is driven by interactions, which carry everything it needs. Message
            # events (every board edit and ping of its own echoed back, parsed and cached) cost CPU and
            # memory for nothing, and so does discord.py's message cache.
            intents=discord.Intents(guilds=True),
            max_messages=None,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            tree_cls=FarkleTree,
            **shards,
        )
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        self._dice = dice
        self._win_solver = win_solver
        self._loaded_tables = tuple(win_tables)
        self.in_flight = AnswersInFlight()
        self.dice_art: DiceArt = KEYCAP_ART  # the die-face emojis once set-up found or made them
        self._awaiting_art: asyncio.Task[None] | None = None
        self._activity: ActivityServer | None = None
        self.answered_by_id: list[Callable[[str], object]] = []  # presses parsed with their message's head
        read_pressed_heads(self, self.answered_by_id)
        self.tree.error(self.on_app_command_error)

    async def login(self, token: str) -> None:
        """Log in with a bounded pool of connections to Discord's API (`HTTP_CONNECTIONS`)."""
        if self.http.connector is discord.utils.MISSING:
            self.http.connector = aiohttp.TCPConnector(limit=HTTP_CONNECTIONS)
        await super().login(token)

    async def setup_hook(self) -> None:
        translators()  # every catalogue read now: a broken one stops the start, not a game
        await self.tree.set_translator(CommandTranslator())
        self.services = services = await build_services(
            self.settings,
            self.clock,
            dice=self._dice,
            win_solver=self._win_solver,
            loaded_tables=self._loaded_tables,
        )
        for name in EXTENSIONS:
            await self.load_extension(name)
        connect(services, self.cogs.values(), answered_by_id=self.answered_by_id)
        self.dice_art = await load_dice_art(self, create=self.owns_application_setup)
        if self.dice_art is KEYCAP_ART and not self.owns_application_setup:
            self._awaiting_art = asyncio.create_task(
                await_dice_art(self, self.clock, self._found_art), name="farkle-dice-art"
            )
        # Tournaments first: restoring the games announces the ends a crash left unannounced, and a
        # match's end must find its tournament loaded.
        owns = self.settings.owns_guild
        await services.tournaments.restore(owns=owns)
        restored = await services.sessions.restore(owns=owns)
        await services.tournaments.reconcile()  # matches whose game ended but whose result was never counted
        if self.owns_application_setup:  # one process hands out what a crash left unawarded or unreviewed
            await services.daily.restore()
            await services.achievements.restore()
            await services.reviews.restore(since=self.clock.now() - REVIEW_RECOVERY_SECONDS)
        if restored.sessions or restored.unreadable:
            log.info(
                "Restored %d Farkle sessions (%d unreadable)",
                len(restored.sessions),
                len(restored.unreadable),
            )
        await services.seasons.start()  # after the extensions: the seasons cog posts
        if self.settings.activity_port is not None and self.application_id is not None:
            from bot.activity.server import open_activity  # its web server is imported only to run it

            token = self.http.token or ""
            self._activity = await open_activity(
                self.settings, self.application_id, token, services.sessions, services.config
            )
            subscribe_view(services, self._activity.live.on_game_event)
        if self.owns_application_setup:
            await sync_if_changed(self.tree, services.database, self.settings.dev_guild_id)
        # The presets' tables ship in the package: every shard process loads them at once.
        services.win_tables.start(Ruleset.preset(name) for name in PRESET_NAMES)
        tune_collector()

    def _found_art(self, art: DiceArt) -> None:
        self.dice_art = art

    async def on_ready(self) -> None:
        """Connected: what parsing the servers and channels left free goes back to the host."""
        release_memory()

    @property
    def owns_application_setup(self) -> bool:
        """Whether this process syncs the command tree and uploads the die emojis: one process does."""
        return self.settings.owns_application_setup

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report_error(interaction, error)

    async def close(self) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DRAIN_SECONDS  # one budget for the waits below

        def left() -> float:
            return max(0.0, deadline - loop.time())

        await self.in_flight.answered(left())
        if self._awaiting_art is not None:
            self._awaiting_art.cancel()
        if self._activity is not None:
            await self._activity.close()
        services = getattr(self, "services", None)  # none when the start failed before building them
        if services is not None:
            await services.tournaments.close()
            await services.seasons.close()
            await services.sessions.close(drain=left())
        await self.in_flight.finished(left())
        if services is not None:
            await services.reviews.close(left())
        # discord.py's AutoShardedClient that never connected (a refused login, a test) trips in close() on
        # the event queue `connect()` creates: there is nothing left to stop.
        with contextlib.suppress(AttributeError):
            await super().close()
        if services is not None:
            await services.database.close()
