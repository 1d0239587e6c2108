"""Each server's house rules and table settings: validated, logged, and what every new game starts with.

No Discord types: servers and members are ids (and a display name for the change log). A change applies
to games created afterwards; a running game keeps the ruleset and table it started with.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from dataclasses import dataclass, replace
from typing import Any, Protocol

from bot.core.clock import Clock
from bot.core.environment import GameSettings
from bot.core.periods import SeasonLength
from bot.core.server_settings import LANGUAGE, SEASON, SETTINGS, ServerSetting, stored_values
from bot.engine import OPTIONS, PRESET_NAMES, OptionSpec, RulesError, Ruleset, UserFacingError
from bot.engine.messages import N_, Message, Param
from bot.render.server_settings import DEFAULTS, DELETED, EVERYTHING, RULES, SAVED_RULESET
from bot.render.words import echo, typed_words
from bot.sessions.session import TableSettings
from bot.storage.server_settings import AuditEntry, ConfigRow

log = logging.getLogger(__name__)

MAX_SAVED = 25  # what one autocomplete list can show
_SAVED_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")


def option_names() -> list[str]:
    """Everything `/farkle-config set` accepts: the rules, then the server settings."""
    return [*OPTIONS, *SETTINGS]


def option_choices(name: str) -> tuple[str, ...]:
    """Values worth suggesting for one option (ranged rules have none: any value in range)."""
    field = _field(name)
    if field in SETTINGS:
        return SETTINGS[field].choices
    spec = OPTIONS.get(field)
    return spec.choices or () if spec is not None else ()


def option_description(name: str) -> str:
    """The option's description as a message id; empty for an unknown name."""
    spec = _spec(name)
    return spec.description if spec else ""


def option_allowed(name: str) -> Param:
    """What the option takes, as the tail of "<name> takes …"; empty for an unknown name."""
    spec = _spec(name)
    return spec.allowed if spec else ""


def _spec(name: str) -> ServerSetting[Any] | OptionSpec | None:
    field = _field(name)
    return SETTINGS.get(field) or OPTIONS.get(field)


@dataclass(frozen=True)
class Editor:
    """Who made a change, as the change log names them."""

    id: int
    name: str


@dataclass(frozen=True)
class GuildConfig:
    """A server's rules and the value of each server setting: a game's knobs on `table`, the server's
    own (`on_table=False` in `bot.core.server_settings`) as fields of their names."""

    ruleset: Ruleset
    table: TableSettings
    threads: bool
    season: SeasonLength
    season_channel: int | None
    tournament_role: int | None

    def value(self, name: str) -> Any:
        """One server setting's value, by name."""
        return getattr(self.table if SETTINGS[name].on_table else self, name)


@dataclass(frozen=True)
class Change:
    """An accepted (or already-true) change, for the reply; `changed` is False when nothing moved."""

    what: str
    old: str
    new: str
    config: GuildConfig
    changed: bool = True


