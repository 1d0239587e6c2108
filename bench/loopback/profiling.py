"""Where a bot's time goes per press: cProfile in the bot process, switched on and off by the bench.

In the bot (`profile_on_signals`, standard library only): with BENCH_PROFILE=path, SIGUSR1 starts cProfile
in the main thread (the event loop, where discord.py, the cogs, the engine and rendering run) and SIGUSR2
stops it and writes the stats to `path`. SQLite itself runs in aiosqlite's worker thread, which cProfile
does not see: the bench reads that thread's CPU time from /proc instead.

In the bench (`Breakdown`): every function's own time goes to a bucket by where its code lives. Code that
belongs to no bucket (json, the standard library, pydantic) is charged to whoever called it, split by
how much of its time each caller accounts for, so `json.dumps` under `Session.dump` is serialisation and
under discord.py's HTTP client is discord.py. Engine and rendering code is looked at the same way for a
root above it that claims it: the engine under `Session.dump`/`load` is serialisation, and building
embeds and views from a received message (`Message`, `View.from_message`) is discord.py's parsing.
"""

from __future__ import annotations

import ast
import cProfile
import os
import pstats
import signal
import sysconfig
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import FrameType

COMMIT = "SQLite commit (event loop side: aiosqlite, bot/storage)"
SERIALISATION = "session serialisation (Session.dump/load, json)"
ENGINE = "engine (bot/engine)"
RENDERING = "rendering (bot/render, Embed, ui.View)"
DISCORD = "discord.py (gateway, HTTP, Interaction, parsing)"
BOT_LOGIC = "bot logic (cogs, sessions, client)"
EVENT_LOOP = "event loop and other"
IDLE = "idle (waiting for the network)"
BUCKETS = (COMMIT, SERIALISATION, ENGINE, RENDERING, DISCORD, BOT_LOGIC, EVENT_LOOP)
SERIALISATION_ROOTS = {"Session.dump", "Session.load", "Session.row"}
PARSING_ROOTS = (".from_message", ".from_component", ".from_dict", "_component_to_item")
SOFT = {ENGINE, RENDERING, None}  # buckets a root above can claim
# Drawing: the bot's render layer, discord.py's embeds and views, and the baseline bot (it only draws).
RENDERING_CODE = ("/bot/render/", "/discord/ui/", "/discord/embeds.py", "/discord/colour.py", "/trivial_bot")
HTTP_LIBRARIES = ("/aiohttp/", "/yarl/", "/multidict/", "/propcache/", "/frozenlist/", "/aiosignal/")

FunctionKey = tuple[str, int, str]  # pstats' (file, first line, name)
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
    """Bot side: nothing unless BENCH_PROFILE names the file to write."""
    path = os.environ.get("BENCH_PROFILE")
    if not path:
        return
    profiler = cProfile.Profile()

    def start(signum: int, frame: FrameType | None) -> None:
        profiler.enable()

    def stop(signum: int, frame: FrameType | None) -> None:
        profiler.disable()
        profiler.dump_stats(path + ".part")
        os.replace(path + ".part", path)  # the bench waits for the name: it appears whole

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)


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
    if path == "~":  # a builtin: blocking in epoll is idle, sqlite3's C calls are the commit
        return IDLE if "select.epoll" in key[2] else (COMMIT if "sqlite3" in key[2] else None)
    root = root_bucket(key)
    if root is not None:
        return root
    if "/aiosqlite/" in path or "/sqlite3/" in path or "/bot/storage/" in path:
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


@dataclass(frozen=True)
class Row:
    key: FunctionKey
    seconds: float
    calls: int
    bucket: str


class Breakdown:
    """A cProfile dump, bucketed; every figure is divided by `presses`."""

    def __init__(self, path: Path, presses: int) -> None:
        self.presses = presses
        self._stats = pstats.Stats(str(path)).stats  # type: ignore[attr-defined]
        self._memo: dict[tuple[FunctionKey, str | None], dict[str, float]] = {}
        self._climbing: set[FunctionKey] = set()

    def buckets(self) -> dict[str, float]:
        """Seconds per press per bucket (IDLE included, for the reader to set aside)."""
        totals: dict[str, float] = defaultdict(float)
        for key, (_, _, own, _, _) in self._stats.items():
            for bucket, share in self._spread(key, None).items():
                totals[bucket] += own * share / self.presses
        return dict(totals)

    def top(self, count: int) -> list[Row]:
        """The functions with the most own time, with the bucket their own module gives them."""
        ranked = sorted(self._stats.items(), key=lambda item: item[1][2], reverse=True)[:count]
        return [
            Row(key, own / self.presses, calls, own_bucket(key) or "(charged to callers)")
            for key, (_, calls, own, _, _) in ranked
        ]

    def _spread(self, key: FunctionKey, origin: str | None) -> dict[str, float]:
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
        callers = self._stats[key][4] if key in self._stats else {}
        weights = {caller: timing[2] or timing[1] for caller, timing in callers.items()}
        total = sum(weights.values())
        if not total or key in self._climbing:
            return {origin or EVENT_LOOP: 1.0}
        self._climbing.add(key)
        spread: dict[str, float] = defaultdict(float)
        for caller, weight in weights.items():
            for name, share in self._spread(caller, origin).items():
                spread[name] += share * weight / total
        self._climbing.discard(key)
        self._memo[(key, origin)] = dict(spread)
        return self._memo[(key, origin)]


def describe(key: FunctionKey) -> str:
    """`bot/engine/game.py:Game.roll` rather than a full site-packages path."""
    if key[0] == "~":
        return key[2]
    filename = next((key[0].removeprefix(p) for p in _PREFIXES if key[0].startswith(p)), key[0])
    return f"{filename}:{qualname(key)}"
