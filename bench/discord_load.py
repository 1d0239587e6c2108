"""Load bench (issues 12, 40): the Farkle bot against two trivial discord.py bots, same machine, same run.

Each bot runs unmodified in its own process against a Discord-faithful loopback server (`bench/loopback/`:
real HTTP and gateway websocket on 127.0.0.1); the server and the members pressing buttons run here.
Every game is set up as members would (`/farkle new` by ana, Join by ben, Start by ana; the trivial bots'
boards are seeded), and every press is a legal one read from the message as the server stores it.
The baselines (`loopback/trivial_bot.py`): `trivial` redraws a board of the same size on every press,
`message` answers every press with a small new message.

Latency is what a player waits for: from the server writing the INTERACTION_CREATE frame to the socket
to the bot's interaction callback arriving. Shapes:
  one at a time  one press in each of N games, each answered before the next (no queueing)
  burst          one press in each of N games at the same instant (N from --games), for some rounds;
                 mostly die taps, the cheap press
  roll           the presses that start and end turns: each game's current player presses Roll at the
                 same instant ("roll burst"), then, once the best dice are set aside (unmeasured), Bank
                 ("bank burst"), for some rounds; a roll that scores nothing passes the turn at once
  paced          --rate presses/s round-robin over --paced-games live games for --paced-seconds
  first-start    the burst on a fresh database right after the bot connects, SOLVE_WIN_TABLES at its
                 default (on); reports the bot's CPU over its first minute, worker processes included
"failed" counts presses Discord would fail (an id no longer on the message, or no answer within 3 s);
"refused" presses the bot answered privately with a refusal. Memory is the bot process's VmRSS per game
over its RSS with no game: after N games started, after one press in each one at a time, after the first
burst round (this one also holds the peak of N presses in flight, which the allocator keeps), and for
the Farkle bot after a SIGKILL and a restart on the same database (restored and caught up), then after
one more press in each, one at a time.

CPU per press is the bot process's CPU time from /proc over the shape (every thread) over its answered
presses; each Farkle row is printed against both baselines, side by side.

Run: .venv/bin/python bench/discord_load.py [--games 300,500] [--shapes burst,roll,paced,first-start]
     .venv/bin/python bench/discord_load.py --profile --bot farkle --games 500 [--shapes roll|bank|one]
       (where its time goes)
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import math
import signal
import tempfile
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from loopback.bots import FARKLE_ENV, BotProcess
from loopback.payloads import BENCH_TOKEN, Snowflakes, World
from loopback.players import BANK, ROLL, Board, FarklePlayers, Move, Players, TrivialPlayers
from loopback.profiling import BUCKETS, IDLE, WORKER_THREADS, Profile, describe, from_cprofile, from_stacks
from loopback.server import CHANNEL_MESSAGE, Interaction, LoopbackDiscord, Outcome
from percentile import percentile
from verdict import MEMORY_GAMES, SHAPES, Against, memory_verdict, shape_verdict

BOTS = {"trivial": "loopback.trivial_bot", "message": "loopback.trivial_bot", "farkle": "loopback.run_farkle"}
BOT_ENV = {"farkle": FARKLE_ENV, "message": {"TRIVIAL_ANSWER": "message"}}
BASELINES = ("trivial", "message")
READY_DELAY = 2.5  # discord.py is ready 2 s after the last GUILD_CREATE
CONNECT_WITHIN = 300.0  # seconds for a bot to log in (a restarted Farkle bot restores every game first)
MIN_BURST_PRESSES = 1000  # rounds enough for a p99 worth reading, and at least three


# ---------------------------------------------------------------------- one bot against its own Discord


@dataclass
class Session:
    kind: str
    server: LoopbackDiscord
    process: BotProcess
    players: Players
    boards: list[Board]

    async def settled(self) -> None:
        """Every press answered, the bot's requests after them made and its CPU idle: the server alone
        can't tell a bot that still works without a request (it took 0.3 s of CPU after a Bank burst
        for solves before its pings, counted in the next Roll burst)."""
        await self.server.settled()
        await self.process.idle()
        await self.server.settled()

    def press(self, board: Board) -> Interaction | None:
        """The next press of a game played on (mostly die taps)."""
        return self._send(board, self.players.next_move(board))

    def press_named(self, action: str) -> Callable[[Board], Interaction | None]:
        """A press of `action` (ROLL, BANK) on a board, where the board offers it."""
        return lambda board: self._send(board, self.players.named_move(board, action))

    def _send(self, board: Board, move: Move | None) -> Interaction | None:
        if move is None:
            return None
        board.presses += 1
        return self.server.press(board.table, move.person, board.message_id, move.custom_id)

    async def connected(self) -> None:
        """Logged in and ready, and (after a restart) done restoring and redrawing."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CONNECT_WITHIN
        while not self.server.identified.is_set():
            self.process.check_alive()
            if loop.time() > deadline:
                raise TimeoutError(f"{self.kind} did not connect within {CONNECT_WITHIN} s")
            await asyncio.sleep(0.1)
        await asyncio.sleep(READY_DELAY)
        await self.server.settled(quiet=1.0)

    async def set_up(self) -> None:
        """Every game started; the bench's own objects are then frozen out of its garbage collector, so
        its pauses never land inside a measured latency."""
        await self.players.set_up(self.boards)
        gc.collect()
        gc.freeze()

    async def restart(self) -> None:
        self.process.kill()
        # The server may not have seen the killed bot's socket close yet: wait for the new one's login.
        self.server.identified.clear()
        self.process.start()
        await self.connected()


