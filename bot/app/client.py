"""The bot: owns the database, the clock and the session manager; wires the cogs in `setup_hook`."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
import logging
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.app.emojis import load_dice_art
from bot.app.errors import NOT_IN_DMS, reply_ephemeral, report_error
from bot.app.memory import release_memory
from bot.core.clock import Clock
from bot.core.env import Settings
from bot.core.server_settings import SETTINGS
from bot.engine import PRESET_NAMES, DiceSource, Ruleset
from bot.engine.win.tables import WinTables
from bot.render.dice import KEYCAP_ART, DiceArt
from bot.services.i18n import CommandTranslator, for_member, translators
from bot.services.ratings import rate_game
from bot.services.seasons import SeasonKeeper
from bot.services.server_settings import ConfigService
from bot.services.stats import StatsService
from bot.sessions.achievements import AchievementKeeper
from bot.sessions.daily.door import DailyManager
from bot.sessions.manager import SessionManager
from bot.sessions.policies import PolicyCache
from bot.sessions.review import GameReviews
from bot.sessions.session import TableSettings
from bot.sessions.tournament.door import Tournaments
from bot.sessions.win_tables import Solve, WinTableKeeper, solve_in_process
from bot.storage import Database, command_sync, open_database
from bot.storage.daily import SqlDailyStore
from bot.storage.policies import SqlPolicyStore
from bot.storage.reviews import SqlReviewStore
from bot.storage.server_settings import SqlConfigStore
from bot.storage.sessions import SqlSessionStore
from bot.storage.tournaments import SqlTournamentStore
from bot.storage.win_tables import SqlWinTableStore

log = logging.getLogger(__name__)


# Extensions loaded at start-up (add new cogs here), the board edge first: the others hand it their
# outcomes. Mixin modules in cogs/ are imported by them. Each registers its own persistent buttons.
EXTENSIONS = ("cogs.board.boards", "cogs.farkle", "cogs.server_settings", "cogs.seasons")
# How long a shutdown waits, in all, for interactions being answered, the game-events stream's subscribers
# and the work they left on its way (turn pings) (Docker allows 10 s by default before it kills the process).
DRAIN_SECONDS = 8.0
# A start-up reviews the games of this many last seconds that a crash left unreviewed.
REVIEW_RECOVERY_SECONDS = 7 * 24 * 3600
# A shard process that started before the die emojis were uploaded looks again this often, this many times.
ART_LOOK_EVERY = 60.0
ART_LOOKS = 30
# After a burst (this many answers in flight at once), the first moment nothing is being answered collects
# garbage. Every answer leaves discord.py's interaction and its response in reference cycles:
# answered one at a time they die young, but in a burst they outlive the collector's young generations and
# wait for its full collection, every few hundred answers, and the memory they took stayed with the
# process (300 games started 50 at a time: 32 -> 20 KB a game).
BURST_ANSWERS = 10
# The collector's thresholds once started (CPython: 700, 10, 10). Every answer leaves cycles (discord.py's
# interaction and its response) but most of a press's allocations die by their
# reference counts: collecting every 700 allocations walked the presses in flight again and again, a
# tenth of a Roll's CPU in a burst. The garbage this leaves a little longer is collected after a burst.
COLLECT_AFTER = (5000, 20, 20)
# A burst pauses the collector until its first quiet moment (`FarkleBot._pause_collector`): its young
# collections walked the answers in flight again and again (5-7 % of a Roll's CPU in a burst of 500). An
# answer leaves a few KB of cycles, so a burst this long, that never pauses, resumes collecting.
PAUSE_COLLECTOR_AT_MOST = 2000
# Connections to Discord's API at most (discord.py's own pool has no bound). Every answer is a request, so
# a burst of 500 presses opened a connection for nearly each one (a TLS handshake each on Discord, and a
# quarter of a Roll's CPU in the first burst on the loopback bench); beyond this many, a request waits for
# a connection to come free. 100 at once keep up with the bot even at 100 ms a round trip (1,000
# requests a second, more than it answers on one core).
HTTP_CONNECTIONS = 100
# What discord.py keeps of a message whose press is answered by its id alone (`pressed_message_unread`):
# enough for a `Message` of the right id, channel, author and flags; its components, embeds, mentions and
# the interaction that posted it are left out (empty).
MESSAGE_HEAD = (
    "id",
    "channel_id",
    "guild_id",
    "type",
    "content",
    "author",
    "flags",
    "timestamp",
    "webhook_id",
)


class FarkleTree(app_commands.CommandTree["FarkleBot"]):
    """Every slash command and autocomplete passes here first."""

    async def interaction_check(self, interaction: discord.Interaction[FarkleBot], /) -> bool:
        """Count it as in flight for a clean shutdown, and answer guild-only commands sent from a DM:
        Discord hides them there, but a client can still send them."""
        self.client.answering()
        command = interaction.command
        root = getattr(command, "root_parent", None) or command  # a group's subcommands follow the group
        if interaction.guild_id is not None or root is None or not root.guild_only:
            return True
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await reply_ephemeral(interaction, for_member(interaction).say(NOT_IN_DMS))
        return False


class SystemClock:
    """Wall-clock time; SimCord virtualises both `utcnow` and `asyncio.sleep`, so tests use it unchanged."""

    def now(self) -> float:
        return discord.utils.utcnow().timestamp()

    async def sleep_until(self, deadline: float) -> None:
        delay = deadline - self.now()
        if delay > 0:
            await asyncio.sleep(delay)


class FarkleBot(commands.AutoShardedBot):
    """The bot: one process runs the shards `SHARD_IDS` of `SHARD_COUNT` (all of them when unset)."""

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
        self._win_tables: WinTableKeeper | None = None
        self._db: Database | None = None
        self._sessions: SessionManager | None = None
        self._config: ConfigService | None = None
        self._stats: StatsService | None = None
        self._daily: DailyManager | None = None
        self._achievements: AchievementKeeper | None = None
        self._reviews: GameReviews | None = None
        self._tournaments: Tournaments | None = None
        self._seasons: SeasonKeeper | None = None
        self._answering: set[asyncio.Task[Any]] = set()
        self._quiet = asyncio.Event()  # set while no interaction is being answered
        self._quiet.set()
        self._busiest = 0  # the most answers in flight at once since the last quiet moment
        self._answers_paused = 0  # answers begun since this burst paused the collector
        self._finishing: set[asyncio.Task[Any]] = set()  # work a shutdown lets finish (turn pings)
        self.dice_art: DiceArt = KEYCAP_ART  # the die-face emojis once set-up found or made them
        self._awaiting_art: asyncio.Task[None] | None = None
        self.tree.error(self.on_app_command_error)
        self._message_unread: list[Callable[[str], object]] = []
        parsers = self._connection.parsers
        parsers["INTERACTION_CREATE"] = partial(self._parse_interaction, parsers["INTERACTION_CREATE"])

    @property
    def db(self) -> Database:
        if self._db is None:
            raise RuntimeError("The database opens in setup_hook; it is not available before login.")
        return self._db

    @property
    def win_tables(self) -> WinTableKeeper:
        if self._win_tables is None:
            raise RuntimeError("Win tables load in setup_hook; they are not available before login.")
        return self._win_tables

    @property
    def sessions(self) -> SessionManager:
        if self._sessions is None:
            raise RuntimeError("The session manager starts in setup_hook; it is not available before login.")
        return self._sessions

    @property
    def config(self) -> ConfigService:
        if self._config is None:
            raise RuntimeError("Server configuration loads in setup_hook; it is not available before login.")
        return self._config

    @property
    def stats(self) -> StatsService:
        if self._stats is None:
            raise RuntimeError("Statistics open in setup_hook; they are not available before login.")
        return self._stats

    @property
    def daily(self) -> DailyManager:
        if self._daily is None:
            raise RuntimeError("The daily challenge starts in setup_hook; it is not available before login.")
        return self._daily

    @property
    def seasons(self) -> SeasonKeeper:
        if self._seasons is None:
            raise RuntimeError("Seasons start in setup_hook; they are not available before login.")
        return self._seasons

    @property
    def achievements(self) -> AchievementKeeper:
        if self._achievements is None:
            raise RuntimeError("Achievements start in setup_hook; they are not available before login.")
        return self._achievements

    @property
    def tournaments(self) -> Tournaments:
        if self._tournaments is None:
            raise RuntimeError("Tournaments start in setup_hook; they are not available before login.")
        return self._tournaments

    async def _table_for(self, guild_id: int) -> TableSettings:
        """A tournament match's table: the server's settings, as `/farkle new` would use."""
        return (await self.config.get(guild_id)).table

    async def login(self, token: str) -> None:
        """Log in with a bounded pool of connections to Discord's API (`HTTP_CONNECTIONS`)."""
        if self.http.connector is discord.utils.MISSING:
            self.http.connector = aiohttp.TCPConnector(limit=HTTP_CONNECTIONS)
        await super().login(token)

    async def setup_hook(self) -> None:
        translators()  # every catalogue read now: a broken one stops the start, not a game
        await self.tree.set_translator(CommandTranslator())
        self._db, applied = await open_database(self.settings.database)
        if applied:
            log.info("Applied migrations %s", applied)
        self._win_tables = WinTableKeeper(
            SqlWinTableStore(self._db), self._win_solver if self.settings.solve_win_tables else None
        )
        for tables in self._loaded_tables:
            self._win_tables.adopt(tables)
        policies = PolicyCache(SqlPolicyStore(self._db))
        self._sessions = SessionManager(
            store=SqlSessionStore(self._db, rate_game),
            clock=self.clock,
            settings=self.settings.game,
            dice=self._dice,
            policies=policies,
            win_tables=self._win_tables,
        )
        self._config = ConfigService(SqlConfigStore(self._db, SETTINGS), self.settings.game, self.clock)
        publish = self._sessions.events.publish  # the session layer's publisher, handed to its services
        self._reviews = GameReviews(SqlReviewStore(self._db), publish, policies, self.win_tables.tables)
        self._sessions.subscribe(self._reviews.on_event)  # before `restore`, which announces missed ends
        self._stats = StatsService(self._db, self.clock, self.settings.game.min_games_win_rate, self._reviews)
        self._daily = DailyManager(SqlDailyStore(self._db), self.clock, publish, policies)
        self._achievements = AchievementKeeper(self._daily.store, self.clock, self._daily.expert, publish)
        self._sessions.subscribe(self._achievements)
        self._tournaments = Tournaments(
            SqlTournamentStore(self._db),
            self.clock,
            self._sessions,
            self._achievements.award_champion,
            self._table_for,
        )
        self._stats.also_forget(self._tournaments.forget)
        self._seasons = SeasonKeeper(self._db, self.clock, self.settings.owns_guild)
        for name in EXTENSIONS:
            await self.load_extension(name)
        self.dice_art = await load_dice_art(self, create=self.owns_application_setup)
        if self.dice_art is KEYCAP_ART and not self.owns_application_setup:
            self._awaiting_art = asyncio.create_task(self._await_dice_art(), name="farkle-dice-art")
        # Tournaments first: restoring the games announces the ends a crash left unannounced, and a
        # match's end must find its tournament loaded.
        await self._tournaments.restore(owns=self.settings.owns_guild)
        restored = await self._sessions.restore(owns=self.settings.owns_guild)
        await self._tournaments.reconcile()  # matches whose game ended but whose result was never counted
        if self.owns_application_setup:  # one process hands out what a crash left unawarded or unreviewed
            await self._daily.restore()
            await self._achievements.restore()
            await self._reviews.restore(since=self.clock.now() - REVIEW_RECOVERY_SECONDS)
        if restored.sessions or restored.unreadable:
            log.info(
                "Restored %d Farkle sessions (%d unreadable)",
                len(restored.sessions),
                len(restored.unreadable),
            )
        await self._seasons.start()  # after the extensions: the seasons cog posts
        if self.owns_application_setup:
            await self.sync_commands_if_changed()
        # The presets' tables ship in the package: every shard process loads them at once.
        self._win_tables.start(Ruleset.preset(name) for name in PRESET_NAMES)
        # Everything loaded so far (discord.py, NumPy, the catalogues, restored games) lives as long as the
        # process: leave it out of every garbage collection, or a full collection in the middle of a burst
        # of presses walks all of it. What start-up left free goes back to the host first.
        release_memory()
        gc.freeze()
        gc.set_threshold(*COLLECT_AFTER)

    async def _await_dice_art(self) -> None:
        """Another shard process uploads the faces at its first start: look for them again now and then."""
        for _ in range(ART_LOOKS):
            await self.clock.sleep_until(self.clock.now() + ART_LOOK_EVERY)
            art = await load_dice_art(self, create=False, warn=False)
            if art is not KEYCAP_ART:
                self.dice_art = art
                log.info("Die-face emojis found; boards draw them from now on")
                return

    async def on_ready(self) -> None:
        """Connected: what parsing the servers and channels left free goes back to the host."""
        release_memory()

    @property
    def owns_application_setup(self) -> bool:
        """Whether this process syncs the command tree and uploads the die emojis: one process does."""
        return self.settings.owns_application_setup

    async def sync_commands_if_changed(self) -> bool:
        """Sync only when the tree differs from the last synced one: Discord rate-limits syncs."""
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        scope = str(guild.id) if guild else "global"
        payload = await self.command_payload(guild)
        tree_hash = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        if await command_sync.last_hash(self.db, scope) == tree_hash:
            log.info("Command tree unchanged; not syncing")
            return False
        await self.tree.sync(guild=guild)
        await command_sync.record_hash(self.db, scope, tree_hash)
        log.info("Synced %d commands to %s", len(payload), scope)
        return True

    async def command_payload(self, guild: discord.abc.Snowflake | None) -> list[dict[str, Any]]:
        """The commands as a sync uploads them: with every language's descriptions and choice names."""
        commands = self.tree.get_commands(guild=guild)
        translator = self.tree.translator
        if translator is None:
            return [command.to_dict(self.tree) for command in commands]
        return [await command.get_translated_payload(self.tree, translator) for command in commands]

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report_error(interaction, error)

    def pressed_message_unread(self, custom_id: Callable[[str], object]) -> None:
        """Presses whose `custom_id(...)` is true are answered by the message's id alone (the board edge's
        game buttons): discord.py is given only the pressed message's head (`MESSAGE_HEAD`) to parse."""
        self._message_unread.append(custom_id)

    def _parse_interaction(self, parse: Callable[[Any], None], data: Any) -> None:
        """discord.py's INTERACTION_CREATE parser. Every press carries its whole message and discord.py
        parses all of it (each component of the card, left as cyclic garbage, and the command that
        posted it, its members and mentions): for a game button, whose answer reads only the message's
        id, that was a tenth of a Roll's CPU."""
        message, pressed = data.get("message"), data.get("data") or {}
        if message is not None and any(f(str(pressed.get("custom_id", ""))) for f in self._message_unread):
            head = {key: message[key] for key in MESSAGE_HEAD if key in message}
            data["message"] = {**head, "components": [], "mentions": [], "mention_roles": []}
        parse(data)

    def answering(self) -> None:
        """The current task answers an interaction: a shutdown lets it finish (its reply and its database
        writes) before closing the connection and the database under it."""
        task = asyncio.current_task()
        if task is not None and task not in self._answering:
            self._answering.add(task)
            self._busiest = max(self._busiest, len(self._answering))
            self._pause_collector()
            self._quiet.clear()
            task.add_done_callback(self._answered)

    def _answered(self, task: asyncio.Task[Any]) -> None:
        self._answering.discard(task)
        if not self._answering:
            self._quiet.set()
            if self._busiest >= BURST_ANSWERS:  # a few ms, with nobody waiting
                release_memory()
            self._busiest = 0
            if self._answers_paused:
                self._answers_paused = 0
                gc.enable()

    def _pause_collector(self) -> None:
        """In a burst, the collector waits for the first quiet moment (which collects every generation):
        it would walk the answers in flight again and again. A burst that never ends resumes it after
        `PAUSE_COLLECTOR_AT_MOST` answers, so the garbage answers leave stays bounded."""
        if self._busiest < BURST_ANSWERS:
            return
        self._answers_paused += 1
        if self._answers_paused == 1:
            gc.disable()
        elif self._answers_paused > PAUSE_COLLECTOR_AT_MOST:
            gc.enable()

    async def quiet(self, at_most: float) -> None:
        """Return once no interaction is being answered, or after `at_most` seconds: a player waits for
        their answer (Discord gives it 3 s), the next player's turn ping can wait out a burst of presses."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._quiet.wait(), at_most)

    def finish_before_closing(self, task: asyncio.Task[Any]) -> None:
        """A shutdown lets `task` (a turn ping on its way) finish, after the stream's subscribers."""
        self._finishing.add(task)
        task.add_done_callback(self._finishing.discard)

    async def close(self) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DRAIN_SECONDS  # one budget for the three waits below

        def left() -> float:
            return max(0.0, deadline - loop.time())

        in_flight = self._answering - {asyncio.current_task()}
        if in_flight:
            await asyncio.wait(in_flight, timeout=left())
        if self._awaiting_art is not None:
            self._awaiting_art.cancel()
        if self._tournaments is not None:
            await self._tournaments.close()
        if self._seasons is not None:
            await self._seasons.close()
        if self._sessions is not None:
            await self._sessions.close(drain=left())
        if self._finishing:
            await asyncio.wait(set(self._finishing), timeout=left())
        if self._reviews is not None:
            await self._reviews.close(left())
        # discord.py's AutoShardedClient that never connected (a refused login, a test) trips in close() on
        # the event queue `connect()` creates: there is nothing left to stop.
        with contextlib.suppress(AttributeError):
            await super().close()
        if self._db is not None:
            await self._db.close()
        self._db = None
