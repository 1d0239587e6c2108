"""What the pages under docs/ (and the README) name in code exists: a claim that points nowhere is a bug.

Every backticked reference that looks like code is checked against the source, read with `ast` (nothing
is imported, so discord.py is not needed):
- a path (`bot/sessions/stream.py`, `cogs/`, `render/config.py`) names a file or folder of the repository;
  a script run with options (`bench/storage.py --database-url …`) exists and takes those options; a name
  in a file (`tests/x.py::test_name`, `bot/app/discord_private.py:edit_in_answer`) is defined there;
- a dotted name from the bot's packages (`bot.render.components`, `cogs.board.delivery.board_scope`,
  `cogs.board.boards.Boards.show`) names a module, then a name it defines, then a member of that class;
- a symbol written right after a path (`bot/services/server_settings.py` (`ConfigService`),
  `components.py`: `Rendered`) is defined in that file;
- a table's column (`boards.shown_version`) is in the schema the migrations make;
- a name in a module written by the module's short name (`words.clip`, `schema.migration_lock`) is there;
- a constant (`CATCH_UP_PACE`) or a class member (`Ledger.landed`) is defined somewhere in the code, and
  a constant that is an environment variable is a field of the settings;
and every import-linter contract the architecture page cites by name (contract “…”) is in pyproject.toml.
"""

from __future__ import annotations

import ast
import re
import tempfile
import tomllib
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
import sqlalchemy

from bot.storage.schema import migrate

ROOT = Path(__file__).parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CODE_FOLDERS = ("bot", "cogs", "scripts", "bench", "tests", "migrations")
FENCE = re.compile(r"^ *```.*?^ *```", re.MULTILINE | re.DOTALL)  # indented ones too (in lists)
SPAN = re.compile(r"`((?:[^`\n]|\n(?! *\n))+)`")  # a code span may wrap onto the next line
PATH = re.compile(r"^[\w.*-]*(/[\w.*-]+)*(\.(py|md|toml|ya?ml|ini|cfg|json|sql|po|pot)|/)$")
DOTTED = re.compile(r"^(bot|cogs)(\.\w+)+$")
# What follows a path and names what it defines: `a.py` (`A`, `B`  or  `a.py`: `A`, `b()`
DEFINED_IN = re.compile(
    r"`([\w/.-]+\.py)`\s*(?:\(|:|,)\s*((?:`(?![\w/.-]+\.py`)[^`\n]+`(?:,\s*|\s+and\s+)?)+)"
)
COMMAND = re.compile(r"^((?:bench|scripts)/[\w/]+\.py) (.*)$")
OPTION = re.compile(r"(?<!\S)(--[a-z][\w-]*)")
IN_FILE = re.compile(
    r"^([\w/]+\.py)::?(\w+)$"
)  # `tests/x.py::test_name`, `bot/app/discord_private.py:edit_in_answer`
COLUMN = re.compile(r"^(\w+)\.(\w+)$")  # `boards.shown_version`, when `boards` is a table
DATA_FILE = re.compile(r"\.(sqlite3|png|json|pot?)$")
CONSTANT = re.compile(r"^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$")
MEMBER = re.compile(r"^([A-Z]\w*[a-z]\w*)\.(\w+)$")
SYMBOL = re.compile(r"^([A-Za-z_]\w*(?:\.(?!py$)\w+)?)(?:\(.*\))?$")
# Spans shaped like a path that name something else.
NOT_IN_THE_REPOSITORY = {
    "discord.py",  # the library
    "vNNNN_what_it_does.py",  # the shape of a new revision's file name
    "bot/locales/it/LC_MESSAGES/farkle.po",  # the file adding a language creates
}
CONTRACT = re.compile(r"contract\s+“([^”]+)”", re.IGNORECASE)


@cache
def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), str(path))