@asynccontextmanager
async def session(kind: str, games: int, env: dict[str, str] | None = None) -> AsyncIterator[Session]:
    with tempfile.TemporaryDirectory(prefix=f"bench-{kind}-") as folder:
        snowflake = Snowflakes()
        world = World.build(games, snowflake)
        server = LoopbackDiscord(world, BENCH_TOKEN, snowflake)
        url = await server.start()
        bot_env = BOT_ENV.get(kind, {}) | (env or {})
        process = BotProcess(BOTS[kind], url, Path(folder), bot_env)
        players: Players = FarklePlayers(server) if kind == "farkle" else TrivialPlayers(server)
        bench = Session(kind, server, process, players, [Board(table) for table in world.tables])
        try:
            process.start()
            await bench.connected()
            yield bench
        finally:
            process.stop()
            await server.close()
            if server.unknown_routes:
                print(f"  {kind}: routes the loopback lacks: {dict(server.unknown_routes)}")


# ---------------------------------------------------------------------- shapes


@dataclass
class Presses:
    """The presses of one shape for one bot, and the bot's CPU time over them."""

    interactions: list[Interaction] = field(default_factory=list)
    no_move: int = 0
    cpu_seconds: float = 0.0

    def latencies_ms(self) -> list[float]:
        return sorted(i.latency * 1000 for i in self.interactions if i.latency is not None)

    def failed(self) -> int:
        return sum(i.done.result() is not Outcome.ANSWERED for i in self.interactions)

    def refused_by_bot(self) -> int:
        """Answered, but privately: the bot said no (out of date, not your turn)."""
        return sum(i.callback_type == CHANNEL_MESSAGE and i.ephemeral for i in self.interactions)

    def add(self, other: Presses) -> None:
        self.interactions += other.interactions
        self.no_move += other.no_move
        self.cpu_seconds += other.cpu_seconds


async def one_at_a_time(bench: Session) -> Presses:
    """One press in every game, each answered before the next is sent."""
    cpu = bench.process.cpu()
    result = Presses()
    for board in bench.boards:
        interaction = bench.press(board)
        if interaction is None:
            result.no_move += 1
            continue
        result.interactions.append(interaction)
        await interaction.done
    await bench.settled()
    result.cpu_seconds = bench.process.cpu() - cpu
    return result


async def burst_round(bench: Session, press: Callable[[Board], Interaction | None] | None = None) -> Presses:
    """One press in every game (the next one, or `press`'s), all written to the gateway together; then wait
    for the bot to finish."""
    press = press or bench.press
    cpu = bench.process.cpu()
    pressed = [press(board) for board in bench.boards]
    round_ = Presses([i for i in pressed if i is not None], no_move=pressed.count(None))
    await asyncio.gather(*(i.done for i in round_.interactions))
    await bench.settled()
    round_.cpu_seconds = bench.process.cpu() - cpu
    return round_


