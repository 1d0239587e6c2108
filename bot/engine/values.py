"""How people type option values: one on/off vocabulary and one number reader, for rules and settings."""

from __future__ import annotations

ON_WORDS = frozenset({"on", "yes", "true", "enabled"})
OFF_WORDS = frozenset({"off", "no", "false", "disabled", "none"})


def typed(raw: str) -> str:
    """The value as compared: trimmed and lower case."""
    return raw.strip().lower()


def switch(raw: str) -> bool | None:
    """True for an "on" word, False for an "off" word, None for anything else."""
    text = typed(raw)
    if text in ON_WORDS:
        return True
    if text in OFF_WORDS:
        return False
    return None


def number(raw: str, *, unit: str = "") -> int | None:
    """A whole number as people write it ("1,000", "1 000", "−500", "90s" with unit "s"); else None."""
    text = typed(raw)
    if unit:
        text = text.removesuffix(unit)
    text = text.replace(",", "").replace("_", "").replace(" ", "").replace("−", "-")
    try:
        return int(text)
    except ValueError:
        return None
