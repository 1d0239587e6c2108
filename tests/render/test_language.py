"""Numbers, percentages, plural forms and lists as each language writes them."""

from __future__ import annotations

import re
import subprocess
import sys
from fractions import Fraction

import pytest
from babel import Locale
from babel.numbers import format_decimal, format_percent
from hypothesis import given
from hypothesis import strategies as st

from bot.engine import RulesError, Ruleset
from bot.engine.messages import Listing, Message
from bot.render.language import LANGUAGES
from bot.services.i18n import for_server, language_of, translator

NNBSP = "\u202f"  # French groups digits with a narrow no-break space


@pytest.mark.parametrize(
    ("language", "thousand", "ten_thousand", "loss", "chance"),
    [
        ("en", "1,000", "10,000", "−1,500", "15.7%"),
        ("de", "1.000", "10.000", "−1.500", "15,7\xa0%"),
        ("fr", f"1{NNBSP}000", f"10{NNBSP}000", f"−1{NNBSP}500", "15,7\xa0%"),
        ("es", "1.000", "10.000", "−1.500", "15,7\xa0%"),
        ("pt-BR", "1.000", "10.000", "−1.500", "15,7%"),
    ],
)
def test_numbers_follow_the_language(
    language: str, thousand: str, ten_thousand: str, loss: str, chance: str
) -> None:
    tr = translator(language)
    assert (tr.points(1000), tr.points(10000), tr.points(-1500)) == (thousand, ten_thousand, loss)
    assert tr.percent(Fraction(157, 1000)) == chance
    assert tr.say(Message("Target {points}", points=10000)).endswith(ten_thousand)


@given(
    st.sampled_from(sorted(LANGUAGES)),
    st.integers(-(10**12), 10**12),
    st.floats(-1e9, 1e9, allow_nan=False),
    st.one_of(st.fractions(0, 1, max_denominator=10**6), st.floats(0, 1)),
    st.integers(0, 3),
)
def test_numbers_are_written_as_babel_writes_them_from_cldr(
    language: str, whole: int, real: float, chance: Fraction | float, digits: int
) -> None:
    """The bot keeps each language's few number symbols itself (Babel's locale data would hold every
    name CLDR has): what it writes must stay what Babel writes from CLDR."""
    locale = Locale.parse(LANGUAGES[language])
    decimals = "0." + "0" * digits if digits else "0"
    percent = re.sub(r"0(?=[^0]*$)", decimals, str(locale.percent_formats[None].pattern), count=1)
    tr = translator(language)
    assert tr.number(whole) == format_decimal(whole, locale=locale)
    assert tr.decimal(real, digits) == format_decimal(real, format=f"#,##{decimals}", locale=locale)
    assert tr.percent(chance, digits) == format_percent(float(chance), format=percent, locale=locale)


def test_the_bot_loads_no_cldr_locale_data() -> None:
    """Babel's data for a language (loaded whole by any `Locale` attribute) would stay resident, ~8 MB
    for the five; the bot reads its catalogues and writes numbers without it."""
    check = (
        "import sys, bot.app.client, babel.localedata\n"
        "from bot.services.i18n import translators\n"
        "written = [tr.number(-1234) + tr.decimal(5.5) + tr.percent(0.25) for tr in translators().values()]\n"
        "sys.exit(sorted(babel.localedata._cache) or None)"  # Babel's cache of loaded locale data
    )
    result = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_plural_forms_and_lists_follow_the_language() -> None:
    de, fr = translator("de"), translator("fr")
    assert de.plural("Roll {count} die", "Roll {count} dice", 1) == "1 Würfel werfen"
    assert fr.plural("Roll {count} die", "Roll {count} dice", 1) == "Lancer 1 dé"
    assert fr.plural("Roll {count} die", "Roll {count} dice", 4) == "Lancer 4 dés"
    assert de.say(Listing(("ana", "ben", "cy"), "and")) == "ana, ben und cy"
    with pytest.raises(RulesError) as refused:
        Ruleset.preset("classic").with_option("three_pairs", "400")
    assert de.say(refused.value.message) == "three_pairs erlaubt off, 300, 500, 600, 750, 1000 oder 1500."


@pytest.mark.parametrize(
    ("discord_locale", "language"),
    [
        ("de", "de"),
        ("fr", "fr"),
        ("es-ES", "es"),
        ("es-419", "es"),
        ("pt-BR", "pt-BR"),
        ("en-GB", "en"),
        ("ja", "en"),
        (None, "en"),
    ],
)
def test_discord_locales_map_to_the_languages_we_speak(discord_locale: str | None, language: str) -> None:
    assert language_of(discord_locale) == language


def test_the_server_setting_wins_over_the_servers_locale() -> None:
    assert for_server("de", "fr").language == "de"
    assert for_server(None, "fr").language == "fr"
    assert for_server(None, "ko").language == "en"
