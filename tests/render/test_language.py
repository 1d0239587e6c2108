"""Numbers, percentages, plural forms and lists as each language writes them."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.engine import RulesError, Ruleset
from bot.engine.messages import Listing, Message
from bot.i18n import for_server, language_of, translator

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