def _field(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def _describe(config: GuildConfig) -> str:
    """The whole configuration in the change log (stored text: the log keeps it as it was written)."""
    settings = (f"{name} {setting.words(config.value(name))}" for name, setting in SETTINGS.items())
    return ", ".join((f"{config.ruleset.name} rules", *settings))


class ConfigStore(Protocol):
    """What the service needs from storage (`bot.storage.server_settings.SqlConfigStore`)."""

    async def load(self, guild_id: int) -> ConfigRow: ...

    async def save(self, guild_id: int, row: ConfigRow, entry: AuditEntry) -> None: ...

    async def named(self, guild_id: int) -> dict[str, str]: ...

    async def save_named(
        self, guild_id: int, name: str, rules: str, entry: AuditEntry, config: ConfigRow
    ) -> None: ...

    async def delete_named(
        self, guild_id: int, name: str, entry: AuditEntry, config: ConfigRow | None
    ) -> bool: ...

    async def history(self, guild_id: int, limit: int) -> list[AuditEntry]: ...


class ConfigService:
    def __init__(self, store: ConfigStore, defaults: GameSettings, clock: Clock) -> None:
        self._store = store
        self._defaults = defaults
        self._clock = clock
        self._locks: dict[int, asyncio.Lock] = {}

    # ------------------------------------------------------------------ reading

    async def get(self, guild_id: int) -> GuildConfig:
        return self._config(await self._store.load(guild_id))

    async def season(self, guild_id: int) -> SeasonLength:
        """How long the server's seasons last, for its season boards."""
        season: SeasonLength = await self._setting(guild_id, SEASON)
        return season

    async def language(self, guild_id: int) -> str | None:
        """The server's `language` setting, for public messages outside games."""
        language: str | None = await self._setting(guild_id, LANGUAGE)
        return language

    async def _setting(self, guild_id: int, setting: ServerSetting[Any]) -> Any:
        """One server setting's value alone: no ruleset parsed for it."""
        stored = (await self._store.load(guild_id)).settings
        return stored_values(stored, self._defaults.server_defaults())[setting.name]

    async def named(self, guild_id: int) -> dict[str, Ruleset]:
        """The server's saved rulesets by name (one that no longer validates is left out and logged)."""
        found = {}
        for name, text in (await self._store.named(guild_id)).items():
            ruleset = self._parse(text)
            if ruleset is not None:
                found[name] = ruleset
        return found

    async def rules_names(self, guild_id: int) -> list[str]:
        """What `/farkle new rules:` accepts: the presets, then the server's saved rulesets."""
        return [*PRESET_NAMES, *(await self._store.named(guild_id))]

    async def resolve(self, guild_id: int, name: str | None) -> Ruleset | None:
        """A preset or saved ruleset by name; no name means the server default; None when unknown."""
        if name is None or not name.strip():
            return (await self.get(guild_id)).ruleset
        wanted = name.strip().lower()
        if wanted in PRESET_NAMES:
            return Ruleset.preset(wanted)
        return (await self.named(guild_id)).get(wanted)

    async def history(self, guild_id: int, limit: int = 15) -> list[AuditEntry]:
        return await self._store.history(guild_id, limit)

    # ------------------------------------------------------------------ changing

    async def set_option(self, guild_id: int, editor: Editor, option: str, raw: str) -> Change:
        """One rule (validated by the engine) or server setting, from what the admin typed."""
        field = _field(option)
        if field not in SETTINGS and field not in OPTIONS:
            raise UserFacingError(
                Message(
                    "There is no rule called '{name}'. Rules: {rules}. Server settings: {settings}.",
                    name=echo(option),
                    rules=", ".join(OPTIONS),
                    settings=", ".join(SETTINGS),
                )
            )
        async with self._lock(guild_id):
            row = await self._store.load(guild_id)
            config = self._config(row)
            if field in SETTINGS:
                setting = SETTINGS[field]
                old, value = config.value(field), setting.parse(raw)  # refused: the admin's answer
                before_words, after_words = setting.words(old), setting.words(value)
                updated = replace(row, settings={**row.settings, field: setting.to_column(value)})
            else:
                before = config.ruleset
                after = before.with_option(option, raw)  # a RulesError is the admin's answer
                old, value = getattr(before, field), getattr(after, field)
                if after.name == before.name and before.name != "custom":
                    after = after.model_copy(update={"name": "custom"})  # no longer the saved one
                updated = replace(row, rules=after.model_dump_json())
                before_words, after_words = typed_words(old), typed_words(value)
            if old == value:
                return Change(field, before_words, after_words, config, changed=False)
            return await self._save(guild_id, editor, updated, field, before_words, after_words)

    async def use_preset(self, guild_id: int, editor: Editor, name: str) -> Change:
        """Make one of the five presets the server's rules."""
        return await self._use(guild_id, editor, Ruleset.preset(name.strip().lower()))

    async def make_default(self, guild_id: int, editor: Editor, name: str) -> Change:
        """Make a preset or a saved ruleset the server's rules."""
        ruleset = await self.resolve(guild_id, name)
        if ruleset is None or not name.strip():
            raise UserFacingError(await self._unknown(guild_id, name))
        return await self._use(guild_id, editor, ruleset)

    async def reset(self, guild_id: int, editor: Editor) -> Change:
        """Rules and server settings back to the bot's defaults; saved rulesets stay."""
        async with self._lock(guild_id):
            before = await self.get(guild_id)
            return await self._save(guild_id, editor, ConfigRow(), EVERYTHING, _describe(before), DEFAULTS)

    async def save_named(self, guild_id: int, editor: Editor, name: str) -> Change:
        """Keep the server's current rules under a name; they then carry that name on boards."""
        key = name.strip().lower()
        if key in PRESET_NAMES or key == "custom" or not _SAVED_NAME.match(key):
            raise UserFacingError(
                Message(
                    "A saved ruleset's name is 1 to 32 lowercase letters, digits, - or _, "
                    "and not custom or a preset ({presets}).",
                    presets=", ".join(PRESET_NAMES),
                )
            )
        async with self._lock(guild_id):
            saved = await self._store.named(guild_id)
            if key not in saved and len(saved) >= MAX_SAVED:
                raise UserFacingError(
                    Message("This server already keeps {count} rulesets: delete one first.", count=MAX_SAVED)
                )
            row = await self._store.load(guild_id)
            config = self._config(row)
            ruleset = config.ruleset.model_copy(update={"name": key})
            text = ruleset.model_dump_json()
            entry = self._entry(editor, SAVED_RULESET, None, f"{key} (replaced)" if key in saved else key)
            row = replace(row, rules=text)
            await self._store.save_named(guild_id, key, text, entry, row)
        return Change(entry.what, "", key, self._config(row))

    async def delete_named(self, guild_id: int, editor: Editor, name: str) -> Change:
        """Forget a saved ruleset; if it was the server's rules, they stay but are "custom" again."""
        key = name.strip().lower()
        async with self._lock(guild_id):
            row = await self._store.load(guild_id)
            config = self._config(row)
            follows = row.rules is not None and config.ruleset.name == key
            if follows:
                row = replace(
                    row, rules=config.ruleset.model_copy(update={"name": "custom"}).model_dump_json()
                )
            entry = self._entry(editor, SAVED_RULESET, key, DELETED)
            if not await self._store.delete_named(guild_id, key, entry, row if follows else None):
                raise UserFacingError(await self._unknown(guild_id, name, saved_only=True))
        return Change(entry.what, key, DELETED, self._config(row))

    # ------------------------------------------------------------------ helpers

    async def _use(self, guild_id: int, editor: Editor, ruleset: Ruleset) -> Change:
        async with self._lock(guild_id):
            row = await self._store.load(guild_id)
            old = self._config(row).ruleset
            updated = replace(row, rules=ruleset.model_dump_json())
            return await self._save(guild_id, editor, updated, RULES, old.name, ruleset.name)

    async def _save(
        self, guild_id: int, editor: Editor, row: ConfigRow, what: str, old: str, new: str
    ) -> Change:
        entry = self._entry(editor, what, old, new)
        await self._store.save(guild_id, row, entry)
        return Change(what, old, new, self._config(row))

    def _entry(self, editor: Editor, what: str, old: str | None, new: str | None) -> AuditEntry:
        return AuditEntry(editor.id, editor.name, what, old, new, self._clock.now())

    async def _unknown(self, guild_id: int, name: str, *, saved_only: bool = False) -> Message:
        if saved_only:
            names = list(await self._store.named(guild_id))
            if not names:
                return Message(
                    "There is no saved ruleset called “{name}”: this server has none yet.", name=echo(name)
                )
            text = N_("There is no saved ruleset called “{name}”: choose {names}.")
        else:
            names = await self.rules_names(guild_id)
            text = N_("There is no ruleset called “{name}”: choose {names}.")
        return Message(text, name=echo(name), names=", ".join(names))

    def _lock(self, guild_id: int) -> asyncio.Lock:
        """Changes to one server are read-modify-write: one at a time."""
        return self._locks.setdefault(guild_id, asyncio.Lock())

    def _config(self, row: ConfigRow) -> GuildConfig:
        ruleset = self._parse(row.rules) if row.rules is not None else None
        values = stored_values(row.settings, self._defaults.server_defaults())
        table = {name: value for name, value in values.items() if SETTINGS[name].on_table}
        return GuildConfig(
            ruleset=ruleset or Ruleset.preset(self._defaults.default_rules),
            table=TableSettings(max_players=self._defaults.max_players, **table),
            **{name: value for name, value in values.items() if name not in table},
        )

    @staticmethod
    def _parse(text: str) -> Ruleset | None:
        """A stored ruleset; one a newer engine refuses is skipped (and logged) rather than breaking play."""
        try:
            return Ruleset(**json.loads(text))
        except (RulesError, ValueError):
            log.warning("Ignoring a stored ruleset that no longer validates: %s", text)
            return None
