"""Where a bot's time goes per press, in buckets: SQLite commit, serialisation, engine, rendering, discord.py.

In the bot (`profile_on_signals`, standard library only, BENCH_PROFILE=path): SIGUSR1 starts a profiler,
SIGUSR2 stops it and writes `path`, so only the measured burst is profiled, not the start-up or set-up.
- `StackSampler` (the default): every thread's stack every 2 ms, on a timer signal, weighed by the CPU
  time each thread used. It costs the bot little, so a burst queues as it does unprofiled, and it sees
  the database's worker threads, where SQLAlchemy and SQLite run. The cycle collector runs no bytecode,
  so a tick cannot land in it: its CPU time is clocked by a `gc` callback and charged to a bucket of
  its own (otherwise it would fall on whatever allocation triggered it, a third of a burst's CPU).
- `CProfile`: exact calls per press, but it slows Python code about twofold, so a burst queues longer
  than it would (and more presses outlast the bot's 1 s wait for the database); it sees only the
  event-loop thread, so the bench adds the other threads' CPU time, from /proc.
(py-spy was tried first: attached to the bot it counted the event loop's wait in epoll as work and, in
its non-blocking mode, put samples in the wrong functions. A sampling thread instead of the signal
piles samples where the GIL is released; wall time instead of CPU time charges a whole descheduling
on a shared machine to one function.)

A sample (or a function's own time, with cProfile) goes to the bucket of the code it runs, walking out
through code without a bucket of its own (json, the standard library, pydantic): `json.dumps` under
`Session.dump` is serialisation, under discord.py's HTTP client discord.py. Engine and rendering code
is "soft": a root further out claims it, so the engine under `Session.dump`/`load` is serialisation,
and embeds and views built from a received message (`Message`, `View.from_message`) are discord.py's
parsing. cProfile keeps no stacks, so there that walk splits time among callers in proportion.
"""

from __future__ import annotations

import ast
import cProfile
import gc
import os
import pstats
import signal
import sys
import sysconfig
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import FrameType

COMMIT = "database commit (bot/storage, SQLAlchemy, sqlite3/psycopg, their worker threads)"
SERIALISATION = "session serialisation (Session.dump/load, json)"
ENGINE = "engine (bot/engine)"
RENDERING = "rendering (bot/render, Embed, ui.View)"
DISCORD = "discord.py (gateway, HTTP, Interaction, parsing)"
BOT_LOGIC = "bot logic (cogs, sessions, client)"
EVENT_LOOP = "event loop and other"
GARBAGE = "garbage collection (the cycle collector, any thread)"
IDLE = "idle (waiting for the network)"
BUCKETS = (COMMIT, SERIALISATION, ENGINE, RENDERING, DISCORD, BOT_LOGIC, EVENT_LOOP, GARBAGE)
SERIALISATION_ROOTS = {"Session.dump", "Session.load", "Session.row"}
PARSING_ROOTS = (".from_message", ".from_component", ".from_dict", "_component_to_item")
SOFT = {ENGINE, RENDERING, None}  # buckets a root above can claim
# Drawing: the bot's render layer, discord.py's embeds and views, and the baseline bot (it only draws).
RENDERING_CODE = ("/bot/render/", "/discord/ui/", "/discord/embeds.py", "/discord/colour.py", "/trivial_bot")
HTTP_LIBRARIES = ("/aiohttp/", "/yarl/", "/multidict/", "/propcache/", "/frozenlist/", "/aiosignal/")

FunctionKey = tuple[str, int, str]  # pstats' (file, first line, name)
COLLECTING: FunctionKey = ("~", 0, "<garbage collection>")  # the innermost frame of a collection's time
# Stripped from file names in the report: the repository, site-packages, the standard library.
_PREFIXES = tuple(
    str(Path(folder).resolve()) + os.sep
    for folder in (
        Path(__file__).parents[2],
        sysconfig.get_paths()["purelib"],
        sysconfig.get_paths()["stdlib"],
    )
)


