"""The settings history: its own words in the reader's language, everything an admin typed as typed."""

from __future__ import annotations

from dataclasses import dataclass

from bot.render.server_settings import history_embed
from bot.services.i18n import translator


@dataclass(frozen=True)
class Entry:
    what: str
    old: str | None
    new: str | None
    user_name: str = "ana"
    at: float = 0.0


def test_only_the_logs_own_words_are_translated() -> None:
    entries = [
        Entry("teams", "0", "2"),  # an option name that is also a message id elsewhere
        Entry("saved ruleset", None, "expert"),  # a ruleset named like a computer level
        Entry("everything", "classic", "defaults"),
    ]
    lines = (history_embed(entries, translator("es")).description or "").splitlines()
    assert lines[0].endswith("teams: 0 → 2")
    assert lines[1].endswith(": expert") and "experto" not in lines[1]
    assert "todo" in lines[2] and "teams" not in lines[2]
