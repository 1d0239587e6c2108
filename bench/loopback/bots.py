"""A bot under test as its own process: started, measured from /proc, killed, started again.

It runs in an empty working directory (no `.env` is read) with only the environment the bench gives
it; its log goes to `bot.log` there, and the last lines are shown if it dies.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from .payloads import BENCH_TOKEN

BENCH_DIR = Path(__file__).resolve().parents[1]
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
IDLE_CPU = 2 / CLOCK_TICKS  # an idle bot's CPU over a quiet spell: its heartbeat, and /proc's rounding
FARKLE_ENV = {
    "DATABASE_PATH": "farkle.sqlite3",
    "SOLVE_WIN_TABLES": "false",  # minutes of CPU per preset in a worker process: not what is measured
    "GAME_COMPUTER_PAUSE": "0",
    # Timers at their longest: a paced run of minutes must not see a turn expire and move a board.
    "GAME_TURN_TIMEOUT": "3600",
    "GAME_LOBBY_TIMEOUT": "86400",
    "LOG_LEVEL": "WARNING",
}


class BotDied(RuntimeError):
    pass


class BotProcess:
    """`module` is `loopback.run_farkle` or `loopback.trivial_bot`, run with `python -m` against `url`;
    `env` adds to what it inherits (BENCH_PROFILE, say)."""

    def __init__(self, module: str, url: str, workdir: Path, env: dict[str, str]) -> None:
        self.module = module
        self.url = url
        self.workdir = workdir
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("GAME_", "DISCORD_", "DATABASE_"))},
            **env,
            "DISCORD_TOKEN": BENCH_TOKEN,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(BENCH_DIR), os.environ.get("PYTHONPATH")])),
            "PYTHONUNBUFFERED": "1",
        }
        self.log = workdir / "bot.log"
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        assert self._process is not None, "the bot is not running"
        return self._process.pid

    def start(self) -> None:
        with self.log.open("ab") as log:
            self._process = subprocess.Popen(
                [sys.executable, "-m", self.module, self.url],
                cwd=self.workdir,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def check_alive(self) -> None:
        if self._process is not None and self._process.poll() is not None:
            tail = self.log.read_text(errors="replace").splitlines()[-25:]
            raise BotDied(f"{self.module} exited with {self._process.returncode}:\n" + "\n".join(tail))

    def kill(self) -> None:
        """SIGKILL: nothing is flushed or closed, as when a host dies."""
        if self._process is not None:
            self._process.kill()
            self._process.wait()

    def stop(self) -> None:
        """Ctrl-C, so the bot closes its connection and database; killed if it takes over 10 s."""
        if self._process is None or self._process.poll() is not None:
            return
        self._process.send_signal(signal.SIGINT)
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()

    def signal(self, number: int) -> None:
        os.kill(self.pid, number)

    def rss(self) -> int:
        """Resident memory in bytes (VmRSS)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        raise BotDied(f"{self.module} has no VmRSS: it is gone")

    def cpu(self) -> float:
        """User plus system CPU seconds of the whole process, every thread."""
        return _cpu_seconds(Path(f"/proc/{self.pid}/stat"))

    async def idle(self, quiet: float = 0.3, within: float = 120.0) -> None:
        """Wait until the process spends no CPU for `quiet` s: what it does after its answers without a
        request for a while (a solve before a ping, the collector) stays in the shape that caused it."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            before = self.cpu()
            await asyncio.sleep(quiet)
            if self.cpu() - before <= IDLE_CPU:
                return
        raise TimeoutError(f"{self.module} was still busy after {within} s")

    def cpu_with_children(self) -> float:
        """`cpu()` plus its live child processes' (a win-table solver) and the finished ones'."""
        stat = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        finished = (int(stat[13]) + int(stat[14])) / CLOCK_TICKS
        live = 0.0
        for task in Path(f"/proc/{self.pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                live += _cpu_seconds(Path(f"/proc/{child}/stat"))
        return self.cpu() + finished + live

    def thread_cpu(self) -> dict[int, float]:
        """CPU seconds per thread id; the main thread's id is the pid."""
        tasks = Path(f"/proc/{self.pid}/task")
        return {int(task.name): _cpu_seconds(task / "stat") for task in tasks.iterdir()}


def _cpu_seconds(stat: Path) -> float:
    # The command name (field 2) may hold spaces; utime and stime are fields 14 and 15.
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