def profile_on_signals() -> None:
    """Bot side: nothing unless BENCH_PROFILE names the file to write (BENCH_PROFILER: stacks, cprofile)."""
    path = os.environ.get("BENCH_PROFILE")
    if not path:
        return
    profiler = StackSampler() if os.environ.get("BENCH_PROFILER", "stacks") == "stacks" else CProfile()

    def start(signum: int, frame: FrameType | None) -> None:
        profiler.start()

    def stop(signum: int, frame: FrameType | None) -> None:
        profiler.stop(path + ".part")
        os.replace(path + ".part", path)  # the bench waits for the name: it appears whole

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)


class CProfile:
    def __init__(self) -> None:
        self._profile = cProfile.Profile()

    def start(self) -> None:
        self._profile.enable()

    def stop(self, path: str) -> None:
        self._profile.disable()
        self._profile.dump_stats(path)


class StackSampler:
    """Every thread's Python stack on a SIGALRM every INTERVAL seconds, each sample weighed by the CPU
    time that thread used since the previous one (from its own CPU clock).

    CPU time, not wall time: a thread waiting (the event loop in epoll, a database thread on its queue, anyone
    on the GIL) adds nothing, and neither does the process being descheduled on a busy machine. The
    handler runs in the event-loop thread at the next bytecode, so its samples land wherever Python is,
    not only where the GIL is released; the other threads are read with `sys._current_frames`.
    """

    INTERVAL = 0.002

    def __init__(self) -> None:
        self._seconds: Counter[tuple[int, tuple[FunctionKey, ...]]] = Counter()
        self._clocks: dict[int, int] = {}
        self._used: dict[int, float] = {}
        self._collecting: dict[int, float] = {}  # a collection's start, on its thread's CPU clock

    def start(self) -> None:
        for thread in sys._current_frames():
            self._used[thread] = self._cpu(thread)
        gc.callbacks.append(self._collection)
        signal.signal(signal.SIGALRM, self._sample)
        signal.setitimer(signal.ITIMER_REAL, self.INTERVAL, self.INTERVAL)

    def stop(self, path: str) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        gc.callbacks.remove(self._collection)
        with open(path, "w") as out:
            for (thread, stack), seconds in self._seconds.items():
                frames = ";".join(f"{name} ({filename}:{line})" for filename, line, name in stack)
                out.write(f"thread ({thread});{frames} {round(seconds * 1e6)}\n")

    def _sample(self, signum: int, here: FrameType | None) -> None:
        """Where each thread is gets the CPU it used since the last tick; the handler's own CPU goes
        nowhere (the event loop's clock is read again as it returns), and a tick inside it is skipped."""
        main = threading.get_ident()
        if here is not None and here.f_code in _SAMPLER_CODE:
            return
        for thread, frame in sys._current_frames().items():
            used = self._cpu(thread)
            spent, self._used[thread] = used - self._used.get(thread, used), used
            frame = here if thread == main else frame
            if frame is not None and spent > 0:
                self._seconds[(thread, _stack(frame))] += spent
        self._used[main] = self._cpu(main)

    def _collection(self, phase: str, info: dict[str, int]) -> None:
        """A collection's CPU time goes to the stack that triggered it, under `COLLECTING`, and not
        again to the next tick: that thread's clock is moved past it."""
        thread = threading.get_ident()
        if phase == "start":
            self._collecting[thread] = self._cpu(thread)
            return
        began = self._collecting.pop(thread, None)
        if began is None:
            return
        spent = self._cpu(thread) - began
        self._seconds[(thread, (*_stack(sys._getframe(1)), COLLECTING))] += spent
        if thread in self._used:
            self._used[thread] += spent

    def _cpu(self, thread: int) -> float:
        if thread not in self._clocks:
            self._clocks[thread] = time.pthread_getcpuclockid(thread)
        return time.clock_gettime(self._clocks[thread])


