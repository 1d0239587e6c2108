"""The shape a newcomer walks: folders that are layers, features that are packages, modules one can read."""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).parents[1]
SOURCE = [ROOT / "bot", ROOT / "cogs"]


def _modules(folder: Path) -> list[str]:
    return sorted(p.stem for p in folder.glob("*.py") if p.stem not in ("__init__", "__main__"))


def test_bot_holds_packages_not_loose_modules() -> None:
    assert len(_modules(ROOT / "bot")) <= 3, _modules(ROOT / "bot")


def test_a_feature_is_a_package_not_a_name_prefix() -> None:
    """Three modules named `tournament_*` in one folder are a package hiding in file names."""
    crowded = {}
    for top in SOURCE:
        for folder in [top, *(p for p in top.rglob("*") if p.is_dir() and p.name != "__pycache__")]:
            prefixes = Counter(name.split("_")[0] for name in _modules(folder) if "_" in name)
            crowded |= {f"{folder.relative_to(ROOT)}/{p}_*": n for p, n in prefixes.items() if n >= 3}
    assert crowded == {}


def test_every_module_reads_in_one_sitting() -> None:
    """At most 400 lines, 300 in the board edge (cogs/board/)."""
    too_long = {}
    for top in SOURCE:
        for path in top.rglob("*.py"):
            limit = 300 if path.parent.name == "board" and path.parent.parent.name == "cogs" else 400
            lines = len(path.read_text().splitlines())
            if lines > limit:
                too_long[str(path.relative_to(ROOT))] = lines
    assert too_long == {}


def test_the_client_keeps_to_the_clients_job() -> None:
    """`FarkleBot` configures, starts and stops the client; what else a process does has its own module."""
    tree = ast.parse((ROOT / "bot" / "app" / "client.py").read_text())
    (farkle_bot,) = (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "FarkleBot")
    assert farkle_bot.end_lineno is not None
    assert farkle_bot.end_lineno - farkle_bot.lineno + 1 <= 200


def test_only_the_wiring_subscribes_to_the_stream() -> None:
    """Every view of a game is a subscriber, and `bot/app/wiring.py` is the one place that registers them."""
    registering = re.compile(r"\.(subscribe|listen|post_with|also_forget)\(")
    found = {
        str(path.relative_to(ROOT))
        for top in SOURCE
        for path in top.rglob("*.py")
        if any(registering.search(line) and "def " not in line for line in path.read_text().splitlines())
    }
    assert found <= {"bot/app/wiring.py", "bot/sessions/manager.py"}, found
