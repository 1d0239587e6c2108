"""Every relative link between the README and the pages under docs/ leads somewhere: the file exists, and
a `#fragment` names a heading of that file (as GitHub makes its anchors), so a section moved to another
page is never a dead end. A section named in words (`PAGE.md, "Section"`) is a heading of that page.

The files a host copies and runs say only true things too: the pages `.env.example`, `compose.yaml` and the
Dockerfile point to exist, and every variable they set or name is one the bot reads (or one they set for
another program). The pages' rating formula is the code's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic_settings import BaseSettings

from bot.core.environment import Settings
from bot.services.ratings import FRIENDLY_BASE, FRIENDLY_STEP, friendly

ROOT = Path(__file__).parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
HOST_FILES = [ROOT / ".env.example", ROOT / "compose.yaml", ROOT / "Dockerfile"]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
# A page named in a comment: `docs/OPERATIONS.md#scaling`, `README.md`.
PAGE_PATH = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.md)(?:#([\w-]+))?")
# A section named in words: (README, "Scaling"), PERFORMANCE.md, “The bot under load”.
SECTION = re.compile(r"\b(README|[\w/-]+\.md)(?:\]\([^)]*\))?,\s+[\"“']([^\"”']+)[\"”']")
VARIABLE = re.compile(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b")
# Variables these files set for other programs: Python, numba's cache, compose's PostgreSQL image.
NOT_THE_BOTS = {
    "PYTHONDONTWRITEBYTECODE",
    "PYTHONUNBUFFERED",
    "NUMBA_CACHE_DIR",
    "POSTGRES_USER",
    "POSTGRES_DB",
}
# Set in .env for compose.yaml (its PostgreSQL password), never read by the bot.
FOR_COMPOSE = {"POSTGRES_PASSWORD"}


def anchors(page: Path) -> set[str]:
    """GitHub's anchors: a heading lower-cased, punctuation dropped, spaces turned into hyphens."""
    headings = re.findall(r"^#{1,6} (.+)$", FENCE.sub("", page.read_text()), flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-") for heading in headings}


def relative_links(page: Path) -> list[str]:
    return [
        target
        for target in LINK.findall(FENCE.sub("", page.read_text()))
        if not re.match(r"[a-z]+:", target)  # https:, mailto:
    ]


def test_github_anchors_are_made_as_github_makes_them(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Top\n## `make play` in a browser\n### Master and the Hint's chances\n")
    assert anchors(page) == {"top", "make-play-in-a-browser", "master-and-the-hints-chances"}


def test_a_broken_link_is_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "[gone](missing.md) [here](#nowhere) [web](https://example.com)\n```\n[code](x.md)\n```\n"
    )
    assert relative_links(page) == ["missing.md", "#nowhere"]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for target in relative_links(page):
        path, _, fragment = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        missing_anchor = fragment and linked.suffix == ".md" and fragment not in anchors(linked)
        if not linked.exists() or missing_anchor:
            broken.append(target)
    assert not broken, f"{page.name}: {broken}"


def test_the_readme_reaches_every_page_under_docs() -> None:
    linked = {(ROOT / target.partition("#")[0]).resolve() for target in relative_links(ROOT / "README.md")}
    assert {page.resolve() for page in PAGES[1:]} <= linked


def comments(file: Path) -> str:
    """What a host reads in the file besides its settings: its `#` comments (compose.yaml's and the
    Dockerfile's after the code on the line too)."""
    return "\n".join(line.split("#", 1)[1] for line in file.read_text().splitlines() if "#" in line)


def page_named(name: str, near: Path) -> Path:
    """`README` or a page's path, as a comment or a page names it: from the file's folder or its docs/, or
    the repository's."""
    name = "README.md" if name == "README" else name
    for base in (near.parent, near.parent / "docs", ROOT, ROOT / "docs"):
        if (base / name).is_file():
            return base / name
    return near.parent / name


def broken_pointers(file: Path, text: str) -> list[str]:
    """Pages, anchors and worded sections the text names that do not exist."""
    broken = []
    for path, fragment in PAGE_PATH.findall(text):
        page = page_named(path, file)
        if not page.is_file() or (fragment and fragment not in anchors(page)):
            broken.append(f"{path}#{fragment}" if fragment else path)
    for name, section in SECTION.findall(text):
        page = page_named(name, file)
        wanted = re.sub(r"[^\w\- ]", "", section.strip().lower()).replace(" ", "-")
        if not page.is_file() or wanted not in anchors(page):
            broken.append(f'{name}, "{section}"')
    return broken


def setting_variables() -> set[str]:
    """The environment variables the bot reads: its settings' fields, a nested group's behind its prefix."""
    names = set()
    for name, field in Settings.model_fields.items():
        group = field.annotation
        if isinstance(group, type) and issubclass(group, BaseSettings):
            prefix = str(group.model_config.get("env_prefix", ""))
            names |= {f"{prefix}{member}".upper() for member in group.model_fields}
        else:
            names.add(name.upper())
    return names


def test_pointers_to_a_moved_section_are_found(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "OPS.md").write_text("# Ops\n## Scaling\n")
    file = tmp_path / ".env.example"
    text = (
        "# Shards (docs/OPS.md#scaling, docs/OPS.md, 'Scaling'); gone: docs/OPS.md#sharding, docs/GONE.md,\n"
        '# OPS.md, "Measured"; https://example.com/a.md is no page here\n'
    )
    file.write_text(text)
    assert broken_pointers(file, comments(file)) == [
        "docs/OPS.md#sharding",
        "docs/GONE.md",
        'OPS.md, "Measured"',
    ]


@pytest.mark.parametrize("file", HOST_FILES + PAGES, ids=lambda file: file.name)
def test_every_page_and_section_a_host_file_or_page_names_exists(file: Path) -> None:
    text = comments(file) if file in HOST_FILES else FENCE.sub("", file.read_text())
    assert not broken_pointers(file, text), f"{file.name}: {broken_pointers(file, text)}"


@pytest.mark.parametrize("file", HOST_FILES, ids=lambda file: file.name)
def test_every_variable_a_host_file_sets_or_names_is_read(file: Path) -> None:
    text = file.read_text()
    named = set(VARIABLE.findall(comments(file)))
    set_here = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]*)=", text, re.MULTILINE))  # .env.example
    set_here |= set(re.findall(r"^\s+([A-Z][A-Z0-9_]*):", text, re.MULTILINE))  # compose's environment
    set_here |= set(re.findall(r"(?:ENV|\\)\s+([A-Z][A-Z0-9_]*)=", text))  # the Dockerfile's ENV
    unknown = (named | set_here) - setting_variables() - NOT_THE_BOTS - FOR_COMPOSE
    assert not unknown, f"{file.name} names variables the bot does not read: {sorted(unknown)}"
    assert set_here, f"{file.name}: no variable found (the patterns above no longer read it)"


