"""Discord load benchmark: many concurrent 2-player games in one bot process, driven through SimCord.

Issue 4 asks for p99 < 50 ms per button press and < 50 KB per game with 500 games at once. This starts the
real `FarkleBot` on a temporary SQLite database inside SimCord, opens one lobby per channel, starts every
game, then presses buttons round-robin (one press per game per round) with a simple legal policy until every
game is over or the press budget runs out.

What is timed, per button press, in real time (`time.perf_counter`; SimCord virtualises `time.monotonic`):
from the moment the bot dispatches the `interaction` event (the gateway payload is parsed) to the moment its
`interaction.response.edit_message`/`send_message` call returns. Work the bot does after answering (the turn
ping, deleting the old ping) is not in that number but is in presses/s. SimCord runs Discord in the same
process and event loop and settles after every press, so presses are handled one at a time: this measures
the cost of a press with N live games, not queueing under simultaneous presses.

Memory per game: resident memory (VmRSS) once every game is in progress minus before the lobbies opened,
divided by the number of games. It includes SimCord's copy of the messages (the simulated Discord server),
so it is an upper bound for the bot. The session manager's own share is measured with tracemalloc as the
bytes retained by a fresh copy of every session (`Session.load(session.dump())`).

Each size runs in its own process, so memory freed by one run cannot hide the next run's growth.

Run: .venv/bin/python bench/discord_load.py [--games 500] [--seed 1] [--compare 50] [--budget 2000]
     .venv/bin/python bench/discord_load.py --games 50 --profile   (cProfile of the play phase)
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import pstats
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import simcord

from bot.client import FarkleBot
from bot.engine import SeededDice, scoring_options
from bot.render.components import ButtonRef
from bot.sessions.session import Session, Snapshot
from bot.settings import GameSettings, Settings

CHANNELS_PER_GUILD = 50
BANK_AT = 350  # bank once the turn is worth this much and the bank button allows it
SETTLE_TIMEOUT = 120.0  # seconds; SimCord's default (5 s) is too short for setting up hundreds of games


# ---------------------------------------------------------------------- timing


class PressTimer:
    """Real-time handling time of every button press, keyed by interaction id."""

    def __init__(self) -> None:
        self.started: dict[int, tuple[float, str]] = {}
        self.samples: list[tuple[str, float]] = []  # (action, seconds)
        self.enabled = True

    def received(self, interaction: discord.Interaction) -> None:
        if self.enabled and interaction.type is discord.InteractionType.component:
            custom_id = (interaction.data or {}).get("custom_id", "")
            action = custom_id.split(":")[3] if custom_id.count(":") >= 3 else "?"
            self.started[interaction.id] = (time.perf_counter(), action)

    def answered(self, interaction: discord.Interaction) -> None:
        begun = self.started.pop(interaction.id, None)
        if begun is not None:
            self.samples.append((begun[1], time.perf_counter() - begun[0]))

    def install(self) -> None:
        """Wrap the two ways the cog answers a press; the bench process never restores them."""
        timer = self
        for name in ("edit_message", "send_message"):
            original = getattr(discord.InteractionResponse, name)

            async def timed(
                self: discord.InteractionResponse, *args: Any, _original: Any = original, **kw: Any
            ):
                result = await _original(self, *args, **kw)
                timer.answered(self._parent)
                return result

            setattr(discord.InteractionResponse, name, timed)


class TimedBot(FarkleBot):
    """The real bot; only `dispatch` is observed, to stamp when an interaction reaches it."""

    timer: PressTimer

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        if event_name == "interaction":
            self.timer.received(args[0])
        super().dispatch(event_name, *args, **kwargs)


# ---------------------------------------------------------------------- the games


@dataclass
class Table:
    """One channel with its two players and the board message they press on."""

    channel: simcord.ChannelHandle
    players: dict[int, simcord.MemberActor]
    board: Any = None  # the lobby message, edited into the board when the game starts
    presses: int = 0
    refusals: int = 0
    done: bool = False
    notes: list[str] = field(default_factory=list)


async def open_tables(env: simcord.Env, games: int) -> list[Table]:
    """Build the world first (guilds, channels, two members each) so its memory is not counted per game."""
    tables = []
    for index in range(games):
        if index % CHANNELS_PER_GUILD == 0:
            guild = env.create_guild(f"guild-{index // CHANNELS_PER_GUILD}")
        channel = guild.create_text_channel(f"farkle-{index}")
        host = guild.add_member(env.create_user(f"host{index}"))
        guest = guild.add_member(env.create_user(f"guest{index}"))
        tables.append(Table(channel, {host.id: host, guest.id: guest}))
    return tables


async def start_games(bot: FarkleBot, tables: list[Table]) -> None:
    """`/farkle new`, Join, Start in every channel: every game is then in progress."""
    for index, table in enumerate(tables):
        if index and index % 100 == 0:
            print(f"  {index} games started", file=sys.stderr, flush=True)
        host, guest = table.players.values()
        result = await host.slash(table.channel, "farkle new")
        table.board = result.response
        await press_button(bot, guest, table, "join")
        await press_button(bot, host, table, "start")


async def press_button(bot: FarkleBot, member: simcord.MemberActor, table: Table, action: str) -> None:
    """Press a button of the board as drawn now: the custom id carries the game id and the roll."""
    snapshot = bot.sessions.snapshot(table.channel.id)
    assert snapshot is not None, f"no session in channel {table.channel.id}"
    ref_action, _, arg = action.partition(":")
    ref = ButtonRef(snapshot.game_id, snapshot.seq, ref_action, arg or None)
    result = await member.click(table.board, custom_id=ref.custom_id)
    table.presses += 1
    if result.ephemeral:
        table.refusals += 1
        if len(table.notes) < 3:
            table.notes.append(f"{action}: {result.response.content if result.response else '?'}")


def choose(snapshot: Snapshot) -> str:
    """A simple legal policy: roll, select the best-scoring dice one by one, then bank at BANK_AT or roll."""
    turn, preview = snapshot.turn, snapshot.preview
    assert turn is not None and preview is not None
    if not turn.roll:  # start of a turn, or hot dice
        return "bank" if preview.can_bank and turn.total >= BANK_AT else "roll"
    best = max(
        scoring_options(turn.roll, snapshot.rules), key=lambda option: (option.points, len(option.dice))
    )
    wanted, free = [], list(range(len(turn.roll)))
    for face in best.dice:
        position = next(p for p in free if turn.roll[p] == face)
        free.remove(position)
        wanted.append(position)
    missing = [p for p in wanted if p not in snapshot.selection]
    if missing:
        return f"pick:{missing[0]}"
    if preview.can_bank and (preview.turn_total >= BANK_AT or not preview.can_roll):
        return "bank"
    return "roll"


async def play(bot: FarkleBot, tables: list[Table], budget: int) -> int:
    """Round-robin: one press per unfinished game per round, until all are over or `budget` presses."""
    pressed = 0
    live = list(tables)
    while live and pressed < budget:
        for table in live:
            snapshot = bot.sessions.snapshot(table.channel.id)
            if snapshot is None or snapshot.stage != "playing":
                table.done = True
                continue
            assert snapshot.current is not None
            await press_button(bot, table.players[snapshot.current], table, choose(snapshot))
            pressed += 1
            if pressed % 1000 == 0:
                print(f"  {pressed} presses, {len(live)} games live", file=sys.stderr, flush=True)
        live = [table for table in live if not table.done]
    return pressed


# ---------------------------------------------------------------------- memory


def rss_bytes() -> int:
    gc.collect()
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def session_bytes(bot: FarkleBot) -> tuple[int, int]:
    """Bytes tracemalloc sees retained by a fresh copy of every session, and the mean saved JSON size.

    A copy is made because tracemalloc only sees allocations made while it runs; `Session.load` builds
    the same objects the live session holds (plus its own Ruleset: see the report).
    """
    sessions = list(bot.sessions._sessions.values())
    dumps = [session.dump() for session in sessions]
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    copies = [Session.load(text) for text in dumps]
    gc.collect()
    retained = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    del copies
    return retained, sum(map(len, dumps)) // max(len(dumps), 1)


# ---------------------------------------------------------------------- one run


def percentile(sorted_values: list[float], fraction: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


async def measure(games: int, seed: int, budget_per_game: int, profile: bool) -> dict[str, Any]:
    """One full run in this process; returns the numbers for the table."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            _env_file=None,
            discord_token=None,
            database_path=Path(tmp) / "farkle.sqlite3",
            # Timers at their longest, so a long real-time run never sees a turn expire.
            game=GameSettings(_env_file=None, computer_pause=0, turn_timeout=3600, lobby_timeout=86400),
        )
        timer = PressTimer()
        timer.install()
        bot = TimedBot(settings, dice=lambda: SeededDice(rng.getrandbits(63)))
        bot.timer = timer
        async with simcord.run(bot, settle_timeout=SETTLE_TIMEOUT) as env:
            tables = await open_tables(env, games)
            rss_before = rss_bytes()
            started = time.perf_counter()
            await start_games(bot, tables)
            setup_seconds = time.perf_counter() - started
            rss_after = rss_bytes()
            traced, dump_len_start = session_bytes(bot)
            timer.samples.clear()  # lobby presses are timed separately from play

            profiler = cProfile.Profile() if profile else None
            started = time.perf_counter()
            if profiler:
                profiler.enable()
            pressed = await play(bot, tables, budget_per_game * games)
            if profiler:
                profiler.disable()
            play_seconds = time.perf_counter() - started
            _, dump_len_end = session_bytes(bot)
            unanswered = len(timer.started)
            errors = len(env.errors)
            await bot.close()  # SimCord does not close the bot; the open aiosqlite thread would keep us alive
    if profiler:
        stats = pstats.Stats(profiler, stream=sys.stderr)
        stats.sort_stats("cumulative").print_stats(40)
        stats.sort_stats("tottime").print_stats(30)
    latencies = sorted(seconds * 1000 for _, seconds in timer.samples)
    return {
        "games": games,
        "finished": sum(1 for t in tables if t.done),
        "presses": pressed,
        "refusals": sum(t.refusals for t in tables),
        "refusal_examples": [note for t in tables for note in t.notes][:3],
        "unanswered": unanswered,
        "bot_errors": errors,
        "timed": len(latencies),
        "p50_ms": percentile(latencies, 0.50),
        "p99_ms": percentile(latencies, 0.99),
        "max_ms": latencies[-1] if latencies else float("nan"),
        "mean_ms": sum(latencies) / len(latencies) if latencies else float("nan"),
        "presses_per_s": pressed / play_seconds,
        "setup_s": setup_seconds,
        "play_s": play_seconds,
        "rss_kb_per_game": (rss_after - rss_before) / games / 1024,
        "sessions_kb_per_game": traced / games / 1024,
        "save_json_bytes_start": dump_len_start,
        "save_json_bytes_end": dump_len_end,
    }


