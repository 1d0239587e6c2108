"""The message catalogues (`bot/locales/<locale>/LC_MESSAGES/farkle.po`), read once, and who reads what.

Private answers follow the member's Discord client (`interaction.locale`); public messages (boards,
results, pings, leaderboards) follow the server's `language` setting, else the server's own locale
(`guild_locale` / `guild.preferred_locale`), else English. Slash-command descriptions and choice names
come from the same catalogues through `CommandTranslator`.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Mapping
from functools import cache
from importlib import resources

import discord
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from discord import app_commands

from bot.engine import PRESET_NAMES
from bot.render.language import ENGLISH, LANGUAGES, SOURCE_LANGUAGE, Translator

DOMAIN = "farkle"
# Discord's locales that have no language of their own here but read one we have.
_SHARED = {"es-419": "es", "es-ES": "es"}


def language_of(locale: discord.Locale | str | None) -> str:
    """The language code for a Discord locale ("es-419" → "es"); English for any we don't speak."""
    code = locale.value if isinstance(locale, discord.Locale) else locale or ""
    if code in LANGUAGES:
        return code
    return _SHARED.get(code, SOURCE_LANGUAGE)


def _read(language: str) -> gettext.GNUTranslations:
    """One language's `.po`, compiled in memory: no `.mo` is committed that could drift from it."""
    locale = LANGUAGES[language]
    po = resources.files("bot") / "locales" / locale / "LC_MESSAGES" / f"{DOMAIN}.po"
    with po.open("rb") as source:
        catalog = read_po(source, locale=locale, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


@cache
def translators() -> Mapping[str, Translator]:
    """Every language's translator, loaded on first use (the client loads them at start-up)."""
    found = {SOURCE_LANGUAGE: ENGLISH}
    for language in LANGUAGES:
        if language != SOURCE_LANGUAGE:
            found[language] = Translator(language, _read(language))
    return found


def translator(language: str) -> Translator:
    return translators()[language]


def for_member(interaction: discord.Interaction) -> Translator:
    """Private answers: the language of the member's Discord client."""
    return translator(language_of(interaction.locale))


def for_server(setting: str | None, server_locale: discord.Locale | str | None) -> Translator:
    """Public messages: the server's `language` setting, else its own locale, else English."""
    return translator(setting if setting in LANGUAGES else language_of(server_locale))


class CommandTranslator(app_commands.Translator):
    """Descriptions of commands and options and the names of choices, from the catalogues.

    Command and option names stay English: members and the docs type them; so do the presets' names
    as choices (`/farkle-config preset classic`), which boards name in the reader's language beside them.
    """

    _TRANSLATED = frozenset(
        {
            app_commands.TranslationContextLocation.command_description,
            app_commands.TranslationContextLocation.group_description,
            app_commands.TranslationContextLocation.parameter_description,
            app_commands.TranslationContextLocation.choice_name,
        }
    )

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = language_of(locale)
        if context.location not in self._TRANSLATED or language == SOURCE_LANGUAGE:
            return None
        choice = (
            context.data if context.location is app_commands.TranslationContextLocation.choice_name else None
        )
        if isinstance(choice, app_commands.Choice) and choice.value in PRESET_NAMES:
            return None
        text = translator(language).term(string.message)
        return text if text != string.message else None
