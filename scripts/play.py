"""`make play`: the real bot in a local Discord-like page, without a Discord application or token.

The real `FarkleBot` runs on a throw-away SQLite file inside a SimCord world (one server, one channel,
you as Alex, with Manage Server, and a friend, Sam), and SimCord's Preview serves that channel on
127.0.0.1. SimCord's clock is virtual; a driver moves it with the wall clock, so turn timers, reminders
and computer pauses take the time they take on Discord, and it republishes the page when the bot changed
the channel on its own. The page's address carries the Preview's secret: it is for one local user, never
to be exposed.

Beside it, the bot's Activity server serves the same channel's table (docs/ACTIVITY.md) on another local
port: the page runs on the Embedded App SDK's mock (`?user=alex`, `?user=sam`), and a stand-in for
Discord's sign-in (`bench/loopback/activity_discord.py`) lets both members in.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import random
import shutil
import signal
import socket
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

# The stand-in for Discord's sign-in is the loopback Discord's (bench/loopback/activity_discord.py).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import discord
import simcord
from aiohttp import web
from loopback.activity_discord import API, ActivityDiscord, Member
from preview_bridge import (
    avatar_url,
    emoji_url,
    gate_page_actions,
    introduce_bot,
    speak_client_locale,
    timers_follow_the_driver,
)
from pydantic import SecretStr
from simcord.preview import Preview

from bot.activity.server import open_activity
from bot.app.client import FarkleBot
from bot.app.emojis import face_image
from bot.app.logs import setup_logging
from bot.app.wiring import subscribe_view
from bot.core.environment import GameSettings, Settings
from bot.engine import PRESET_NAMES, Ruleset, SeededDice
from bot.engine.win.tables import WinTables
from bot.render.dice import FACES, emoji_name
from bot.sessions.win_tables import shipped_tables

# The bot's languages and the Discord locale a client of each sends.
LOCALES = {"en": "en-US", "de": "de", "fr": "fr", "es": "es-ES", "pt-BR": "pt-BR"}
TICK = 0.2  # seconds between two looks at the wall clock
MOST_PER_TICK = 0.5  # seconds of bot time one tick may move, so moves a busy loop held back come one by one
COMPUTER_PAUSE = 1.0
# How long a step the bot took on its own stays published before the clock moves on: the page reads the
# state every 0.5 s, so a step up for 1 s is on screen at least 0.5 s.
HOLD = 1.0
# The page writes a countdown ("in 2 minutes", "in 40 seconds") against the time of the last publication,
# so the page is republished at least this often, changed or not: countdowns tick in real time.
COUNTDOWN_TICK = 1.0
# How long SimCord waits for the bot to go idle after a page action or a clock step before it calls the
# bot stuck: the bot is usually idle within milliseconds, but a loaded machine must slow the table, not
# break it. Its timers (a computer's pause, the turn clock) are not waited for: they fire when the driver
# moves the clock (`timers_follow_the_driver`), so a press returns once the bot answered it.
SETTLE_PATIENCE = 30.0
# The members' names, as the board and the page's "Viewing as" switch show them: you, with Manage Server,
# and a friend.
YOUR_NAME, FRIENDS_NAME = "Alex", "Sam"
# The bot as the page shows it: its name on Discord, the six-face die (bot/assets) as its avatar.
BOT_NAME, AVATAR = "Farkle", "farkle-die"
# The instance the SDK's mock names (`DiscordSDKMock.instanceId`): the stand-in puts it in the channel.
MOCK_INSTANCE = "123456789012345678"
ACTIVITY_SECRET = "make-play"  # the stand-in's client secret: nothing leaves 127.0.0.1


@dataclass
class Table:
    """The world the page shows, and the handles a script or test drives it with."""

    bot: FarkleBot
    env: simcord.Env
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    you: simcord.MemberActor
    friend: simcord.MemberActor
    preview: Preview
    gate: asyncio.Lock = field(default_factory=asyncio.Lock)
    published: str = ""  # a digest of the channel as the page last showed it (`channel_state`)
    published_at: float = 0.0  # when, in the event loop's time
    changed_at: float = 0.0  # when the page last got a channel that had changed
    activity_port: int = 0
    sign_in: ActivityDiscord | None = None  # Discord's sign-in for the Activity's members, on 127.0.0.1

    @property
    def url(self) -> str:
        return self.preview.url

    def activity_url(self, user: str) -> str:
        """The Activity's page as `user` ("alex", "sam") sees it, on the SDK's mock."""
        return f"http://127.0.0.1:{self.activity_port}/?user={user}"

    def mark_published(self) -> None:
        """The page shows the channel as it is now (a page action or the driver published it)."""
        now, self.published_at = channel_state(self), asyncio.get_running_loop().time()
        if now != self.published:
            self.published, self.changed_at = now, self.published_at


def seeded_games(seed: int | None) -> Callable[[], SeededDice] | None:
    """Each new game's dice: a different stream per game, the same streams for the same seed."""
    if seed is None:
        return None
    streams = random.Random(seed)
    return lambda: SeededDice(streams.randrange(2**32))


