"""Win tables are loaded when stored, solved (once, in order) when not, and a solve never blocks the bot."""

from __future__ import annotations

import asyncio
import logging
import mmap
import multiprocessing
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bot.engine.rules import PRESET_NAMES, Ruleset
from bot.engine.scoring import scoring_tables
from bot.engine.win import tables as winprob
from bot.engine.win.game import win_game
from bot.engine.win.solve import solve_winprob
from bot.engine.win.tables import WinTables, table_key, unsupported
from bot.sessions import win_tables
from bot.sessions.win_tables import WinTableKeeper, shipped_path, solve_in_process
from tests.fakes import MemoryWinTables

TINY = Ruleset(target=1000)
ENTRY = Ruleset(target=1000, entry_minimum=500)


class CountingSolver:
    """Solves in a thread (as the worker process would, without its start-up cost) and counts."""

    def __init__(self) -> None:
        self.solved: list[str] = []

    async def __call__(self, rules: Ruleset) -> bytes:
        self.solved.append(table_key(rules))
        return (await asyncio.to_thread(solve_winprob, rules)).to_bytes()


async def test_tables_are_solved_once_in_order_stored_then_loaded() -> None:
    store, solver = MemoryWinTables(), CountingSolver()
    keeper = WinTableKeeper(store, solver)
    assert keeper.want(TINY, ENTRY), "on the way"
    assert keeper.want(TINY) and solver.solved == [], "asked twice, queued once; nothing blocks"
    await keeper.idle()
    assert solver.solved == [table_key(TINY), table_key(ENTRY)]
    assert keeper.ready(TINY) and keeper.ready(ENTRY) and set(store.saved) == set(solver.solved)
    assert keeper.want(TINY) is False, "ready: nothing more to wait for"

    again = CountingSolver()  # a restart: the database has them
    restarted = WinTableKeeper(store, again)
    restarted.start([TINY, Ruleset(target=1000, entry_minimum=500, three_farkles="reset")])  # no tables
    await restarted.idle()
    assert again.solved == [] and restarted.tables(TINY) is not None


async def test_damaged_tables_are_solved_again() -> None:
    store, solver = MemoryWinTables(), CountingSolver()
    store.saved[table_key(TINY)] = b"FWT1\x00\x00\x00\x00{}"
    keeper = WinTableKeeper(store, solver)
    keeper.want(TINY)
    await keeper.idle()
    assert solver.solved == [table_key(TINY)] and keeper.ready(TINY)


async def test_a_failed_solve_is_logged_and_the_next_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    async def failing_then_fine(rules: Ruleset) -> bytes:
        if rules is TINY:
            raise RuntimeError("the solver process stopped")
        return solve_winprob(rules).to_bytes()

    keeper = WinTableKeeper(MemoryWinTables(), failing_then_fine)
    with caplog.at_level(logging.ERROR, logger="bot.sessions.win_tables"):
        keeper.want(TINY, ENTRY)
        await keeper.idle()
    assert not keeper.ready(TINY) and keeper.ready(ENTRY)
    assert "could not be made; master plays as expert" in caplog.text
    assert keeper.want(TINY) is False, "no endless warming up after a failure"


async def test_with_solving_off_only_stored_tables_are_used() -> None:
    store = MemoryWinTables()
    store.saved[table_key(ENTRY)] = solve_winprob(ENTRY).to_bytes()
    keeper = WinTableKeeper(store, None)
    keeper.want(TINY, ENTRY)
    await keeper.idle()
    assert keeper.ready(ENTRY) and not keeper.ready(TINY)
    assert keeper.want(TINY) is False


async def test_the_worker_process_solves_and_a_shutdown_stops_it() -> None:
    data = await solve_in_process(TINY)
    assert data == solve_winprob(TINY).to_bytes()

    solving = asyncio.Event()

    async def solve_in_a_worker(rules: Ruleset) -> bytes:
        solving.set()  # this test runs again once the solve waits for its worker, started by then
        return await solve_in_process(rules)

    keeper = WinTableKeeper(MemoryWinTables(), solve_in_a_worker)
    keeper.want(Ruleset(target=8000))  # seconds of CPU after the worker starts: stopped long before
    await solving.wait()
    assert multiprocessing.active_children(), "the solve runs in its own process"
    await keeper.close()
    assert not multiprocessing.active_children(), "closing the bot stops the solver"


