"""A server's Farkle configuration, its changes and its history as embeds. No I/O."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import discord

from bot.engine import Ruleset
from bot.render.board import GOLD, rules_embed
from bot.render.words import capped_name, typed_words
from bot.sessions.session import TableSettings


class ConfigShown(Protocol):
    """What a server's configuration page reads (the config service's `GuildConfig`)."""

    @property
    def ruleset(self) -> Ruleset: ...
    @property
    def table(self) -> TableSettings: ...
    @property
    def threads(self) -> bool: ...


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


APPLIES = "New games use it; games already running keep their rules."


def config_embed(config: ConfigShown, saved: list[str]) -> discord.Embed:
    """The rules as `/farkle rules` shows them, plus what only admins change."""
    embed = rules_embed(config.ruleset, title=f"This server's rules: {config.ruleset.name}")
    table = config.table
    embed.add_field(
        name="Server settings",
        value="\n".join(
            (
                f"• turn_timeout: {table.turn_timeout} s",
                f"• lobby_timeout: {table.lobby_timeout} s",
                f"• hints: {typed_words(table.hints)}",
                f"• threads: {typed_words(config.threads)}",
            )
        ),
        inline=False,
    )
    embed.add_field(name="Saved rulesets", value=", ".join(saved) or "None yet", inline=False)
    embed.set_footer(text="/farkle-config set <option> <value> changes one; /farkle-config history")
    return embed


def change_embed(change: ChangeAnswer) -> discord.Embed:
    if not change.changed:
        return discord.Embed(title="Nothing changed", description=f"{change.what} is already {change.new}.")
    embed = discord.Embed(title="✅ Saved", colour=GOLD, description=f"{_change_line(change)}\n{APPLIES}")
    embed.set_footer(text=f"Rules now: {change.config.ruleset.name}")
    return embed


def history_embed(entries: Sequence[LogEntry]) -> discord.Embed:
    embed = discord.Embed(title="Farkle settings history", colour=GOLD)
    embed.description = (
        "\n".join(f"<t:{int(e.at)}:R> **{_editor(e)}** · {_change_line(e)}" for e in entries)
        or "Nothing has been changed yet."
    )
    return embed


def _editor(entry: LogEntry) -> str:
    return discord.utils.escape_markdown(capped_name(entry.user_name))


def _change_line(change: ChangeShown) -> str:
    if not change.old:
        return f"{change.what}: {change.new}"
    return f"{change.what}: {change.old} → {change.new}"