def settings_for(database: Path, pause: float) -> Settings:
    return Settings(
        _env_file=None,
        discord_token=None,
        database_path=database,
        shard_count=1,
        # The presets' win tables ship with the bot; solving a server's own takes minutes of CPU: not here.
        solve_win_tables=False,
        log_level="WARNING",
        game=GameSettings(_env_file=None, computer_pause=pause),
    )


def shipped_win_tables() -> list[WinTables]:
    """The presets' shipped win tables, loaded before the bot starts: the bot loads them at start-up off
    the event loop, which on a busy machine outlasts the 5 s SimCord gives a start-up to settle."""
    loaded = (shipped_tables(Ruleset.preset(name)) for name in PRESET_NAMES)
    return [tables for tables in loaded if tables is not None]  # else the bot says they are stale


async def die_faces(bot: FarkleBot) -> dict[str, tuple[str, bytes]]:
    """The uploaded die-face emojis' images, for the page: SimCord's Preview is offline."""
    images = {emoji_name(face): face_image(face) for face in FACES}
    return {
        emoji_url(emoji.id): (f"{emoji.name}.png", images[emoji.name])
        for emoji in await bot.fetch_application_emojis()
        if emoji.name in images
    }


def channel_state(table: Table) -> str:
    """A digest of what the channel shows: it moves when the bot posts, edits or deletes a message."""
    digest = hashlib.sha256()
    for message in table.channel.history():
        edited = message.edited_at.isoformat() if message.edited_at else ""
        digest.update(f"{message.id}|{edited}|{message.content}|".encode())
        for embed in message.embeds:
            digest.update(repr(embed.to_dict()).encode())
        for component in message.components:
            digest.update(repr(component.to_dict()).encode())
    return digest.hexdigest()


async def follow_the_clock(table: Table) -> None:
    """Move SimCord's clock with the wall clock and publish what the bot did on its own.

    Between page actions (never during one: they share `table.gate`), bot time catches up with the
    wall clock by at most MOST_PER_TICK per tick, so a computer's steps are published one by one; and
    not before a published step has been up for HOLD: a clock that fell behind (a busy machine) would
    otherwise flash the steps it catches up on. The page is republished every COUNTDOWN_TICK at least.
    """
    loop = asyncio.get_running_loop()
    wall, bot_time = loop.time(), table.env.now()
    table.mark_published()
    while True:
        await asyncio.sleep(TICK)
        if loop.time() - table.changed_at < HOLD:
            continue
        async with table.gate:
            behind = loop.time() - wall - (table.env.now() - bot_time).total_seconds()
            with contextlib.suppress(TimeoutError):  # the bot is still busy: the next tick goes on
                if behind > 0:
                    await table.env.advance_time(min(behind, MOST_PER_TICK))
                stale = loop.time() - table.published_at >= COUNTDOWN_TICK
                if stale or channel_state(table) != table.published:
                    await table.preview.refresh()
                    table.mark_published()


@contextlib.asynccontextmanager
async def play_world(
    database: Path,
    *,
    port: int = 0,
    language: str = "en",
    seed: int | None = None,
    pause: float = COMPUTER_PAUSE,
    activity_port: int = 0,
) -> AsyncIterator[Table]:
    """The bot in a SimCord world with the Preview open and the clock followed, and its Activity on
    `activity_port` (any free one: 0), closed on exit."""
    locale = LOCALES[language]
    activity_port = activity_port or free_port()
    tables = await asyncio.to_thread(shipped_win_tables)
    bot = FarkleBot(settings_for(database, pause), dice=seeded_games(seed), win_tables=tables)
    env = simcord.Env(bot, settle_timeout=SETTLE_PATIENCE, check_errors=False)
    introduce_bot(env, BOT_NAME, AVATAR, starting=datetime.now(UTC))
    timers_follow_the_driver(env)
    await env.start()
    try:
        guild = env.create_guild("Farkle", preferred_locale=locale)
        channel = guild.create_text_channel("farkle")
        admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
        you = guild.add_member(env.create_user(YOUR_NAME.lower(), global_name=YOUR_NAME), roles=[admins])
        friend = guild.add_member(env.create_user(FRIENDS_NAME.lower(), global_name=FRIENDS_NAME))
        members = [Member(m.id, name, locale) for m, name in ((you, YOUR_NAME), (friend, FRIENDS_NAME))]
        with speak_client_locale(locale):
            async with (
                sign_in_locally(bot, channel.id, guild.id, members, activity_port) as sign_in,
                env.preview(
                    channel,
                    viewers=[you, friend],
                    layout="channel",
                    locale=locale,
                    assets={**await die_faces(bot), avatar_url(env, AVATAR): ("avatar.png", face_image(6))},
                    port=port,
                ) as preview,
            ):
                table = Table(
                    bot,
                    env,
                    guild,
                    channel,
                    you,
                    friend,
                    preview,
                    activity_port=activity_port,
                    sign_in=sign_in,
                )
                gate_page_actions(preview, table.gate, after=table.mark_published)
                driver = asyncio.create_task(follow_the_clock(table), name="play-clock")
                try:
                    yield table
                finally:
                    driver.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await driver
    finally:
        await env.shutdown()
        await bot.close()


