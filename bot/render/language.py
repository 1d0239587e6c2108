"""One reader's language: message ids translated, plural forms chosen, numbers written as they read them.

Pure: a `Translator` is built from catalogues already loaded (`bot.services.i18n` reads them at start-up) and
is
handed to every drawing function, so what a message says depends only on its arguments.
"""

from __future__ import annotations

import gettext
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction

from bot.core.server_settings import LANGUAGES as LANGUAGES  # declared with the language setting
from bot.engine.messages import AND, OR, Listing, Message, Param

SOURCE_LANGUAGE = "en"


@dataclass(frozen=True)
class NumberStyle:
    """How a language writes numbers (CLDR's, as Babel ships them: a test holds these to Babel): the
    grouping and decimal symbols, and what follows a percentage."""

    group: str
    decimal: str
    percent: str


# Kept here rather than read through Babel's `Locale`, which loads a language's whole CLDR data (every
# name of every language, territory, currency and time zone: ~8 MB resident for the five) for these.
NUMBER_STYLES: dict[str, NumberStyle] = {
    "en": NumberStyle(",", ".", "%"),
    "de": NumberStyle(".", ",", "\xa0%"),
    "fr": NumberStyle("\u202f", ",", "\xa0%"),
    "es": NumberStyle(".", ",", "\xa0%"),
    "pt-BR": NumberStyle(".", ",", "%"),
}


class Translator:
    """Messages and numbers in one language; English (the message ids themselves) without catalogue."""

    def __init__(self, language: str, translations: gettext.NullTranslations | None = None) -> None:
        self.language = language
        self._translations = translations or gettext.NullTranslations()
        style = NUMBER_STYLES[language]
        self._symbols = str.maketrans({",": style.group, ".": style.decimal})
        self._percent_sign = style.percent

    def text(self, msgid: str, /, **params: Param) -> str:
        """A sentence written in the drawing code (`tr.text("Roll")`)."""
        return self._fill(self._translations.gettext(msgid), params)

    def plural(self, singular: str, plural: str, count: int, /, **params: Param) -> str:
        """A sentence whose form follows `count` (also its `{count}`), by the language's plural rules."""
        return self._fill(self._translations.ngettext(singular, plural, count), {"count": count, **params})

    def term(self, msgid: str) -> str:
        """A stored word marked with `N_` (a rules group, a log's "everything"); unknown words as they are."""
        return self._translations.gettext(msgid)

    def say(self, param: Param) -> str:
        """A message (or any parameter) from a lower layer, in this language."""
        if isinstance(param, Message):
            params = dict(param.params)
            if param.plural_id is not None and param.count is not None:
                template = self._translations.ngettext(param.msgid, param.plural_id, param.count)
            else:
                template = self._translations.gettext(param.msgid)
            return self._fill(template, params)
        if isinstance(param, Listing):
            return self._listing(param)
        if isinstance(param, bool):
            return str(param)
        if isinstance(param, int):
            return self.number(param)
        return param

    def number(self, value: int) -> str:
        """A whole number with the language's grouping: 1,000 · 1.000 · 1 000."""
        return f"{value:,}".translate(self._symbols)

    def points(self, value: int) -> str:
        """Points as the board draws them: grouped, with a real minus sign (−1,000)."""
        return f"−{self.number(-value)}" if value < 0 else self.number(value)

    def decimal(self, value: float, digits: int = 1) -> str:
        """A number with a fixed count of decimals: 58.9 · 58,9."""
        return self._fixed(Decimal(str(value)), digits)

    def percent(self, chance: Fraction | float, digits: int = 1) -> str:
        """A chance as a percentage with the language's spacing: 15.7% · 15,7 %."""
        return self._fixed(Decimal(str(float(chance))).scaleb(2), digits) + self._percent_sign

    def _fixed(self, value: Decimal, digits: int) -> str:
        """Grouped, rounded half to even at `digits` decimals as CLDR's patterns are (the decimal
        written as the float prints, so 0.35 is 0.4, as Babel writes it)."""
        rounded = value.quantize(Decimal(1).scaleb(-digits), ROUND_HALF_EVEN)
        return f"{rounded:,.{digits}f}".translate(self._symbols)

    def _listing(self, listing: Listing) -> str:
        words = [self.say(item) for item in listing.items]
        if len(words) < 2:
            return "".join(words)
        joined = self._translations.gettext(OR if listing.conjunction == "or" else AND)
        return joined.format(head=", ".join(words[:-1]), last=words[-1])

    def _fill(self, template: str, params: dict[str, Param]) -> str:
        return (
            template.format(**{name: self.say(value) for name, value in params.items()})
            if params
            else template
        )


ENGLISH = Translator(SOURCE_LANGUAGE)
