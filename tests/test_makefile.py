"""The Makefile's entry points from a fresh clone, as make itself reads them (`make -n`, nothing run): a
host's `make run` installs the bot's own dependencies only, while `make test`, `make play` and `make install`
bring the tools they run (pytest, mypy, ruff, SimCord, Playwright)."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
TOOLS = {"pytest", "mypy", "ruff", "playwright", "simcord"}

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def installs(target: str, clone: Path) -> list[str]:
    """The `pip install` commands `make TARGET` would run in a clone that has installed nothing yet."""
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy2(ROOT / name, clone / name)
    dry = ["make", "-n", "--no-print-directory", "-C", str(clone), target]
    commands = subprocess.run(dry, capture_output=True, text=True, check=True, timeout=30).stdout
    return [line for line in commands.splitlines() if "pip install" in line]


def requirement_name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0].lower()


def test_make_run_installs_the_bot_without_extras(tmp_path: Path) -> None:
    (install,) = installs("run", tmp_path)
    assert install.split()[-2:] == ["-e", "."], install


def test_the_bots_own_dependencies_hold_none_of_the_tools() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert {requirement_name(r) for r in project["dependencies"]} & TOOLS == set()
    extras = project["optional-dependencies"]
    assert {requirement_name(r) for r in extras["dev"] + extras["play"]} >= TOOLS


@pytest.mark.parametrize("target", ["test", "play", "install", "lint"])
def test_the_tools_come_with_the_targets_that_run_them(target: str, tmp_path: Path) -> None:
    assert [line.split()[-1] for line in installs(target, tmp_path)] == ["'.[dev,play]'"]