def assigned(body: list[ast.stmt]) -> Iterator[tuple[str, ast.stmt]]:
    """Names a module or class body binds, and where: defs, classes, (annotated) assignments, imports."""
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.name, node
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                yield from ((name.id, node) for name in ast.walk(target) if isinstance(name, ast.Name))
        elif isinstance(node, ast.AnnAssign | ast.AugAssign) and isinstance(node.target, ast.Name):
            yield node.target.id, node
        elif isinstance(node, ast.Import | ast.ImportFrom):
            yield from ((alias.asname or alias.name.split(".")[0], node) for alias in node.names)
        elif isinstance(node, ast.If | ast.Try):  # TYPE_CHECKING blocks, optional imports
            yield from assigned(node.body)


def defines(path: Path, symbol: str) -> bool:
    """`name` or `Class.member` is bound in the file (a class's member in its body, or as `self.member`)."""
    head, _, member = symbol.partition(".")
    found = dict(assigned(parsed(path).body)).get(head)
    if found is None or not member:
        return found is not None
    if not isinstance(found, ast.ClassDef):
        return False
    return member in dict(assigned(found.body)) or member in instance_attributes(found)


def instance_attributes(cls: ast.ClassDef) -> set[str]:
    return {
        node.attr
        for node in ast.walk(cls)
        if isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Store)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    }


@cache
def source_files() -> tuple[Path, ...]:
    return tuple(file for folder in CODE_FOLDERS for file in sorted((ROOT / folder).rglob("*.py")))