async def roll_round(bench: Session) -> tuple[Presses, Presses]:
    """Every game brought to a turn's start, Roll pressed in all at once; the best dice set aside, Bank
    pressed in all at once (where the roll scored). Only the two bursts are measured."""
    measured = []
    for action in (ROLL, BANK):
        await bench.players.prepare(bench.boards, action)
        measured.append(await burst_round(bench, bench.press_named(action)))
    return measured[0], measured[1]


async def paced(bench: Session, rate: float, seconds: float) -> Presses:
    """`rate` presses a second on an absolute schedule, each on the next game not waiting for an answer."""
    loop = asyncio.get_running_loop()
    cpu, start = bench.process.cpu(), loop.time()
    result = Presses()
    waiting: dict[int, Interaction] = {}
    boards = itertools.cycle(bench.boards)
    for k in range(int(rate * seconds)):
        await asyncio.sleep(max(0.0, start + k / rate - loop.time()))
        for board in itertools.islice(boards, len(bench.boards)):
            last = waiting.get(board.table.index)
            interaction = bench.press(board) if last is None or last.done.done() else None
            if interaction is not None:
                waiting[board.table.index] = interaction
                result.interactions.append(interaction)
                break
        else:
            result.no_move += 1
    await asyncio.gather(*(i.done for i in result.interactions))
    await bench.settled()
    result.cpu_seconds = bench.process.cpu() - cpu
    return result


# ---------------------------------------------------------------------- runs


@dataclass
class Memory:
    """VmRSS at each step, in bytes; `idle` is the bot connected with no game."""

    games: int
    idle: int
    started: int = 0
    played: int = 0
    after_burst: int | None = None
    restored: int | None = None
    restored_played: int | None = None

    def per_game_kb(self, rss: int | None) -> float | None:
        return None if rss is None else (rss - self.idle) / self.games / 1024

    @property
    def steps(self) -> list[int | None]:
        return [self.started, self.played, self.after_burst, self.restored, self.restored_played]


def marginal_pairs(runs: list[Run]) -> list[tuple[Run, Run]]:
    """Each bot's runs with memory, by games, paired with the next larger run of the same bot."""
    by_kind: dict[str, list[Run]] = {}
    for run in runs:
        if run.memory is not None:
            by_kind.setdefault(run.kind, []).append(run)
    pairs: list[tuple[Run, Run]] = []
    for kind_runs in by_kind.values():
        kind_runs.sort(key=lambda run: run.games)
        pairs += [(a, b) for a, b in itertools.pairwise(kind_runs) if a.games < b.games]
    return pairs


def marginal_kb(fewer: Run, more: Run) -> list[float | None]:
    """What each game more takes at each step: the RSS difference of two runs over their difference in
    games. What every run pays once (a ruleset's turn layout and scoring tables, the pool of connections,
    SQLite's page cache) cancels out, where the per-game figure spreads it over the games."""
    assert fewer.memory is not None and more.memory is not None
    extra = more.games - fewer.games
    return [
        None if a is None or b is None else (b - a) / extra / 1024
        for a, b in zip(fewer.memory.steps, more.memory.steps, strict=True)
    ]


@dataclass
class Run:
    kind: str
    shape: str
    games: int
    presses: Presses
    memory: Memory | None = None
    after_restart: Presses | None = None


async def burst_run(kind: str, games: int, rounds: int, shapes: list[str], restart: bool) -> list[Run]:
    """Set up, one round one at a time, the burst rounds and/or the Roll-and-Bank rounds (in one session:
    setting up 500 games is the slow part), then (Farkle) kill, restart, one more round."""
    async with session(kind, games) as bench:
        memory = Memory(games, bench.process.rss())
        await bench.set_up()
        memory.started = bench.process.rss()
        single = await one_at_a_time(bench)
        memory.played = bench.process.rss()
        runs = [Run(kind, "one at a time", games, single, memory)]
        if "burst" in shapes:
            presses = Presses()
            for number in range(rounds):
                presses.add(await burst_round(bench))
                if number == 0:
                    memory.after_burst = bench.process.rss()
            runs.append(Run(kind, "burst", games, presses))
        if "roll" in shapes:
            rolls, banks = Presses(), Presses()
            for _ in range(rounds):
                roll, bank = await roll_round(bench)
                rolls.add(roll)
                banks.add(bank)
            runs += [Run(kind, "roll burst", games, rolls), Run(kind, "bank burst", games, banks)]
        if restart:
            await bench.restart()
            memory.restored = bench.process.rss()
            runs[0].after_restart = await one_at_a_time(bench)
            memory.restored_played = bench.process.rss()
        return runs


