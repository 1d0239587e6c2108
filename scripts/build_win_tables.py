"""Solve the presets' win tables and write them into the package (bot/assets/win_tables/NAME.fwt, float32
values uncompressed: the bot memory-maps them).

The bot loads these at start-up, so master and the Hint's chances work from its first second on a fresh
database. Rebuild after any change to the solver or to a preset (tests/sessions/test_win_tables.py
fails until then):

    nice -n 10 .venv/bin/python scripts/build_win_tables.py            # every preset (~1.5 min of one core)
    nice -n 10 .venv/bin/python scripts/build_win_tables.py classic    # some of them
"""

from __future__ import annotations

import sys
import time

from bot.engine.rules import PRESET_NAMES, Ruleset
from bot.engine.win.solve import solve_winprob
from bot.engine.win.tables import unsupported
from bot.sessions.win_tables import shipped_path


def main(names: list[str]) -> None:
    for name in names or PRESET_NAMES:
        rules = Ruleset.preset(name)
        if unsupported(rules) is not None:
            print(f"{name}: no tables ({unsupported(rules)})")
            continue
        started = time.perf_counter()
        data = solve_winprob(rules).to_bytes(compress=False)  # read in place by the bot
        shipped_path(name).write_bytes(data)
        print(f"{name}: {time.perf_counter() - started:.0f} s, {len(data) // 1024} KiB", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
