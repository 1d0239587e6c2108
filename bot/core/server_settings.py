"""Every server setting declared once: its kind, default, bounds or choices, description and column.

A server setting is what `/farkle-config set` changes that is not a rule of the game. Everything else
about it comes from its declaration here: what the operator's `GAME_*` variable defaults to and accepts
(`bot.core.environment`), what `/farkle-config set` accepts and suggests (`bot.services.server_settings`,
`cogs.server_settings`), the
defaults games start with (`bot.sessions.session.TableSettings`), the `guild_config` column that keeps a
server's choice (the setting's name; `bot.storage.server_settings`) and the line `/farkle-config show` draws
(`bot.render.server_settings`). A new setting is one declaration here, a migration adding its column and, for
a server's own (not `on_table`), a field of `bot.services.server_settings.GuildConfig` that its readers use.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from bot.core.periods import DEFAULT_SEASON, SEASON_LENGTHS
from bot.engine.errors import UserFacingError
from bot.engine.messages import N_, Listing, Message, Param
from bot.engine.values import number, switch, typed

T = TypeVar("T")
Column = int | str | None  # what its `guild_config` column holds (a switch as 0 or 1); NULL: the default

# The languages the bot speaks: the language setting's codes (Discord's names) → Babel's locale ids.
LANGUAGES: dict[str, str] = {"en": "en", "de": "de", "fr": "fr", "es": "es", "pt-BR": "pt_BR"}
AUTO = "auto"  # the language setting that follows the server's own locale
NOWHERE = "none"  # no channel or role


@dataclass(frozen=True, kw_only=True)
class ServerSetting(ABC, Generic[T]):
    """One setting: how admins type it, what it means, and how its column keeps it."""

    name: str  # as admins type it, and the `guild_config` column that keeps it
    description: str  # a message id, translated where it is shown
    default: T  # a server that never chose; for `operator` settings, unless GAME_<NAME> says otherwise
    on_table: bool = False  # a game's knob (`TableSettings`), else the server's own (`GuildConfig`)
    operator: bool = False  # the operator may change its default with GAME_<NAME> (`GameSettings`)
    choices: tuple[str, ...] = ()  # offered by autocomplete; numbers may be any value in range

    @property
    def allowed(self) -> Param:
        """The tail of "<name> takes <allowed>."."""
        return Listing(self.choices)

    @abstractmethod
    def parse(self, raw: str) -> T:
        """The value an admin typed, or a `UserFacingError` saying what the setting takes."""

    def words(self, value: T) -> str:
        """A value as admins type it (the change log keeps these words)."""
        return str(value)

    def to_column(self, value: T) -> Column:
        return value  # type: ignore[return-value]  # each kind's values are a column's, but a switch's

    def from_column(self, stored: int | str) -> T:
        return stored  # type: ignore[return-value]

    def refused(self) -> UserFacingError:
        return UserFacingError(Message("{option} takes {allowed}.", option=self.name, allowed=self.allowed))


@dataclass(frozen=True, kw_only=True)
class Seconds(ServerSetting[int]):
    bounds: tuple[int, int]

    @property
    def allowed(self) -> Param:
        least, most = self.bounds
        return Message("a number of seconds from {least} to {most}", least=least, most=most)

    def parse(self, raw: str) -> int:
        value = number(raw.strip().lower().removesuffix("seconds"), unit="s")
        if value is None or not self.within(value):
            raise self.refused()
        return value

    def within(self, value: int) -> bool:
        """Within bounds: the operator's GAME_<NAME> is held to the same ones."""
        least, most = self.bounds
        return least <= value <= most


@dataclass(frozen=True, kw_only=True)
class Switch(ServerSetting[bool]):
    choices: tuple[str, ...] = ("on", "off")

    def parse(self, raw: str) -> bool:
        on = switch(raw)
        if on is None:
            raise self.refused()
        return on

    def words(self, value: bool) -> str:
        return "on" if value else "off"

    def to_column(self, value: bool) -> Column:
        return int(value)

    def from_column(self, stored: int | str) -> bool:
        return bool(stored)