FIRST_MINUTE = 60.0


async def first_start_run(kind: str, games: int, rounds: int) -> tuple[Run, float]:
    """A first start on a fresh database, win tables as in production, the burst at once: the run and the
    bot's CPU seconds (its worker processes' too) over its first minute."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    async with session(kind, games, {"SOLVE_WIN_TABLES": "true"}) as bench:
        await bench.set_up()
        presses = Presses()
        for _ in range(rounds):
            presses.add(await burst_round(bench))
        await asyncio.sleep(max(0.0, started + FIRST_MINUTE - loop.time()))
        cpu = bench.process.cpu_with_children()
    return Run(kind, "first-start burst", games, presses), cpu


async def paced_run(kind: str, games: int, rate: float, seconds: float) -> Run:
    async with session(kind, games) as bench:
        await bench.set_up()
        return Run(kind, f"paced {rate:g}/s", games, await paced(bench, rate, seconds))


async def profile_run(
    kind: str, games: int, rounds: int, profiler: str, shape: str = "burst"
) -> tuple[Run, Profile]:
    """The burst rounds profiled from the first press to the last answer (not the set-up); for the roll
    shape, one Roll burst (every game at its first turn's start, as set up); for bank, the Bank burst
    after it; for one, each game's first press, one at a time."""
    with tempfile.TemporaryDirectory(prefix="bench-profile-") as folder:
        output = Path(folder) / "bot.profile"
        async with session(kind, games, {"BENCH_PROFILE": str(output), "BENCH_PROFILER": profiler}) as bench:
            await bench.set_up()
            if shape == "bank":  # the Roll burst before it, unprofiled
                await burst_round(bench, bench.press_named(ROLL))
                await bench.players.prepare(bench.boards, BANK)
            threads = bench.process.thread_cpu()
            bench.process.signal(signal.SIGUSR1)
            presses = Presses()
            if shape in ("roll", "bank"):
                presses.add(await burst_round(bench, bench.press_named(ROLL if shape == "roll" else BANK)))
            elif shape == "one":
                presses.add(await one_at_a_time(bench))
            else:
                for _ in range(rounds):
                    presses.add(await burst_round(bench))
            bench.process.signal(signal.SIGUSR2)
            await written(output, bench.process)
            after = bench.process.thread_cpu()
        run = Run(kind, f"{shape} ({profiler})", games, presses)
        answered = len(presses.latencies_ms())
        if profiler == "stacks":
            return run, from_stacks(output, answered)
        workers = sum(after[tid] - threads.get(tid, 0.0) for tid in after if tid != bench.process.pid)
        return run, from_cprofile(output, answered, workers)


async def written(path: Path, process: BotProcess, seconds: float = 30.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if await asyncio.to_thread(path.exists):
            return
        process.check_alive()
        await asyncio.sleep(0.05)
    raise TimeoutError(f"the bot did not write {path} within {seconds} s")


# ---------------------------------------------------------------------- report


def print_latency(runs: list[Run]) -> None:
    print(
        f"{'shape':16}{'games':>6} {'bot':8}{'presses':>8}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}"
        f"{'failed':>8}{'refused':>8}{'CPU ms/press':>13}"
    )
    for run in runs:
        ms = run.presses.latencies_ms()
        print(
            f"{run.shape:16}{run.games:>6} {run.kind:8}{len(run.presses.interactions):>8}"
            f"{percentile(ms, 0.5):>9.1f}{percentile(ms, 0.99):>9.1f}{(ms[-1] if ms else math.nan):>9.1f}"
            f"{run.presses.failed():>8}{run.presses.refused_by_bot():>8}{cpu_per_press_ms(run):>13.2f}"
        )
    for line in ratios(runs):
        print(line)


def cpu_per_press_ms(run: Run) -> float:
    return run.presses.cpu_seconds * 1000 / max(len(run.presses.latencies_ms()), 1)


def ratios(runs: list[Run]) -> list[str]:
    """Each Farkle shape over each baseline's same shape and size, in this run: p50, p99, CPU per press."""
    by_shape: dict[tuple[str, int], dict[str, Run]] = {}
    for run in runs:
        by_shape.setdefault((run.shape, run.games), {})[run.kind] = run
    lines = []
    for (shape, games), bots in by_shape.items():
        farkle = bots.get("farkle")
        cells = []
        for baseline in (bots[name] for name in BASELINES if name in bots):
            if farkle is None:
                break
            ours, theirs = farkle.presses.latencies_ms(), baseline.presses.latencies_ms()
            p50 = percentile(ours, 0.5) / percentile(theirs, 0.5)
            p99 = percentile(ours, 0.99) / percentile(theirs, 0.99)
            cpu = cpu_per_press_ms(farkle) / cpu_per_press_ms(baseline)
            cells.append(f"/ {baseline.kind:8} p50 {p50:5.2f}  p99 {p99:5.2f}  CPU {cpu:5.2f}")
        if cells:
            lines.append(f"  {shape}, {games} games: farkle " + "   ".join(cells))
    return lines


def verdicts(runs: list[Run]) -> list[str]:
    """Issue 48's targets (`verdict.py`): each shape of each size against the message bot, and memory."""
    by_shape = {(run.shape, run.games, run.kind): run for run in runs}
    lines = []
    for (shape, games, kind), farkle in by_shape.items():
        baseline = by_shape.get((shape, games, "message"))
        if kind != "farkle" or shape not in SHAPES or baseline is None:
            continue
        ours, theirs = farkle.presses.latencies_ms(), baseline.presses.latencies_ms()
        p99 = percentile(ours, 0.99) / percentile(theirs, 0.99)
        cpu = cpu_per_press_ms(farkle) / cpu_per_press_ms(baseline)
        lines.append(shape_verdict(Against(shape, games, cpu, p99)))
    for run in runs:
        memory = run.memory
        if run.kind == "farkle" and memory is not None and run.games == MEMORY_GAMES:
            all_in = max(memory.per_game_kb(memory.started) or 0.0, memory.per_game_kb(memory.played) or 0.0)
            lines.append(memory_verdict(run.games, all_in, memory.per_game_kb(memory.restored_played)))
    return lines


def print_memory(runs: list[Run]) -> None:
    columns = ("started", "played", "1 burst", "restored", "+ played")
    print(f"\n{'RSS KB per game':16}{'games':>6} {'bot':8}" + "".join(f"{name:>10}" for name in columns))
    for run in runs:
        memory = run.memory
        if memory is None:
            continue
        print(f"{'':16}{run.games:>6} {run.kind:8}" + _kb_cells(map(memory.per_game_kb, memory.steps)))
    for fewer, more in marginal_pairs(runs):
        span = f"{fewer.games}→{more.games}"
        print(f"{'  each game more':16}{span:>9} {more.kind:5}" + _kb_cells(marginal_kb(fewer, more)))
    for run in runs:
        if run.memory is not None:  # in all: what an operator sees (memory freed at idle is reused first)
            idle, started = run.memory.idle / 2**20, run.memory.started / 2**20
            print(f"  {run.kind}, {run.games} games: {idle:.1f} MiB with no game, {started:.1f} MiB started")
        if run.after_restart is not None:
            again = run.after_restart
            print(
                f"  {run.kind}, {run.games} games, one press each after the restart:"
                f" {len(again.interactions)} presses, {again.failed()} failed,"
                f" {again.refused_by_bot()} refused by the bot, {again.no_move} games with no move"
            )


def _kb_cells(values: Iterable[float | None]) -> str:
    return "".join(f"{value:>10.1f}" if value is not None else f"{'—':>10}" for value in values)


def print_profile(profile: Profile) -> None:
    rows = [name for name in (*BUCKETS[:1], WORKER_THREADS, *BUCKETS[1:]) if name in profile.buckets]
    busy = sum(profile.buckets[name] for name in rows)
    print(f"\nWhere the bot's time goes ({profile.source}),")
    print(f"ms per answered press over {profile.presses} presses:")
    for name in rows:
        print(f"  {name:58}{profile.buckets[name] * 1000:>8.2f}{profile.buckets[name] / busy * 100:>7.1f} %")
    print(f"  {'total':58}{busy * 1000:>8.2f}")
    if IDLE in profile.buckets:
        print(f"  ({IDLE}: {profile.buckets[IDLE] * 1000:.2f} ms per press, not counted)")
    print("\nTop 15 functions by own time (ms per press, calls per press, the bucket of their own code):")
    for row in profile.top:
        calls = f"{row.calls:7.1f}" if row.calls is not None else f"{'—':>7}"
        print(f"  {row.seconds * 1000:7.3f} {calls}  {describe(row.key)[:80]:80} {row.bucket}")


# ---------------------------------------------------------------------- main


def rounds_for(games: int, asked: int) -> int:
    return asked or max(3, math.ceil(MIN_BURST_PRESSES / games))


async def main(args: argparse.Namespace) -> None:
    kinds = bots_named(args.bot)
    games = [int(n) for n in args.games.split(",")]
    shapes = args.shapes.split(",")
    if args.profile:
        for kind in kinds:
            rounds = rounds_for(max(games), args.rounds)
            shape = next((shape for shape in ("one", "bank", "roll") if shape in shapes), "burst")
            run, profile = await profile_run(kind, max(games), rounds, args.profile, shape)
            print(f"\n{kind}:")
            print_latency([run])
            print_profile(profile)
        return
    runs: list[Run] = []
    bursts = [shape for shape in shapes if shape in ("burst", "roll")]
    if bursts:
        for n in games:
            for kind in kinds:
                print(f"  {' and '.join(bursts)}, {n} games, {kind} …", flush=True)
                rounds = rounds_for(n, args.rounds)
                runs += await burst_run(kind, n, rounds, bursts, restart=kind == "farkle")
    first_minutes: dict[str, float] = {}
    if "first-start" in shapes:
        for n in games:
            for kind in kinds:
                print(f"  first start, {n} games, {kind} …", flush=True)
                run, cpu = await first_start_run(kind, n, rounds_for(n, args.rounds))
                runs.append(run)
                first_minutes[f"{kind}, {n} games"] = cpu
    if "paced" in shapes:
        for kind in kinds:
            print(f"  paced, {args.paced_games} games, {kind} …", flush=True)
            runs.append(await paced_run(kind, args.paced_games, args.rate, args.paced_seconds))
    print()
    print_latency(runs)
    print_memory(runs)
    print()
    for line in verdicts(runs):
        print(line)
    for name, cpu in first_minutes.items():
        print(f"  first start, {name}: {cpu:.1f} s of CPU in its first {FIRST_MINUTE:.0f} s (workers too)")


def bots_named(names: str) -> list[str]:
    """`--bot`: names, comma-separated; `all` is every bot, `both` the Farkle bot and the board baseline."""
    aliases = {"all": [*BASELINES, "farkle"], "both": ["trivial", "farkle"]}
    kinds = [kind for name in names.split(",") for kind in aliases.get(name, [name])]
    unknown = set(kinds) - BOTS.keys()
    if unknown:
        raise SystemExit(f"--bot: no bot named {', '.join(sorted(unknown))} (choose from {', '.join(BOTS)})")
    return kinds


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--bot", default="all", help="farkle, trivial, message, comma-separated; all (default) or both"
    )
    parser.add_argument("--games", default="300,500", help="N for the burst shapes, comma-separated")
    parser.add_argument(
        "--shapes",
        default="burst,roll,paced,first-start",
        help="burst, roll, paced, first-start; with --profile also bank (Bank burst), one (one at a time)",
    )
    parser.add_argument(
        "--rounds", type=int, default=0, help="burst rounds (0: enough for 1,000 presses, ≥ 3)"
    )
    parser.add_argument("--rate", type=float, default=100.0, help="paced presses per second")
    parser.add_argument("--paced-games", type=int, default=300)
    parser.add_argument("--paced-seconds", type=float, default=20.0)
    parser.add_argument(
        "--profile",
        nargs="?",
        const="stacks",
        choices=["stacks", "cprofile"],
        help="profile the bot during the largest burst (a Roll burst with --shapes roll) instead",
    )
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