def module_file(dotted: str) -> Path | None:
    base = ROOT.joinpath(*dotted.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


@cache
def mapped_packages() -> dict[str, str]:
    """Packages the wheel maps from another folder (`bot.migrations` is `migrations/`)."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    return dict(setuptools.get("package-dir", {}))


def dotted_exists(dotted: str) -> bool:
    """The longest prefix that is a module; what is left is a name it defines (and a member of it)."""
    for package, folder in mapped_packages().items():
        if dotted == package:
            return (ROOT / folder).is_dir()
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        module = module_file(".".join(parts[:cut]))
        if module is not None:
            rest = parts[cut:]
            return not rest or (len(rest) <= 2 and defines(module, ".".join(rest)))
    return False


@cache
def module_names() -> dict[str, list[Path]]:
    """Each module by every tail of its dotted name (`words`, `render.words`, `bot.render.words`)."""
    tails: dict[str, list[Path]] = {}
    for file in source_files():
        if file.is_relative_to(ROOT / "migrations"):  # Alembic's `env.py` is nobody's `env`
            continue
        parts = file.relative_to(ROOT).with_suffix("").parts
        parts = parts[:-1] if parts[-1] == "__init__" else parts
        for start in range(len(parts)):
            tails.setdefault(".".join(parts[start:]), []).append(file)
    return tails


def tail_exists(dotted: str) -> bool | None:
    """`words.clip`, `render.components.without_buttons`: a name in a module named by its tail; None when
    no module of the code has that name (`time.perf_counter` is the standard library's)."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        modules = module_names().get(".".join(parts[:cut]))
        if modules:
            return any(defines(module, ".".join(parts[cut:])) for module in modules)
    return None


@cache
def schema_columns() -> dict[str, set[str]]:
    """The tables and columns of a database migrated to the head revision (SQLite, in a scratch file)."""
    with tempfile.TemporaryDirectory() as folder:
        engine = sqlalchemy.create_engine(f"sqlite:///{folder}/schema.sqlite3")
        with engine.connect() as connection:
            migrate(connection)
            inspector = sqlalchemy.inspect(connection)
            columns = {
                table: {column["name"] for column in inspector.get_columns(table)}
                for table in inspector.get_table_names()
            }
        engine.dispose()
    return columns


def path_exists(reference: str, page: Path) -> bool:
    """Relative to the page, the repository or `bot/`; a bare file or folder name anywhere in the code."""
    bases = [page.parent, ROOT, ROOT / "bot"]
    if any(list(base.glob(reference.rstrip("/"))) for base in bases):
        return True
    if "/" in reference.rstrip("/"):
        return False
    name = reference.rstrip("/")
    return any(
        (match.is_dir() if reference.endswith("/") else match.is_file())
        for folder in CODE_FOLDERS
        for match in (ROOT / folder).rglob(name)
    )


def files_named(reference: str, page: Path) -> list[Path]:
    """The files a path written before a symbol can mean (`publish.py` is any module of that name)."""
    exact = [base / reference for base in (page.parent, ROOT, ROOT / "bot") if (base / reference).is_file()]
    return exact or [file for file in source_files() if file.as_posix().endswith("/" + reference)]


@cache
def settings_variables() -> frozenset[str]:
    """Environment variables: each settings class's fields, upper-cased behind its `env_prefix`."""
    names = set()
    for cls in ast.walk(parsed(ROOT / "bot" / "core" / "environment.py")):
        if isinstance(cls, ast.ClassDef):
            prefixes = [
                keyword.value.value
                for keyword in ast.walk(cls)
                if isinstance(keyword, ast.keyword)
                and keyword.arg == "env_prefix"
                and isinstance(keyword.value, ast.Constant)
            ]
            prefix = str(prefixes[0]) if prefixes else ""
            names |= {
                prefix + name.upper() for name, node in assigned(cls.body) if isinstance(node, ast.AnnAssign)
            }
    return frozenset(names)


@cache
def example_variables() -> frozenset[str]:
    """Variables the operator sets for compose rather than for the bot (`.env.example`)."""
    return frozenset(
        re.findall(r"^#?\s*([A-Z][A-Z0-9_]*)=", (ROOT / ".env.example").read_text(), re.MULTILINE)
    )


def defined_anywhere(symbol: str) -> bool:
    return any(defines(file, symbol) for file in source_files())


def defined_in_file(path: Path, symbol: str) -> bool:
    """At the top of the file, or as a member of one of its classes (`game.py`, `_remove`)."""
    classes = [node.name for node in parsed(path).body if isinstance(node, ast.ClassDef)]
    return defines(path, symbol) or any(defines(path, f"{cls}.{symbol}") for cls in classes)


def broken_references(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text())
    broken = []
    for span in (" ".join(found.split()) for found in SPAN.findall(text)):
        if span in NOT_IN_THE_REPOSITORY or "://" in span:
            continue
        if command := COMMAND.match(span):  # `bench/storage.py --database-url …`: the script takes it
            if not (ROOT / command[1]).is_file() or not all(
                f'"{option}"' in (ROOT / command[1]).read_text() for option in OPTION.findall(command[2])
            ):
                broken.append(span)
            continue
        if named := IN_FILE.match(span):
            if not (ROOT / named[1]).is_file() or not defines(ROOT / named[1], named[2]):
                broken.append(span)
            continue
        if " " in span:
            continue
        if (PATH.match(span) and "/" in span) or span.endswith(".py"):
            ok = path_exists(span, page)
        elif DOTTED.match(span):
            ok = dotted_exists(span)
        elif DATA_FILE.search(span):
            continue
        elif (column := COLUMN.match(span)) and column[1] in schema_columns():
            ok = column[2] in schema_columns()[column[1]]
        elif (dotted := SYMBOL.match(span)) and "." in dotted[1] and dotted[1][0].islower():
            ok = tail_exists(dotted[1]) is not False
        elif CONSTANT.match(span):
            ok = span in settings_variables() | example_variables() or defined_anywhere(span)
        elif (member := MEMBER.match(span)) and defined_anywhere(member[1]):  # not discord.py's classes
            ok = defined_anywhere(span)
        else:
            continue
        if not ok:
            broken.append(span)
    for path, listed in DEFINED_IN.findall(text):
        files = files_named(path, page)
        for span in SPAN.findall(listed):
            symbol = SYMBOL.match(span)
            if files and symbol and not any(defined_in_file(file, symbol[1]) for file in files):
                broken.append(f"{path}: {span}")
    return broken


def contract_names() -> set[str]:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return {contract["name"] for contract in pyproject["tool"]["importlinter"]["contracts"]}


def test_a_renamed_symbol_or_moved_file_is_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "The stream (`bot/sessions/stream.py`, `bot.sessions.stream.GameStream`), its `GameStream.publish`, "
        "`bot/render/stats.py` (`PAGE_TEMPLATE`) and `CATCH_UP_PACE`, set by `GAME_TURN_TIMEOUT`; "
        "`boards.shown_version`, `words.clip`, `bench/storage.py --database-url x`, "
        "`tests/test_doc_links.py::test_every_relative_link_resolves`, "
        "`bot/app/discord_private.py:edit_in_answer`.\n"
        "Gone: `bot/sessions/river.py`, `bot.sessions.stream.GameRiver`, `cogs.board.boards.Boards.vanish`, "
        "`GameStream.vanish`, `bot/render/components.py` (`PAGE_TEMPLATE`), `NO_SUCH_PACE`, "
        "`bench/storage.py --no-such-option`, `tests/test_doc_links.py::test_gone`, "
        "`boards.shown_versions`, `words.clipped`, `bot/app/discord_private.py:edit_in_reply`.\n"
        "A span wrapped `across(a,\nb)` keeps the pairs: `bot/sessions/pond.py`.\n"
        "```\n`bot/in/a/drawing.py`\n```\n  ```\n  `bot/in/a/listed/drawing.py`\n  ```\n"
    )
    assert broken_references(page) == [
        "bot/sessions/river.py",
        "bot.sessions.stream.GameRiver",
        "cogs.board.boards.Boards.vanish",
        "GameStream.vanish",
        "NO_SUCH_PACE",
        "bench/storage.py --no-such-option",
        "tests/test_doc_links.py::test_gone",
        "boards.shown_versions",
        "words.clipped",
        "bot/app/discord_private.py:edit_in_reply",
        "bot/sessions/pond.py",
        "bot/render/components.py: PAGE_TEMPLATE",
    ]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_code_reference_exists(page: Path) -> None:
    assert not broken_references(page), f"{page.name}: {broken_references(page)}"


def cited_contracts(page: Path) -> set[str]:
    return set(CONTRACT.findall(page.read_text()))


def test_the_contracts_the_architecture_cites_are_the_contracts_in_pyproject() -> None:
    assert cited_contracts(ROOT / "docs" / "ARCHITECTURE.md") == contract_names()


def test_a_renamed_contract_is_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "Contract “Storage knows rows, not sessions or the game” and contract\n“Storage knows rows”.\n"
    )
    assert cited_contracts(page) - contract_names() == {"Storage knows rows"}


