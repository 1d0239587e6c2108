"""The one place that wires the bot: every service built from the settings, the database and the clock,
and every stream subscriber and callback registered, services first, then what the cogs offer.

`build_services` returns a frozen `Services` with no optional field: a cog holds the bot, and the bot
holds its services from `setup_hook` on. A cog says what it listens to as `Hooks` (`hooks()`), and
`connect` registers it; no cog subscribes itself.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from bot.core.clock import Clock
from bot.core.environment import Settings
from bot.core.server_settings import SETTINGS
from bot.engine import DiceSource
from bot.engine.win.tables import WinTables
from bot.services.ratings import rate_game
from bot.services.seasons import SeasonEnded, SeasonKeeper
from bot.services.server_settings import ConfigService
from bot.services.stats import StatsService
from bot.sessions.achievements import AchievementKeeper
from bot.sessions.daily.door import DailyManager
from bot.sessions.manager import SessionManager
from bot.sessions.policies import PolicyCache
from bot.sessions.review import GameReviews
from bot.sessions.session import TableSettings
from bot.sessions.stream_events import Subscriber
from bot.sessions.tournament.book import Notice
from bot.sessions.tournament.door import Tournaments
from bot.sessions.win_tables import Solve, WinTableKeeper
from bot.storage import Database, open_database
from bot.storage.daily import SqlDailyStore
from bot.storage.policies import SqlPolicyStore
from bot.storage.reviews import SqlReviewStore
from bot.storage.server_settings import SqlConfigStore
from bot.storage.sessions import SqlSessionStore
from bot.storage.tournaments import SqlTournamentStore
from bot.storage.win_tables import SqlWinTableStore

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Services:
    """Everything the cogs ask, built once per start."""

    database: Database
    sessions: SessionManager
    config: ConfigService
    stats: StatsService
    daily: DailyManager
    achievements: AchievementKeeper
    reviews: GameReviews
    tournaments: Tournaments
    seasons: SeasonKeeper
    win_tables: WinTableKeeper


async def build_services(
    settings: Settings,
    clock: Clock,
    *,
    dice: Callable[[], DiceSource] | None,
    win_solver: Solve,
    loaded_tables: Iterable[WinTables] = (),
) -> Services:
    """Open the database (migrating it) and build every service on it, each subscribed where it listens;
    `loaded_tables`: win tables a tool loaded before the start, used from the first press on."""
    database, applied = await open_database(settings.database)
    if applied:
        log.info("Applied migrations %s", applied)
    win_tables = WinTableKeeper(SqlWinTableStore(database), win_solver if settings.solve_win_tables else None)
    for tables in loaded_tables:
        win_tables.adopt(tables)
    policies = PolicyCache(SqlPolicyStore(database))  # the solved turns every computer, Hint and review read
    sessions = SessionManager(
        store=SqlSessionStore(database, rate_game),
        clock=clock,
        settings=settings.game,
        dice=dice,
        policies=policies,
        win_tables=win_tables,
        skills=lambda guild_id, user_id: stats.member_skill(guild_id, user_id),  # "your level"; made below
        offload=asyncio.to_thread,  # the live chances of three or more players
    )
    config = ConfigService(SqlConfigStore(database, SETTINGS), settings.game, clock)
    publish = sessions.events.publish  # the session layer's publisher, handed to its services
    reviews = GameReviews(SqlReviewStore(database), publish, policies, win_tables.tables)
    stats = StatsService(database, clock, settings.game.min_games_win_rate, reviews)
    daily = DailyManager(SqlDailyStore(database), clock, publish, policies)
    achievements = AchievementKeeper(daily.store, clock, daily.expert, publish)

    async def table_for(guild_id: int) -> TableSettings:
        """A tournament match's table: the server's settings, as `/farkle new` would use."""
        return (await config.get(guild_id)).table

    tournaments = Tournaments(
        SqlTournamentStore(database), clock, sessions, achievements.award_champion, table_for
    )
    # The order subscribers hear an event in: reviews before `restore`, which announces missed ends.
    for subscriber in (reviews.on_event, achievements, tournaments.on_game_event):
        sessions.subscribe(subscriber)
    stats.also_forget(tournaments.forget)
    seasons = SeasonKeeper(database, clock, settings.owns_guild)
    return Services(
        database, sessions, config, stats, daily, achievements, reviews, tournaments, seasons, win_tables
    )


@dataclass(frozen=True, slots=True)
class Hooks:
    """What a cog listens to: game events (in this order), season ends, the tournament desk's notices,
    and the presses it answers by the pressed message's id alone (`discord_private.read_pressed_heads`)."""

    stream: tuple[Subscriber, ...] = ()
    answered_by_id: Callable[[str], object] | None = None
    season_posts: Callable[[SeasonEnded], Awaitable[int | None]] | None = None
    tournament_notices: Callable[[Notice], Awaitable[None]] | None = None


@runtime_checkable
class Hooked(Protocol):
    def hooks(self) -> Hooks: ...


def connect(
    services: Services, cogs: Iterable[object], *, answered_by_id: list[Callable[[str], object]]
) -> None:
    """Register what each cog listens to, in the order the cogs were loaded (the board edge first: a ping
    follows its board, other features draw after it)."""
    for cog in cogs:
        if not isinstance(cog, Hooked):
            continue
        hooks = cog.hooks()
        for subscriber in hooks.stream:
            services.sessions.subscribe(subscriber)
        if hooks.season_posts is not None:
            services.seasons.post_with(hooks.season_posts)
        if hooks.tournament_notices is not None:
            services.tournaments.listen(hooks.tournament_notices)
        if hooks.answered_by_id is not None:
            answered_by_id.append(hooks.answered_by_id)


def subscribe_view(services: Services, subscriber: Subscriber) -> None:
    """A view that is no cog (the Activity's live tables) hears every game event, after the cogs' views."""
    services.sessions.subscribe(subscriber)
