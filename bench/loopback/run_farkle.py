"""The real Farkle bot, unmodified, pointed at the loopback server: `python -m loopback.run_farkle URL`.

The bench sets its environment (DISCORD_TOKEN, DATABASE_PATH, SOLVE_WIN_TABLES=false, GAME_* ...) and runs
it in an empty working directory, so no `.env` is read; `bot.__main__.main` does the rest as in production.
"""

from __future__ import annotations

import sys

from bot.__main__ import main

from .discord_url import point_discord_at
from .profiling import profile_on_signals

if __name__ == "__main__":
    point_discord_at(sys.argv[1])
    profile_on_signals()
    sys.exit(main(["run"]))
