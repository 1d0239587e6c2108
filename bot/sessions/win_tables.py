"""Win-probability tables for `master` and the Hint's winning chances: shipped, stored, or solved in a worker.

The presets' tables ship in the package (bot/assets/win_tables, built by scripts/build_win_tables.py) and
are loaded at start-up: master and the Hint work from the first second on a fresh database. A server's own
ruleset takes from half a minute to minutes of one core to solve, so the bot solves it in a separate
process (the event loop and its GIL stay free, and Numba stays out of the bot), one ruleset at a time, and
keeps the tables in the database for every later start-up. Until a ruleset's tables exist, `master` plays
as `expert` and the Hint says the winning chances are warming up.
"""

from __future__ import annotations

import asyncio
import logging
import mmap
import time
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from bot.engine import PRESET_NAMES, Ruleset
from bot.engine.win.tables import WinTables, table_key, unsupported

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

log = logging.getLogger(__name__)

SHIPPED = Path(__file__).resolve().parents[1] / "assets" / "win_tables"

Solve = Callable[[Ruleset], Awaitable[bytes]]
# Where a game finds its ruleset's win tables (`WinTableKeeper.tables`): None while there are none.
TablesOf = Callable[[Ruleset], WinTables | None]


def no_tables(rules: Ruleset) -> WinTables | None:
    """A game outside the live registry shows no chances."""
    return None


def shipped_path(preset: str) -> Path:
    """Where a preset's tables ship in the package."""
    return SHIPPED / f"{preset}.fwt"


def shipped_tables(rules: Ruleset) -> WinTables | None:
    """A preset's tables from the package, memory-mapped: their values are read in place, so a preset
    nobody plays costs no memory and the processes of one host share the pages. None for other rules,
    and for tables built before the preset changed (logged: they need rebuilding)."""
    if rules.name not in PRESET_NAMES or table_key(Ruleset.preset(rules.name)) != table_key(rules):
        return None
    path = shipped_path(rules.name)
    if not path.is_file():
        return None
    with path.open("rb") as file:
        tables = WinTables.from_bytes(memoryview(mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)))
    if tables.key != table_key(rules):
        log.warning("Shipped win tables for %s rules are stale: run scripts/build_win_tables.py", rules.name)
        return None
    return tables


class WinTableStore(Protocol):
    async def load(self, table_key: str) -> bytes | None: ...

    async def save(self, table_key: str, tables: bytes) -> None: ...


async def solve_in_process(rules: Ruleset) -> bytes:
    """Solve in a fresh process; cancelling the caller stops it (a shutdown never waits for a solve).
    `multiprocessing` is imported here: most bots never solve, and it is 0.2 MB kept for good."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")  # no fork of a process with an event loop and threads
    receive, send = context.Pipe(duplex=False)
    worker = context.Process(
        target=_solve_and_send, args=(rules, send), name="farkle-win-tables", daemon=True
    )
    worker.start()
    send.close()
    try:
        return await asyncio.to_thread(receive.recv_bytes)
    except EOFError:
        raise RuntimeError(f"the solver process stopped (exit code {worker.exitcode})") from None
    finally:
        if worker.is_alive():
            worker.terminate()  # closes the pipe: the waiting thread's recv ends too
        await asyncio.to_thread(worker.join)
        receive.close()


def _solve_and_send(rules: Ruleset, send: Connection) -> None:
    """The worker's whole life. The solver (and Numba, ~60 MB) is imported here, in the worker only."""
    from bot.engine.win.solve import solve_winprob

    send.send_bytes(solve_winprob(rules).to_bytes())


class WinTableKeeper:
    """Makes tables exist, one ruleset at a time in the order asked; presets first at start-up. It owns the
    tables it made (`tables`): callers hand them to the engine, or None while they are not ready."""

    def __init__(self, store: WinTableStore, solve: Solve | None = solve_in_process) -> None:
        """`solve=None` never solves (an operator's choice): only tables already stored are used."""
        self._store = store
        self._solve = solve
        self._queue: list[Ruleset] = []
        self._asked: set[str] = set()
        self._missing: set[str] = set()  # neither stored nor solvable here (solving off, or it failed)
        self._worker: asyncio.Task[None] | None = None
        self._tables: dict[str, WinTables] = {}  # by `table_key`

    def tables(self, rules: Ruleset) -> WinTables | None:
        """These rules' tables, or None: not made (yet), or never (`want` says which)."""
        return self._tables.get(table_key(rules))

    def ready(self, rules: Ruleset) -> bool:
        return self.tables(rules) is not None

    def adopt(self, tables: WinTables) -> None:
        """Use these tables for their rules from now on (made here, or handed in by a tool or a test)."""
        self._tables[tables.key] = tables

    def forget(self, rules: Ruleset) -> None:
        """Drop these rules' tables (a test starts from a bot that has none); `want` makes them again."""
        self._tables.pop(table_key(rules), None)
        self._asked.discard(table_key(rules))

    def want(self, *rules: Ruleset) -> bool:
        """Queue these rulesets' tables (loaded if stored, else solved); True while all are on the way."""
        coming = True
        for each in rules:
            key = table_key(each)
            if self.ready(each) or unsupported(each) is not None or key in self._missing:
                coming = False
                continue
            if key not in self._asked:
                self._asked.add(key)
                self._queue.append(each)
        if self._queue and (self._worker is None or self._worker.done()):
            self._worker = asyncio.create_task(self._work(), name="farkle-win-tables")
        return coming

    def start(self, presets: Iterable[Ruleset]) -> None:
        """At start-up: the presets' tables, in order (the modelled ones)."""
        self.want(*(rules for rules in presets if unsupported(rules) is None))

    async def idle(self) -> None:
        """Wait until the queue is done (tests and the bench; the bot never waits)."""
        while self._worker is not None and not self._worker.done():
            await asyncio.shield(self._worker)

    async def close(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
            await asyncio.gather(self._worker, return_exceptions=True)

    async def _work(self) -> None:
        done = 0
        while self._queue:
            rules = self._queue.pop(0)
            done += 1
            try:
                await self._provide(rules, f"{done}/{done + len(self._queue)}")
            except Exception:
                log.exception("Win tables for %s rules could not be made; master plays as expert", rules.name)
            if not self.ready(rules):
                self._missing.add(table_key(rules))

    async def _provide(self, rules: Ruleset, progress: str) -> None:
        key = table_key(rules)
        shipped = await asyncio.to_thread(shipped_tables, rules)
        if shipped is not None:
            self.adopt(shipped)
            return
        stored = await self._store.load(key)
        if stored is not None:
            try:
                await self._adopt(stored)
                return
            except ValueError:
                log.info("Stored win tables for %s rules are from another solver version", rules.name)
        if self._solve is None:
            return
        log.info("Win tables: solving %s rules (%s); master plays as expert until then", rules.name, progress)
        started = time.perf_counter()
        data = await self._solve(rules)
        await self._store.save(key, data)
        await self._adopt(data)
        log.info(
            "Win tables: %s rules ready in %.0f s (%s, %d KiB)",
            rules.name,
            time.perf_counter() - started,
            progress,
            len(data) // 1024,
        )

    async def _adopt(self, data: bytes) -> None:
        """Decode off the event loop, then use."""
        self.adopt(await asyncio.to_thread(WinTables.from_bytes, data))