def test_env_example_lists_every_setting() -> None:
    listed = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]*)=", (ROOT / ".env.example").read_text(), re.MULTILINE))
    assert setting_variables() <= listed


def test_the_rating_formula_the_pages_write_is_the_codes() -> None:
    """ "1,000 + 40 × (μ − 3σ)": 40 times the whole of μ − 3σ, as `bot.ratings.friendly` computes."""
    written = [
        (page.name, base, step, rest)
        for page in PAGES
        for base, step, rest in re.findall(r"([\d,]+) \+ (\d+) × ([^,;:]*)", page.read_text())
        if "σ" in rest
    ]
    assert written, "no page writes the formula"
    for name, base, step, rest in written:
        assert (int(base.replace(",", "")), int(step)) == (FRIENDLY_BASE, FRIENDLY_STEP), name
        assert "(μ − 3σ)" in rest, f"{name}: {base} + {step} × {rest}"
    assert friendly(30.0, 2.0) == FRIENDLY_BASE + FRIENDLY_STEP * (30.0 - 3 * 2.0)


def test_every_screenshot_is_shown_on_a_page() -> None:
    """A picture nobody links goes stale unseen: each one under docs/screenshots/ is on a page."""
    shown = {
        (page.parent / target.partition("#")[0]).resolve()
        for page in PAGES
        for target in relative_links(page)
    }
    pictures = {picture.resolve() for picture in (ROOT / "docs" / "screenshots").glob("*.png")}
    assert pictures, "no screenshots found"
    assert pictures - shown == set()