# ---------------------------------------------------------------------- report


ROWS = [
    ("games finished", "finished", "{:.0f}"),
    ("button presses (play)", "presses", "{:.0f}"),
    ("refused presses", "refusals", "{:.0f}"),
    ("p50 handling (ms)", "p50_ms", "{:.2f}"),
    ("p99 handling (ms)", "p99_ms", "{:.2f}"),
    ("max handling (ms)", "max_ms", "{:.2f}"),
    ("mean handling (ms)", "mean_ms", "{:.2f}"),
    ("presses/s (incl. SimCord)", "presses_per_s", "{:.0f}"),
    ("setup: new+join+start (s)", "setup_s", "{:.1f}"),
    ("RSS per game (KB)", "rss_kb_per_game", "{:.1f}"),
    ("sessions, tracemalloc (KB/game)", "sessions_kb_per_game", "{:.1f}"),
    ("saved JSON at start (bytes)", "save_json_bytes_start", "{:.0f}"),
    ("saved JSON at end (bytes)", "save_json_bytes_end", "{:.0f}"),
]


def print_table(runs: list[dict[str, Any]]) -> None:
    header = f"{'':34}" + "".join(f"{str(run['games']) + ' games':>14}" for run in runs)
    print(header)
    for label, key, fmt in ROWS:
        print(f"{label:34}" + "".join(f"{fmt.format(run[key]):>14}" for run in runs))
    for run in runs:
        if run["unanswered"] or run["bot_errors"] or run["refusal_examples"]:
            print(
                f"{run['games']} games: {run['unanswered']} unanswered, {run['bot_errors']} bot errors;"
                f" refusals e.g. {run['refusal_examples']}"
            )


def run_in_child(games: int, args: argparse.Namespace) -> dict[str, Any]:
    """A fresh process per size: RSS never shrinks, so a second run in one process would read low."""
    command = [sys.executable, __file__, "--single", "--games", str(games), "--seed", str(args.seed)]
    command += ["--budget", str(args.budget)]
    done = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compare", type=int, default=50, help="a second, smaller run (0: none)")
    parser.add_argument("--budget", type=int, default=2000, help="presses per game before stopping")
    parser.add_argument("--profile", action="store_true", help="cProfile the play phase (one run, stderr)")
    parser.add_argument("--single", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.single or args.profile:
        result = asyncio.run(measure(args.games, args.seed, args.budget, args.profile))
        if args.single:
            print(json.dumps(result))
        else:
            print_table([result])
        return
    sizes = [args.games] + ([args.compare] if args.compare else [])
    print_table([run_in_child(games, args) for games in sizes])


if __name__ == "__main__":
    main()