@contextlib.asynccontextmanager
async def sign_in_locally(
    bot: FarkleBot, channel_id: int, guild_id: int, members: list[Member], port: int
) -> AsyncIterator[ActivityDiscord]:
    """The bot's Activity on `port`, and a stand-in for Discord's sign-in on another, where the Activity
    asks (`Route.BASE`): the mock's members (`mock:alex`, `mock:sam`) in the mock's instance, which is in
    the channel.

    The Activity's server is started here, as the client starts it with ACTIVITY_PORT set, not by the bot:
    SimCord counts what the bot starts as its work, and a page's open socket would never let it settle.
    Without ACTIVITY_PORT the chat board has no "Play at the table" (the Preview can't launch one).
    """
    assert bot.application_id is not None
    discord_api = ActivityDiscord(bot.application_id, ACTIVITY_SECRET, bot.http.token or "")
    discord_api.mock_members = {member.name.lower(): member for member in members}
    discord_api.join(MOCK_INSTANCE, channel_id, guild_id, *members)
    runner = web.AppRunner(discord_api.app(), access_log=None)
    await runner.setup()
    stand_in = free_port()
    await web.TCPSite(runner, "127.0.0.1", stand_in).start()
    base, discord.http.Route.BASE = discord.http.Route.BASE, f"http://127.0.0.1:{stand_in}{API}"
    settings = bot.settings.model_copy(
        update={
            "activity_port": port,
            "activity_host": "127.0.0.1",
            "discord_client_secret": SecretStr(ACTIVITY_SECRET),
        }
    )
    activity = await open_activity(
        settings, bot.application_id, bot.http.token or "", bot.services.sessions, bot.services.config
    )
    subscribe_view(bot.services, activity.live.on_game_event)
    try:
        yield discord_api
    finally:
        await activity.close()
        discord.http.Route.BASE = base
        await runner.cleanup()


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def port_is_free(port: int) -> bool:
    if port == 0:
        return True
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


async def serve(database: Path, port: int, language: str, seed: int | None) -> None:
    async with play_world(database, port=port, language=language, seed=seed) as table:
        print(
            f"Farkle is ready at {table.url}  (you are {YOUR_NAME}, with Manage Server; "
            f'"Viewing as" plays as {FRIENDS_NAME}. One local user only; Ctrl-C stops it)\n'
            f"The table as a Discord Activity: {table.activity_url('alex')}  and, as {FRIENDS_NAME}, "
            f"{table.activity_url('sam')}",
            flush=True,
        )
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        closed = asyncio.create_task(table.preview.wait_closed())
        stopped = asyncio.create_task(stop.wait())
        await asyncio.wait((closed, stopped), return_when=asyncio.FIRST_COMPLETED)
        for task in (closed, stopped):
            task.cancel()


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="make play", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--port", type=int, default=0, help="the page's port on 127.0.0.1 (default: any free)"
    )
    parser.add_argument(
        "--lang", choices=sorted(LOCALES), default="en", help="the members' and server's language"
    )
    parser.add_argument("--keep", type=Path, help="keep the database in this file (default: thrown away)")
    parser.add_argument("--seed", type=int, help="the same dice for the same seed")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    if not 0 <= args.port <= 65535:
        print(f"make play: --port {args.port} is not a port (0-65535)", file=sys.stderr)
        return 2
    if not port_is_free(args.port):
        print(
            f"make play: port {args.port} is busy on 127.0.0.1; choose another with --port", file=sys.stderr
        )
        return 2
    setup_logging("WARNING", secret="")
    scratch = Path(tempfile.mkdtemp(prefix="farkle-play-"))
    database = args.keep or scratch / "farkle.sqlite3"
    try:
        asyncio.run(serve(database, args.port, args.lang, args.seed))
    except KeyboardInterrupt:
        pass
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