@dataclass(frozen=True, kw_only=True)
class Choice(ServerSetting[str | None]):
    """One of `choices`; `unset` is the choice kept as NULL (the language's auto)."""

    unset: str | None = None

    def parse(self, raw: str) -> str | None:
        chosen = next((choice for choice in self.choices if choice.lower() == typed(raw)), None)
        if chosen is None:
            raise self.refused()
        return None if chosen == self.unset else chosen

    def words(self, value: str | None) -> str:
        return str(value or self.unset)

    def from_column(self, stored: int | str) -> str | None:
        """A stored value this bot no longer offers is the default, rather than breaking the server."""
        return stored if stored in self.choices else self.default


@dataclass(frozen=True, kw_only=True)
class Mention(ServerSetting[int | None]):
    """A channel or role: its mention (`<#id>`, `<@&id>`) or bare id, or none."""

    sigil: str  # "#" for a channel, "@&" for a role
    takes: Message
    choices: tuple[str, ...] = (NOWHERE,)
    default: int | None = None

    @property
    def allowed(self) -> Param:
        return self.takes

    def parse(self, raw: str) -> int | None:
        if typed(raw) == NOWHERE:
            return None
        found = re.fullmatch(rf"<{re.escape(self.sigil)}([0-9]{{1,20}})>|([0-9]{{1,20}})", raw.strip())
        if found is None:
            raise self.refused()
        return int(found[1] or found[2])

    def words(self, value: int | None) -> str:
        return f"<{self.sigil}{value}>" if value else NOWHERE


TURN_TIMEOUT = Seconds(
    name="turn_timeout",
    description=N_("Seconds a player has for a turn before it is played for them."),
    default=120,
    bounds=(15, 3600),
    choices=("30", "60", "90", "120", "180", "300", "600"),
    on_table=True,
    operator=True,
)
LOBBY_TIMEOUT = Seconds(
    name="lobby_timeout",
    description=N_("Seconds a lobby waits for its host to start before it closes."),
    default=600,
    bounds=(30, 86400),
    choices=("120", "300", "600", "1800", "3600"),
    on_table=True,
    operator=True,
)
HINTS = Switch(
    name="hints", description=N_("Whether boards offer the 💡 Hint button."), default=True, on_table=True
)
THREADS = Switch(name="threads", description=N_("Whether each new game opens its own thread."), default=False)
LANGUAGE = Choice(
    name="language",
    description=N_("The language of boards and results; auto follows the server's locale."),
    default=None,
    choices=(AUTO, *LANGUAGES),
    unset=AUTO,
    on_table=True,
)
LIVE_ODDS = Switch(
    name="live_odds",
    description=N_("Whether two-player boards show both players' chances to win."),
    default=True,  # docs/REVIEW.md: why on
    on_table=True,
)
SEASON = Choice(
    name="season",
    description=N_("How long a season lasts (leaderboards of the season, final standings when it ends)."),
    default=DEFAULT_SEASON,
    choices=SEASON_LENGTHS,
)
SEASON_CHANNEL = Mention(
    name="season_channel",
    description=N_("The channel where a season's final standings are posted when it ends; none: no post."),
    sigil="#",
    takes=Message("a channel (#name) or {none}", none=NOWHERE),
)
TOURNAMENT_ROLE = Mention(
    name="tournament_role",
    description=N_(
        "A role whose members may hold tournaments, besides Manage Server; none: Manage Server only."
    ),
    sigil="@&",
    takes=Message("a role (@name) or {none}", none=NOWHERE),
)

# Every server setting by name, in the order `/farkle-config show` lists them.
SETTINGS: dict[str, ServerSetting[Any]] = {
    setting.name: setting
    for setting in (
        TURN_TIMEOUT,
        LOBBY_TIMEOUT,
        HINTS,
        THREADS,
        LANGUAGE,
        LIVE_ODDS,
        SEASON,
        SEASON_CHANNEL,
        TOURNAMENT_ROLE,
    )
}


def stored_values(stored: Mapping[str, Column], defaults: Mapping[str, object]) -> dict[str, Any]:
    """Every setting's value for a server: its stored choice, else `defaults` (the operator's), else the
    declaration's."""
    return {
        name: setting.from_column(value)
        if (value := stored.get(name)) is not None
        else defaults.get(name, setting.default)
        for name, setting in SETTINGS.items()
    }