_SAMPLER_CODE = {
    StackSampler._sample.__code__,
    StackSampler._cpu.__code__,
    StackSampler._collection.__code__,
}


def _stack(frame: FrameType | None) -> tuple[FunctionKey, ...]:
    """Outermost first, as pstats names functions: (file, first line, name)."""
    stack = []
    while frame is not None:
        code = frame.f_code
        stack.append((code.co_filename, code.co_firstlineno, code.co_name))
        frame = frame.f_back
    return tuple(reversed(stack))


@cache
def _qualnames(filename: str) -> dict[int, str]:
    """Line of a `def` (and of its first decorator, which cProfile reports instead) → Class.method."""
    try:
        tree = ast.parse(Path(filename).read_text())
    except (OSError, SyntaxError, ValueError):
        return {}
    found: dict[int, str] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = prefix + child.name
                for line in [child.lineno, *(d.lineno for d in child.decorator_list)]:
                    found.setdefault(line, name)
                visit(child, name + ".")

    visit(tree, "")
    return found


def qualname(key: FunctionKey) -> str:
    filename, line, name = key
    return _qualnames(filename).get(line, name) if filename != "~" else name


def root_bucket(key: FunctionKey) -> str | None:
    """The bucket of a function that claims everything it calls."""
    path, name = key[0].replace(os.sep, "/"), qualname(key)
    if path.endswith("/bot/sessions/session.py") and name in SERIALISATION_ROOTS:
        return SERIALISATION
    if "/site-packages/discord/" in path and (name.startswith("ViewStore.") or name.endswith(PARSING_ROOTS)):
        return DISCORD
    return None


def own_bucket(key: FunctionKey) -> str | None:
    """The bucket a function's own time belongs to, or None to charge it to its callers."""
    path = key[0].replace(os.sep, "/")
    if key == COLLECTING:
        return GARBAGE
    if path == "~":  # a builtin: blocking in epoll is idle, sqlite3's C calls are the commit
        return IDLE if "select.epoll" in key[2] else (COMMIT if "sqlite3" in key[2] else None)
    root = root_bucket(key)
    if root is not None:
        return root
    if any(part in path for part in ("/sqlalchemy/", "/sqlite3/", "/psycopg", "/bot/storage/")):
        return COMMIT
    if "/bot/engine/" in path:
        return ENGINE
    if any(part in path for part in RENDERING_CODE):
        return RENDERING
    if "/site-packages/discord/" in path or any(library in path for library in HTTP_LIBRARIES):
        return DISCORD
    if "/bot/" in path or "/cogs/" in path or "/loopback/" in path:
        return BOT_LOGIC
    if "/asyncio/" in path or path.endswith("/selectors.py"):
        return EVENT_LOOP
    return None


WORKER_THREADS = "the database's worker threads (their CPU, from /proc)"


@dataclass(frozen=True)
class Row:
    key: FunctionKey
    seconds: float  # own time per press
    calls: float | None  # per press; only cProfile counts calls
    bucket: str


@dataclass(frozen=True)
class Profile:
    """Seconds per press by bucket (IDLE set apart) and the functions with the most own time."""

    source: str
    presses: int
    buckets: dict[str, float]
    top: list[Row]


def stack_bucket(stack: list[FunctionKey]) -> str:
    """A sample's bucket, walking out from the innermost frame: the first frame with a bucket of its
    own decides, unless it is soft (engine, rendering) and a root further out claims it."""
    soft = None
    for key in reversed(stack):
        root, bucket = root_bucket(key), own_bucket(key)
        if root is not None:
            return root
        if bucket not in SOFT:
            return soft or bucket or EVENT_LOOP
        soft = soft or bucket
    return soft or EVENT_LOOP


