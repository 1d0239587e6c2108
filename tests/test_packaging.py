"""The package as an operator installs it: a built wheel, not the source tree, migrates from anywhere."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from setuptools import find_packages

from bot.storage.schema import revisions

ROOT = Path(__file__).parents[1]


@dataclass(frozen=True)
class Installed:
    """The built wheel, installed on its own into `target`, with the dependencies of this environment."""

    wheel: Path
    target: Path

    def env(self, folder: Path) -> dict[str, str]:
        """The wheel's copy comes first on the path; the database lives in `folder`."""
        return {**os.environ, "PYTHONPATH": str(self.target), "DATABASE_PATH": str(folder / "farkle.sqlite3")}

    def prints(self, code: str, folder: Path) -> str:
        """What the installed copy prints, run from `folder`, far from the source tree."""
        run = [sys.executable, "-c", code]
        done = subprocess.run(
            run, cwd=folder, env=self.env(folder), capture_output=True, text=True, check=True
        )
        return done.stdout


def image_sources() -> list[str]:
    """What the Dockerfile's build stage copies from the clone to build the wheel."""
    build_stage = (ROOT / "Dockerfile").read_text().split("\nFROM ")[1]  # up to the run stage's FROM
    copies = [line.split()[1:-1] for line in build_stage.splitlines() if line.startswith("COPY ")]
    return [source for sources in copies for source in sources]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """Built as the image builds it, from a fresh copy of what the Dockerfile copies: no `build/` left by
    an earlier build can hand the wheel a file its package data no longer names."""
    tmp_path = tmp_path_factory.mktemp("packaging")
    source, wheels, target = tmp_path / "source", tmp_path / "wheels", tmp_path / "site"
    source.mkdir()
    for name in image_sources():
        if (ROOT / name).is_dir():
            ignore = shutil.ignore_patterns("__pycache__")
            shutil.copytree(ROOT / name, source / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, source / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    build = ["wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(wheels), str(source)]
    subprocess.run([*pip, *build], check=True, cwd=tmp_path, timeout=300)
    (wheel,) = wheels.glob("farkle_bot-*.whl")
    install = ["install", "--no-deps", "--no-index", "--target", str(target), str(wheel)]
    subprocess.run([*pip, *install], check=True, timeout=300)
    return Installed(wheel, target)


def test_the_installed_wheel_migrates_from_an_unrelated_folder(installed: Installed, tmp_path: Path) -> None:
    elsewhere, env = tmp_path, installed.env(tmp_path)
    assert installed.prints("import bot; print(bot.__file__)", elsewhere).startswith(str(installed.target))
    faces = installed.prints(
        "from bot.app.emojis import face_image; print(sum(map(len, map(face_image, range(1, 7)))))", elsewhere
    )
    assert int(faces) > 6 * 1000, "the die faces ship in the wheel"
    german = installed.prints(
        "from bot.services.i18n import translator; print(translator('de').text('Join'))", elsewhere
    )
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


def test_the_wheel_holds_every_file_under_bot_assets_and_the_licence(installed: Installed) -> None:
    """Package data is listed by pattern: a new kind of asset the patterns miss fails here, not on a host."""
    shipped = set(zipfile.ZipFile(installed.wheel).namelist())
    assets = {
        file.relative_to(ROOT).as_posix() for file in (ROOT / "bot" / "assets").rglob("*") if file.is_file()
    }
    assert "bot/assets/level_skill.json" in assets
    assert assets - shipped == set(), "files under bot/assets/ missing from the wheel"
    assert {name for name in shipped if name.endswith("/licenses/LICENSE")}, "the licence ships"


def test_the_installed_wheel_shows_each_computer_level_with_its_measured_skill(
    installed: Installed, tmp_path: Path
) -> None:
    """Started from an empty folder, the installed copy labels each level of the lobby's Add computer
    buttons with the skill measured in the source tree's level_skill.json ("expert · skill 94")."""
    measured = json.loads((ROOT / "bot" / "assets" / "level_skill.json").read_text())["levels"]
    labels = installed.prints(
        "import json; from bot.engine import LEVELS; from bot.services.i18n import translator; "
        "from bot.render.levels import with_skill; "
        "print(json.dumps({level: with_skill(level, level, translator('en')) for level in LEVELS}))",
        tmp_path,
    )
    expected = {level: f"{level} · skill {round(figures['skill'])}" for level, figures in measured.items()}
    assert json.loads(labels) == expected


def test_the_image_copies_what_the_wheel_is_built_from() -> None:
    assert {"pyproject.toml", "README.md", "LICENSE", "bot", "cogs", "migrations"} <= set(image_sources())


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
