"""A server's Farkle configuration, its changes and its history as embeds. No I/O."""

from __future__ import annotations

import discord

from bot.config import Change, GuildConfig, words
from bot.render.board import GOLD, rules_embed
from bot.render.words import capped_name
from bot.storage.config import AuditEntry

APPLIES = "New games use it; games already running keep their rules."


def config_embed(config: GuildConfig, saved: list[str]) -> discord.Embed:
    """The rules as `/farkle rules` shows them, plus what only admins change."""
    embed = rules_embed(config.ruleset, title=f"This server's rules: {config.ruleset.name}")
    table = config.table
    embed.add_field(
        name="Server settings",
        value="\n".join(
            (
                f"• turn_timeout: {table.turn_timeout} s",
                f"• lobby_timeout: {table.lobby_timeout} s",
                f"• hints: {words(table.hints)}",
                f"• threads: {words(config.threads)}",
            )
        ),
        inline=False,
    )
    embed.add_field(name="Saved rulesets", value=", ".join(saved) or "None yet", inline=False)
    embed.set_footer(text="/farkle-config set <option> <value> changes one; /farkle-config history")
    return embed


def change_embed(change: Change) -> discord.Embed:
    if not change.changed:
        return discord.Embed(title="Nothing changed", description=f"{change.what} is already {change.new}.")
    embed = discord.Embed(title="✅ Saved", colour=GOLD, description=f"{_change_line(change)}\n{APPLIES}")
    embed.set_footer(text=f"Rules now: {change.config.ruleset.name}")
    return embed


def history_embed(entries: list[AuditEntry]) -> discord.Embed:
    embed = discord.Embed(title="Farkle settings history", colour=GOLD)
    embed.description = (
        "\n".join(f"<t:{int(e.at)}:R> **{_editor(e)}** · {_change_line(e)}" for e in entries)
        or "Nothing has been changed yet."
    )
    return embed


def _editor(entry: AuditEntry) -> str:
    return discord.utils.escape_markdown(capped_name(entry.user_name))


def _change_line(change: Change | AuditEntry) -> str:
    if not change.old:
        return f"{change.what}: {change.new}"
    return f"{change.what}: {change.old} → {change.new}"