def from_stacks(path: Path, presses: int, count: int = 15) -> Profile:
    """`StackSampler`'s file: one line per distinct stack, `thread (id);func (file:line);... microseconds`
    (the collapsed-stack format of py-spy's raw output, weighed in CPU time rather than counted)."""
    buckets: dict[str, float] = defaultdict(float)
    own: dict[FunctionKey, float] = defaultdict(float)
    for line in path.read_text().splitlines():
        frames, _, samples = line.rpartition(" ")
        seconds = int(samples) / 1e6 / presses
        stack = [_frame(text) for text in frames.split(";")[1:]]
        buckets[stack_bucket(stack)] += seconds
        own[stack[-1]] += seconds
    ranked = sorted(own.items(), key=lambda item: item[1], reverse=True)[:count]
    top = [Row(key, seconds, None, own_bucket(key) or "(charged to callers)") for key, seconds in ranked]
    return Profile("stack samples of every thread, CPU time", presses, dict(buckets), top)


def _frame(text: str) -> FunctionKey:
    name, _, place = text.rpartition(" (")
    filename, _, line = place.removesuffix(")").rpartition(":")
    return filename, int(line or 0), name


def from_cprofile(path: Path, presses: int, worker_cpu: float, count: int = 15) -> Profile:
    """A cProfile dump of the event-loop thread, plus `worker_cpu` seconds of the other threads."""
    split = _CallerSplit(pstats.Stats(str(path)).stats)  # type: ignore[attr-defined]
    buckets: dict[str, float] = defaultdict(float)
    for key, (_, _, own, _, _) in split.stats.items():
        for bucket, share in split.spread(key, None).items():
            buckets[bucket] += own * share / presses
    buckets[WORKER_THREADS] = worker_cpu / presses
    ranked = sorted(split.stats.items(), key=lambda item: item[1][2], reverse=True)[:count]
    top = [
        Row(key, own / presses, calls / presses, own_bucket(key) or "(charged to callers)")
        for key, (_, calls, own, _, _) in ranked
    ]
    return Profile("cProfile, event-loop thread (inflates Python-heavy code)", presses, dict(buckets), top)


class _CallerSplit:
    """cProfile keeps no stacks, only caller → callee edges: time of code without a bucket of its own
    is split among its callers by how much of it each accounts for, climbing until a bucket is found."""

    def __init__(self, stats: dict) -> None:
        self.stats = stats
        self._memo: dict[tuple[FunctionKey, str | None], dict[str, float]] = {}
        self._climbing: set[FunctionKey] = set()

    def spread(self, key: FunctionKey, origin: str | None) -> dict[str, float]:
        """How a second of `key`'s own time divides among buckets. `origin` is the soft bucket climbed
        from (engine, rendering): it holds unless a root above claims the time."""
        memo = self._memo.get((key, origin))
        if memo is not None:
            return memo
        root, bucket = root_bucket(key), own_bucket(key)
        if root is not None:
            return {root: 1.0}
        if bucket not in SOFT:
            return {origin or bucket: 1.0}
        origin = origin or bucket
        callers = self.stats[key][4] if key in self.stats else {}
        weights = {caller: timing[2] or timing[1] for caller, timing in callers.items()}
        total = sum(weights.values())
        if not total or key in self._climbing:
            return {origin or EVENT_LOOP: 1.0}
        self._climbing.add(key)
        spread: dict[str, float] = defaultdict(float)
        for caller, weight in weights.items():
            for name, share in self.spread(caller, origin).items():
                spread[name] += share * weight / total
        self._climbing.discard(key)
        self._memo[(key, origin)] = dict(spread)
        return self._memo[(key, origin)]


def describe(key: FunctionKey) -> str:
    """`bot/engine/game/__init__.py:Game.roll` rather than a full site-packages path."""
    if key[0] == "~":
        return key[2]
    filename = next((key[0].removeprefix(p) for p in _PREFIXES if key[0].startswith(p)), key[0])
    return f"{filename}:{qualname(key)}"
