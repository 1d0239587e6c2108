"""The package as an operator installs it: a built wheel, not the source tree, migrates from anywhere."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import tomllib
from pathlib import Path

from setuptools import find_packages

from bot.storage.schema import revisions

ROOT = Path(__file__).parents[1]


def test_the_installed_wheel_migrates_from_an_unrelated_folder(tmp_path: Path) -> None:
    wheels, target, elsewhere = tmp_path / "wheels", tmp_path / "site", tmp_path / "elsewhere"
    elsewhere.mkdir()
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    build = ["wheel", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(ROOT)]
    subprocess.run([*pip, *build], check=True, cwd=tmp_path, timeout=300)
    (wheel,) = wheels.glob("farkle_bot-*.whl")
    subprocess.run(
        [*pip, "install", "--no-deps", "--target", str(target), str(wheel)], check=True, timeout=300
    )
    # The wheel's copy comes first on the path; the dependencies come from this environment.
    env = {**os.environ, "PYTHONPATH": str(target), "DATABASE_PATH": str(elsewhere / "farkle.sqlite3")}

    def installed(code: str) -> str:
        """What the installed copy prints, run from a folder far from the source tree."""
        run = [sys.executable, "-c", code]
        return subprocess.run(run, cwd=elsewhere, env=env, capture_output=True, text=True, check=True).stdout

    assert installed("import bot; print(bot.__file__)").startswith(str(target)), "the installed copy runs"
    faces = installed(
        "from bot.app.emojis import face_image; print(sum(map(len, map(face_image, range(1, 7)))))"
    )
    assert int(faces) > 6 * 1000, "the die faces ship in the wheel"
    german = installed("from bot.services.i18n import translator; print(translator('de').text('Join'))")
    assert german.strip() == "Beitreten", "the message catalogues ship in the wheel"
    result = subprocess.run(
        [sys.executable, "-m", "bot", "migrate"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "Migrations applied: ['0009', '0010'" in result.stdout
    with sqlite3.connect(elsewhere / "farkle.sqlite3") as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"sessions", "games", "player_stats", "guild_config", "solver_cache"} <= tables


def test_the_listed_packages_are_every_package_of_the_source_tree() -> None:
    """pyproject lists the packages (a mapped folder is not found by `packages.find`): none forgotten."""
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = set(find_packages(str(ROOT), include=["bot*", "cogs*"]))
    mapped = {f"bot.{name}" for name in find_packages(str(ROOT), include=["migrations*"])}
    assert listed == found | mapped | {"bot.migrations"}


def test_alembic_migrates_the_database_the_settings_name_from_a_clone(tmp_path: Path) -> None:
    """Alembic's own command line, as its users expect, from any folder: `alembic -c alembic.ini ...`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "PYTHONPATH"))}
    env["DATABASE_PATH"] = str(tmp_path / "data" / "farkle.sqlite3")
    alembic = [sys.executable, "-m", "alembic", "-c", str(ROOT / "alembic.ini")]
    result = subprocess.run(
        [*alembic, "upgrade", "head"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(tmp_path / "data" / "farkle.sqlite3") as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [(revisions()[-1],)]
    current = subprocess.run([*alembic, "current"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert f"{revisions()[-1]} (head)" in current.stdout
