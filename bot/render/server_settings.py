"""A server's Farkle configuration, its changes and its history as embeds. No I/O."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot.core.server_settings import SETTINGS, Seconds
from bot.engine import Ruleset
from bot.engine.messages import N_
from bot.render.components import GOLD
from bot.render.help import rules_embed
from bot.render.language import Translator
from bot.render.words import capped_name, rules_name

# The change log's own words, written by the config service and translated when shown. Every other
# value in the log (option names, typed values, ruleset names) is shown as the admin typed it.
SAVED_RULESET = N_("saved ruleset")
EVERYTHING = N_("everything")
DEFAULTS = N_("defaults")
DELETED = N_("deleted")
RULES = N_("rules")
_LOG_WORDS = frozenset({SAVED_RULESET, EVERYTHING, DEFAULTS, DELETED, RULES})
_WHOLE_NUMBER = re.compile(r"-?[0-9]+")


class ConfigShown(Protocol):
    """What a server's configuration page reads (the config service's `GuildConfig`)."""

    @property
    def ruleset(self) -> Ruleset: ...
    def value(self, name: str) -> Any: ...  # a server setting's, by name


class ChangeShown(Protocol):
    """One change as a line: an answer to `/farkle-config` or an entry of its history."""

    @property
    def what(self) -> str: ...
    @property
    def old(self) -> str | None: ...
    @property
    def new(self) -> str | None: ...


class ChangeAnswer(ChangeShown, Protocol):
    @property
    def changed(self) -> bool: ...
    @property
    def config(self) -> ConfigShown: ...


class LogEntry(ChangeShown, Protocol):
    @property
    def user_name(self) -> str: ...
    @property
    def at(self) -> float: ...


def config_embed(config: ConfigShown, saved: list[str], tr: Translator) -> discord.Embed:
    """The rules as `/farkle rules` shows them, plus what only admins change."""
    rules = config.ruleset
    embed = rules_embed(
        rules, tr, title=tr.text("This server's rules: {rules}", rules=rules_name(rules.name, tr))
    )
    embed.add_field(
        name=tr.text("Server settings"),
        value="\n".join(f"• {name}: {_setting(config, name, tr)}" for name in SETTINGS),
        inline=False,
    )
    embed.add_field(
        name=tr.text("Saved rulesets"), value=", ".join(saved) or tr.text("None yet"), inline=False
    )
    embed.set_footer(text=tr.text("/farkle-config set <option> <value> changes one; /farkle-config history"))
    return embed


def _setting(config: ConfigShown, name: str, tr: Translator) -> str:
    """As admins type it, but seconds as the reader writes numbers."""
    setting, value = SETTINGS[name], config.value(name)
    return f"{tr.number(value)} s" if isinstance(setting, Seconds) else setting.words(value)


def change_embed(change: ChangeAnswer, tr: Translator) -> discord.Embed:
    if not change.changed:
        return discord.Embed(
            title=tr.text("Nothing changed"),
            description=tr.text(
                "{option} is already {value}.",
                option=_word(change.what, tr),
                value=_value(change, change.new, tr),
            ),
        )
    applies = tr.text("New games use it; games already running keep their rules.")
    embed = discord.Embed(
        title=tr.text("✅ Saved"), colour=GOLD, description=f"{_change_line(change, tr)}\n{applies}"
    )
    embed.set_footer(text=tr.text("Rules now: {rules}", rules=rules_name(change.config.ruleset.name, tr)))
    return embed


def history_embed(entries: Sequence[LogEntry], tr: Translator) -> discord.Embed:
    embed = discord.Embed(title=tr.text("Farkle settings history"), colour=GOLD)
    embed.description = "\n".join(
        f"<t:{int(e.at)}:R> **{_editor(e)}** · {_change_line(e, tr)}" for e in entries
    ) or tr.text("Nothing has been changed yet.")
    return embed


def _editor(entry: LogEntry) -> str:
    return discord.utils.escape_markdown(capped_name(entry.user_name))


def _change_line(change: ChangeShown, tr: Translator) -> str:
    """Setting names and typed words stay as admins type them; the log's own words are translated."""
    what, new = _word(change.what, tr), _value(change, change.new, tr)
    if not change.old:
        return f"{what}: {new}"
    return f"{what}: {_value(change, change.old, tr)} → {new}"


def _value(change: ChangeShown, value: str | None, tr: Translator) -> str:
    """A rule's or setting's whole number is written as the reader writes numbers (10,000 · 10.000), as
    everywhere else; ruleset names, even all digits, and other words as they were typed."""
    if change.what not in _LOG_WORDS and value is not None and _WHOLE_NUMBER.fullmatch(value):
        return tr.number(int(value))
    return _word(value or "", tr)


def _word(value: str, tr: Translator) -> str:
    return tr.term(value) if value in _LOG_WORDS else value
