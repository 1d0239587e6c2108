"""The bot: owns the database, the clock and the session manager; wires the cogs in `setup_hook`."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable

import aiosqlite
import discord
from discord import app_commands
from discord.ext import commands

from bot.clock import Clock, SystemClock
from bot.config import ConfigService
from bot.engine import DiceSource
from bot.errors import report_error
from bot.render.components import FarkleButton
from bot.render.stats import LeaderboardPage
from bot.sessions.manager import SessionManager
from bot.sessions.policies import PolicyCache
from bot.settings import Settings
from bot.storage import command_sync, open_database
from bot.storage.config import SqliteConfigStore
from bot.storage.policies import SqlitePolicyStore
from bot.storage.sessions import SqliteSessionStore

log = logging.getLogger(__name__)


# Extensions loaded at start-up (add new cogs here); mixin modules in cogs/ are imported by them.
EXTENSIONS = ("cogs.farkle", "cogs.config")


class FarkleBot(commands.Bot):
    def __init__(
        self, settings: Settings, *, clock: Clock | None = None, dice: Callable[[], DiceSource] | None = None
    ) -> None:
        # The bot never joins voice: discord.py's warnings about missing voice libraries are only noise.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
        )
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        self._dice = dice
        self._db: aiosqlite.Connection | None = None
        self._sessions: SessionManager | None = None
        self._config: ConfigService | None = None
        self.tree.error(self.on_app_command_error)

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("The database is not open yet: ensure_database (or setup_hook) opens it.")
        return self._db

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

    async def ensure_database(self) -> None:
        """Open and migrate the database once: `python -m bot` calls it before logging in, so a bad
        database is reported even offline; otherwise `setup_hook` does (as under SimCord)."""
        if self._db is None:
            self._db, applied = await open_database(self.settings.database_path)
            if applied:
                log.info("Applied migrations %s", applied)

    async def setup_hook(self) -> None:
        await self.ensure_database()
        self._sessions = SessionManager(
            store=SqliteSessionStore(self.db),
            clock=self.clock,
            settings=self.settings.game,
            dice=self._dice,
            policies=PolicyCache(SqlitePolicyStore(self.db)),
        )
        self._config = ConfigService(SqliteConfigStore(self.db), self.settings.game, self.clock)
        self.add_dynamic_items(FarkleButton, LeaderboardPage)
        for name in EXTENSIONS:
            await self.load_extension(name)
        restored = await self._sessions.restore()
        if restored:
            log.info("Restored %d Farkle sessions", len(restored))
        await self.sync_commands_if_changed()

    async def sync_commands_if_changed(self) -> bool:
        """Sync only when the tree differs from the last synced one: Discord rate-limits syncs."""
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        scope = str(guild.id) if guild else "global"
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]
        tree_hash = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        if await command_sync.last_hash(self.db, scope) == tree_hash:
            log.info("Command tree unchanged; not syncing")
            return False
        await self.tree.sync(guild=guild)
        await command_sync.record_hash(self.db, scope, tree_hash)
        log.info("Synced %d commands to %s", len(payload), scope)
        return True

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report_error(interaction, error)

    async def close(self) -> None:
        if self._sessions is not None:
            await self._sessions.close()
        await super().close()
        if self._db is not None:
            await self._db.close()
            self._db = None