async def test_a_fresh_install_has_every_presets_tables_at_once_without_solving() -> None:
    store = MemoryWinTables()
    keeper = WinTableKeeper(store, None)  # solving off, nothing stored: the package's tables alone
    presets = [Ruleset.preset(name) for name in PRESET_NAMES]
    keeper.start(presets)
    await keeper.idle()
    assert all(keeper.ready(rules) for rules in presets if unsupported(rules) is None)
    assert store.saved == {}, "shipped tables are read from the package, not copied into the database"


async def test_shipped_tables_stay_in_their_files_until_a_game_reads_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Five presets, few played: their values are memory-mapped (read where a game looks, shared by
    the shard processes of a host) and no turn layout, nor any ruleset's scoring tables, is made at
    start-up."""
    scoring_tables.cache_clear()
    laid_out: list[Ruleset] = []
    monkeypatch.setattr(
        winprob, "win_game", lambda rules, margin: laid_out.append(rules) or win_game(rules, margin)
    )
    keeper = WinTableKeeper(MemoryWinTables(), None)
    keeper.start(Ruleset.preset(name) for name in PRESET_NAMES)
    await keeper.idle()
    for name in PRESET_NAMES:
        tables = keeper.tables(Ruleset.preset(name))
        assert tables is not None
        assert isinstance(mapping_under(tables._values), mmap.mmap), f"{name}: copied out of its file"
    assert laid_out == []
    assert scoring_tables.cache_info().currsize == 0, "scoring tables built for rules nobody plays"
    classic = keeper.tables(Ruleset.preset("classic"))
    assert classic is not None and 0 < classic.turn(0, 0).rolling(0, 6) < 1
    assert laid_out == [Ruleset.preset("classic")], "laid out for the rules played, once"
    assert scoring_tables.cache_info().currsize == 1


async def test_stale_shipped_tables_are_not_used_and_say_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A preset changed since its tables were built: the file's tables are another ruleset's."""
    stale = tmp_path / "classic.fwt"
    stale.write_bytes(solve_winprob(TINY).to_bytes(compress=False))
    monkeypatch.setattr(win_tables, "shipped_path", lambda preset: stale)
    classic = Ruleset.preset("classic")
    keeper = WinTableKeeper(MemoryWinTables(), None)
    keeper.start([classic])
    await keeper.idle()
    assert not keeper.ready(classic)
    assert "Shipped win tables for classic rules are stale" in caplog.text


def mapping_under(array: np.ndarray) -> object:
    """What an array's memory belongs to, through views and buffers."""
    owner: object = array
    while isinstance(owner, np.ndarray) and owner.base is not None:
        owner = owner.base
    return owner.obj if isinstance(owner, memoryview) else owner


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_shipped_tables_are_what_the_solver_makes_today(name: str) -> None:
    """Rebuild with scripts/build_win_tables.py when this fails: the solver or the preset changed.

    Each sampled state's turn is solved afresh from the shipped values around it; a solved table is the
    one whose every turn start gives back its own value (a full solve of a preset takes minutes)."""
    rules = Ruleset.preset(name)
    tables = WinTables.from_bytes(shipped_path(name).read_bytes())
    assert tables.key == table_key(rules), "the preset changed since its tables were built"
    sample = random.Random(name)
    unit, target = tables.unit, rules.target
    streaks = range(3) if rules.three_farkles != "none" else range(1)
    for _ in range(60):
        bank, other = (sample.randrange(0, target, unit) for _ in range(2))
        mine, theirs = sample.choice(streaks), sample.choice(streaks)
        turn = tables.turn(bank, other, mine, theirs)
        assert turn.rolling(0, 6) == pytest.approx(tables.value(bank, other, mine, theirs), abs=2e-6)


def test_the_bot_reads_tables_without_numba() -> None:
    """Numba (~60 MB, most of a second to import) is for the solver's worker process only, and
    `multiprocessing` for a bot that starts one."""
    check = (
        "import sys, bot.app.client, bot.engine.master;"
        "sys.exit('numba' in sys.modules or 'multiprocessing' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", check], check=False).returncode == 0
