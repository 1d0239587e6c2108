"""Every language's catalogue is complete and safe to format: the template matches the source, each
`.po` translates every message id, nothing is fuzzy, and each translation (each plural form) has exactly
the `{placeholders}` of its message id, so `str.format` can neither fail nor drop a value."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from bot.render.language import LANGUAGES, SOURCE_LANGUAGE

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import catalogues  # noqa: E402  (a script, not a package)

PLACEHOLDER = re.compile(r"\{(\w*)")
TRANSLATED = [code for code in LANGUAGES if code != SOURCE_LANGUAGE]


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def catalogue(language: str) -> Catalog:
    locale = LANGUAGES[language]
    return catalogues.read(catalogues.LOCALES / locale / "LC_MESSAGES" / "farkle.po", locale)


def problems(template: Catalog, translated: Catalog) -> list[str]:
    """What a translator still has to do, one line per message id."""
    found = []
    for wanted in template:
        if not wanted.id:
            continue
        message = translated.get(wanted.id)
        if message is None:
            found.append(f"missing: {wanted.id!r}")
            continue
        if message.fuzzy:
            found.append(f"fuzzy: {wanted.id!r}")
        ids = wanted.id if isinstance(wanted.id, tuple) else (wanted.id,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        expected = placeholders(ids[0])
        if any(placeholders(each) != expected for each in ids):
            found.append(f"singular and plural ids name different placeholders: {wanted.id!r}")
        for form in forms:
            if not form:
                found.append(f"untranslated: {wanted.id!r}")
            elif placeholders(form) != expected:
                found.append(
                    f"placeholders {sorted(placeholders(form))} != {sorted(expected)}: {wanted.id!r}"
                )
        if len(forms) != translated.num_plurals and isinstance(wanted.id, tuple):
            found.append(
                f"{len(forms)} plural forms, the language has {translated.num_plurals}: {wanted.id!r}"
            )
    return found


def test_the_template_holds_every_message_id_in_the_source() -> None:
    extracted = catalogues.message_ids(catalogues.extract())
    committed = catalogues.message_ids(catalogues.read(catalogues.TEMPLATE))
    assert extracted == committed, "run `python scripts/catalogues.py` and translate what it adds"


def test_the_check_command_agrees() -> None:
    result = subprocess.run(
        [sys.executable, ROOT / "scripts" / "catalogues.py", "--check"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_with_its_placeholders(language: str) -> None:
    template = catalogues.read(catalogues.TEMPLATE)
    assert problems(template, catalogue(language)) == []


def test_a_broken_translation_is_reported() -> None:
    """The check itself can fail: a lost placeholder, an empty plural form and a fuzzy entry."""
    template = catalogues.read(catalogues.TEMPLATE)
    broken = catalogue("de")
    broken["It's {name}'s turn."].string = "Du bist dran."
    broken[("Roll {count} die", "Roll {count} dice")].string = ("{count} Würfel werfen", "")
    broken["Join"].flags.add("fuzzy")
    del broken["Leave"]
    assert sorted(problems(template, broken)) == [
        "fuzzy: 'Join'",
        "missing: 'Leave'",
        "placeholders [] != ['name']: \"It's {name}'s turn.\"",
        "untranslated: ('Roll {count} die', 'Roll {count} dice')",
    ]
