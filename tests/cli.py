"""Running `python -m bot` as an operator does: a subprocess in its own folder, with a clean environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# The right shape for a bot token, so start-up gets past the token check; no real bot's token.
TOKEN_SHAPED = "MTA" + "x" * 21 + ".GAbcde." + "y" * 30


def run_bot(
    cwd: Path, *args: str, prefix: tuple[str, ...] = (), python: str = sys.executable, **env: str
) -> subprocess.CompletedProcess[str]:
    """Run the bot's command line; a timeout fails the test (a start-up that hangs is a bug)."""
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "DATABASE_", "GAME_", "LOG_", "DEV_GUILD"))
    }
    clean.update(env)
    return subprocess.run(
        [*prefix, python, "-m", "bot", *args],
        cwd=cwd,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    """The single stderr line of a refused start (exit status 2), never a traceback."""
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert result.returncode == 2, result.stderr
    return lines[0]
