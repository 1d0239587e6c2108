"""The engine keeps no hidden state: solved turns and win tables are handles passed in (`TurnPolicies`,
`WinTables`), never module registries that some other layer must fill before a call."""

from __future__ import annotations

import ast
from pathlib import Path

import bot.engine

ENGINE = Path(bot.engine.__file__).parent
_MUTATING = {"append", "extend", "insert", "pop", "popitem", "clear", "update", "setdefault"}
_MUTATING |= {"add", "discard", "remove"}
_CONTAINERS = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)
_CONTAINER_CALLS = {"dict", "list", "set", "defaultdict", "OrderedDict", "Counter", "deque"}
# Module containers that functions change, and why that is no registry.
ALLOWED = {
    ("dice.py", "_LAST_USED"): "one generator kept between rolls: the same numbers with it or without",
    ("rules/options.py", "_CHECKS"): "filled by the declarations below it at import, read only after",
    ("rules/options.py", "_KINDS"): "filled by the declarations below it at import, read only after",
    ("rules/options.py", "_OPTIONS"): "filled by the declarations below it at import, read only after",
}


def _module_containers(tree: ast.Module) -> set[str]:
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            value = node.value
            called = isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
            if isinstance(value, _CONTAINERS) or (called and value.func.id in _CONTAINER_CALLS):  # type: ignore[union-attr]
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names |= {target.id for target in targets if isinstance(target, ast.Name)}
    return names


def _changed_in_functions(tree: ast.Module, names: set[str]) -> set[str]:
    """Which of `names` some function body changes: item stores and deletes, or a mutating method call."""
    changed = set()
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store | ast.Del):
                target = node.value
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                target = node.func.value if node.func.attr in _MUTATING else None
            else:
                continue
            if isinstance(target, ast.Name) and target.id in names:
                changed.add(target.id)
    return changed


def registries(source: str) -> set[str]:
    """Module-level containers that functions of the module fill or change."""
    tree = ast.parse(source)
    return _changed_in_functions(tree, _module_containers(tree))


def test_the_scan_finds_a_registry_like_the_old_solver_cache() -> None:
    old = """
_SOLVED: dict[str, int] = {}
TABLE = {"a": 1}

def solve(key: str) -> int:
    if key not in _SOLVED:
        _SOLVED[key] = len(key)
    return _SOLVED[key] + TABLE["a"]

def forget() -> None:
    _CACHE.clear()
"""
    assert registries(old) == {"_SOLVED"}
    assert registries("_SEEN = []\ndef see(x):\n    _SEEN.append(x)\n") == {"_SEEN"}


def test_no_module_of_the_engine_keeps_a_registry() -> None:
    found = set()
    for path in sorted(ENGINE.rglob("*.py")):
        module = path.relative_to(ENGINE).as_posix()
        found |= {(module, name) for name in registries(path.read_text())}
    assert found - set(ALLOWED) == set(), "hand state in as a handle (see bot/engine/policies.py)"
    assert set(ALLOWED) <= found, "an allowed container is gone: drop it from ALLOWED"
