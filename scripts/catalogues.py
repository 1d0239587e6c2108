"""Regenerate the message template from the source and bring every language's catalogue in line with it.

    python scripts/catalogues.py           # rewrite bot/locales/farkle.pot, update each farkle.po
    python scripts/catalogues.py --check   # exit 1 when the committed template is out of date

Message ids are the English sentences marked by `Message(...)`, `Message.plural(...)` / `tr.plural(...)`,
`tr.text(...)`, `N_(...)` and `locale_str(...)` (see `bot/engine/messages.py`). Updating a catalogue adds
new message ids untranslated and marks changed ones fuzzy: `tests/test_catalogues.py` fails until a
translator has filled them in. A new language: `pybabel init -i bot/locales/farkle.pot -d bot/locales
-D farkle -l <locale>`, then add it to `LANGUAGES` in `bot/core/server_settings.py`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALES = ROOT / "bot" / "locales"
TEMPLATE = LOCALES / "farkle.pot"
KEYWORDS = {"Message": None, "N_": None, "text": None, "locale_str": None, "plural": (1, 2)}


def extract() -> Catalog:
    """Every message id in the source, in a fresh template (no line numbers: they churn on every edit)."""
    with (ROOT / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    catalog = Catalog(project="farkle-bot", domain="farkle", fuzzy=False)
    found = extract_from_dir(
        ROOT, method_map, options_map, keywords=KEYWORDS, comment_tags=(), strip_comment_tags=True
    )
    for _, _, message, _, _ in found:
        catalog.add(message)
    return catalog


def read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=locale)


def write(catalog: Catalog, path: Path) -> None:
    with path.open("wb") as target:
        write_po(target, catalog, width=110, no_location=True, omit_header=False, sort_output=True)


def message_ids(catalog: Catalog) -> set[object]:
    return {message.id for message in catalog if message.id}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether the template is up to date")
    args = parser.parse_args()
    template = extract()
    if args.check:
        stale = message_ids(template) != message_ids(read(TEMPLATE))
        print("farkle.pot is out of date: run scripts/catalogues.py" if stale else "farkle.pot is up to date")
        return 1 if stale else 0
    write(template, TEMPLATE)
    for po in sorted(LOCALES.glob("*/LC_MESSAGES/farkle.po")):
        catalog = read(po, po.parts[-3])
        catalog.update(template, update_header_comment=False)
        catalog.obsolete.clear()
        write(catalog, po)
        print(f"updated {po.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