# Columns that hold who a member is: a table with one is a member's data, which docs/PRIVACY.md must name.
PERSON_COLUMNS = {"user_id", "user_name", "owner_id", "host_id", "winner_id", "saved_by"}


def tables_named(page: Path) -> set[str]:
    """The schema's tables a page names in code spans: alone (`player_stats`) or by a column (`games.id`)."""
    spans = SPAN.findall(FENCE.sub("", page.read_text()))
    return {span.split(".")[0] for span in spans if re.fullmatch(r"\w+(\.\w+)?", span)} & set(
        schema_columns()
    )


def tables_of_members() -> set[str]:
    return {table for table, columns in schema_columns().items() if columns & PERSON_COLUMNS}


def test_the_privacy_page_names_every_table_that_holds_a_member() -> None:
    """A new table keeping members' ids is a new thing a host must tell members about."""
    assert tables_of_members() - tables_named(ROOT / "docs" / "PRIVACY.md") == set()


def test_a_member_table_left_out_of_the_privacy_page_is_found(tmp_path: Path) -> None:
    page = tmp_path / "PRIVACY.md"
    page.write_text("Kept: `player_stats.name`, `games.actions`, `achievements`, `no_such_table`.\n")
    assert tables_named(page) == {"player_stats", "games", "achievements"}
    assert {"daily_attempts", "config_audit"} <= tables_of_members() - tables_named(page)


def test_the_architecture_page_is_one_page() -> None:
    """A map a newcomer reads in one sitting: the depth lives in DESIGN.md."""
    lines = (ROOT / "docs" / "ARCHITECTURE.md").read_text().splitlines()
    assert len(lines) <= 250
    assert max(map(len, lines)) <= 200
