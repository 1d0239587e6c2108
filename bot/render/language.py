"""One reader's language: message ids translated, plural forms chosen, numbers written as they read them.

Pure: a `Translator` is built from catalogues already loaded (`bot.i18n` reads them at start-up) and is
handed to every drawing function, so what a message says depends only on its arguments.
"""

from __future__ import annotations

import gettext
import re
from fractions import Fraction

from babel import Locale
from babel.numbers import format_decimal, format_percent

from bot.engine.messages import AND, OR, Listing, Message, Param

# The languages the bot speaks: the server setting's codes (Discord's names) → Babel's locale ids.
LANGUAGES: dict[str, str] = {"en": "en", "de": "de", "fr": "fr", "es": "es", "pt-BR": "pt_BR"}
SOURCE_LANGUAGE = "en"
NUMBERS_KEPT = 4096  # written numbers remembered per language
_LAST_ZERO = re.compile(r"0(?=[^0]*$)")  # where a percent pattern gets its decimals


class Translator:
    """Messages and numbers in one language; English (the message ids themselves) without catalogue."""

    def __init__(self, language: str, translations: gettext.NullTranslations | None = None) -> None:
        self.language = language
        self.locale = Locale.parse(LANGUAGES[language])
        self._translations = translations or gettext.NullTranslations()
        self._percent = str(self.locale.percent_formats[None].pattern)
        # Babel takes longer to write a number than a board takes to draw: each is written once.
        self._numbers: dict[int, str] = {}
        self._percents: dict[tuple[float, int], str] = {}

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
        written = self._numbers.get(value)
        if written is None:
            if len(self._numbers) >= NUMBERS_KEPT:  # scores repeat; a flood of other numbers can't grow it
                self._numbers.clear()
            written = self._numbers[value] = format_decimal(value, locale=self.locale)
        return written

    def points(self, value: int) -> str:
        """Points as the board draws them: grouped, with a real minus sign (−1,000)."""
        return f"−{self.number(-value)}" if value < 0 else self.number(value)

    def decimal(self, value: float, digits: int = 1) -> str:
        """A number with a fixed count of decimals: 58.9 · 58,9."""
        return format_decimal(value, format="#,##0." + "0" * digits, locale=self.locale)

    def percent(self, chance: Fraction | float, digits: int = 1) -> str:
        """A chance as a percentage with the language's spacing: 15.7% · 15,7 %."""
        key = (float(chance), digits)
        written = self._percents.get(key)
        if written is None:
            if len(self._percents) >= NUMBERS_KEPT:
                self._percents.clear()
            pattern = _LAST_ZERO.sub("0." + "0" * digits if digits else "0", self._percent, count=1)
            written = self._percents[key] = format_percent(key[0], format=pattern, locale=self.locale)
        return written

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
