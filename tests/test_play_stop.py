"""`make play` stops on Ctrl-C: exit status 0, its throw-away database gone, or kept where --keep said."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_until_ready(tmp_path: Path, *options: str) -> subprocess.Popen[str]:
    play = subprocess.Popen(
        [sys.executable, ROOT / "scripts" / "play.py", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    assert play.stdout is not None
    line = play.stdout.readline()
    assert line.startswith("Farkle is ready at http://127.0.0.1:") and "/#" in line, line
    assert '(you are Alex, with Manage Server; "Viewing as" plays as Sam.' in line, "who is who on the page"
    return play


@pytest.mark.parametrize("keep", [False, True])
def test_ctrl_c_stops_cleanly_and_removes_the_database_unless_kept(tmp_path: Path, keep: bool) -> None:
    kept = tmp_path / "kept" / "game.sqlite3"
    kept.parent.mkdir()
    play = run_until_ready(tmp_path, *(["--keep", str(kept)] if keep else []))
    play.send_signal(signal.SIGINT)
    _, errors = play.communicate(timeout=60)
    assert play.returncode == 0, errors
    assert "Traceback" not in errors
    assert not list(tmp_path.glob("farkle-play-*"))
    assert kept.exists() == keep
