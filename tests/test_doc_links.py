"""Every relative link between the README and the pages under docs/ leads somewhere: the file exists, and
a `#fragment` names a heading of that file (as GitHub makes its anchors), so a section moved to another
page is never a dead end."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


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
