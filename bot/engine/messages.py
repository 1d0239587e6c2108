"""Sentences as values: lower layers say what they mean, `bot.render` says it in the reader's language.

A `Message` is a gettext message id (the English sentence with named `{placeholders}`) and its
parameters; `str(message)` is the English sentence, for logs, tests and `str(error)`. The engine builds
these values and never translates them (it imports no Babel and no catalogue). Message ids are found in
the source by `scripts/catalogues.py` through the keywords `Message`, `plural` (`Message.plural`) and
`N_`, which marks a message id kept in a table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

Conjunction: TypeAlias = Literal["or", "and"]


def N_(msgid: str) -> str:
    """Mark a message id for extraction where it is stored, not shown (`bot.render` translates it)."""
    return msgid


# Words joining the last two items of a `Listing`: "1, 2 or 3", "ana and ben".
OR = N_("{head} or {last}")
AND = N_("{head} and {last}")


@dataclass(frozen=True, slots=True)
class Listing:
    """Items said as a list: "classic, box or family". Items are plain words or messages."""

    items: tuple[Param, ...]
    conjunction: Conjunction = "or"

    def __str__(self) -> str:
        return english(self)


Param: TypeAlias = "str | int | Message | Listing"


@dataclass(frozen=True, slots=True, init=False)
class Message:
    """One sentence to show: `msgid` with `params`; a plural message picks its form by `count`."""

    msgid: str
    params: tuple[tuple[str, Param], ...]
    plural_id: str | None
    count: int | None

    def __init__(self, msgid: str, /, **params: Param) -> None:
        self._set(msgid, params, None, None)

    @classmethod
    def plural(cls, singular: str, plural: str, count: int, /, **params: Param) -> Message:
        """A sentence with a singular and a plural form; `{count}` is available to both."""
        message = cls.__new__(cls)
        message._set(singular, {"count": count, **params}, plural, count)
        return message

    def _set(self, msgid: str, params: dict[str, Param], plural_id: str | None, count: int | None) -> None:
        object.__setattr__(self, "msgid", msgid)
        object.__setattr__(self, "params", tuple(params.items()))
        object.__setattr__(self, "plural_id", plural_id)
        object.__setattr__(self, "count", count)

    def __str__(self) -> str:
        return english(self)


def english(param: Param) -> str:
    """A parameter or message in the source language: numbers as "1,000", lists as "a, b or c"."""
    if isinstance(param, bool):  # a bool is an int: never drawn as a number
        return str(param)
    if isinstance(param, int):
        return f"{param:,}"
    if isinstance(param, Listing):
        words = [english(item) for item in param.items]
        if len(words) < 2:
            return "".join(words)
        head = ", ".join(words[:-1])
        return (OR if param.conjunction == "or" else AND).format(head=head, last=words[-1])
    if isinstance(param, Message):
        template = param.msgid if param.plural_id is None or param.count == 1 else param.plural_id
        return template.format(**{name: english(value) for name, value in param.params})
    return param
