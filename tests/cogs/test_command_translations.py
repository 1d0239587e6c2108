"""Slash commands are described in every language the bot speaks: what Discord shows in the command
picker comes from the same catalogues as the game, and a changed translation is synced again."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import simcord
from discord import app_commands

from bot.app.command_sync import command_payload, sync_if_changed
from bot.engine import PRESET_NAMES
from bot.services.i18n import CommandTranslator
from tests.cogs.play import farkle
from tests.cogs.test_startup import command_syncs

LOCALES = ("de", "fr", "es-ES", "es-419", "pt-BR")
SUBCOMMAND, GROUP = 1, 2


def described(nodes: list[dict[str, Any]], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every command, subcommand and option of the payload, with its path ("/farkle new rules")."""
    for node in nodes:
        here = f"{path} {node['name']}".strip()
        yield here, node
        yield from described(node.get("options", []), here)


def choices(nodes: list[dict[str, Any]]) -> Iterator[tuple[str, dict[str, Any]]]:
    for path, node in described(nodes):
        for choice in node.get("choices", []):
            yield path, choice


async def payload(env: simcord.Env) -> list[dict[str, Any]]:
    return await command_payload(farkle(env).tree, None)


async def test_every_command_and_option_is_described_in_every_language(env: simcord.Env) -> None:
    for path, node in described(await payload(env)):
        localized = node["description_localizations"]
        assert set(LOCALES) <= set(localized), path
        assert all(0 < len(text) <= 100 for text in localized.values()), (path, localized)
        assert localized["de"] != node["description"], path
        assert not node.get("name_localizations"), f"{path}: names stay as members type them"


async def test_choices_are_named_in_every_language_except_the_rule_sheets(env: simcord.Env) -> None:
    named = 0
    for path, choice in choices(await payload(env)):
        if choice["value"] in PRESET_NAMES:  # the names of the rule sheets, typed in /farkle new rules:
            assert not choice.get("name_localizations"), path
            continue
        localized = choice["name_localizations"]
        assert set(LOCALES) <= set(localized), (path, choice)
        assert all(0 < len(text) <= 100 for text in localized.values()), (path, localized)
        named += 1
    assert named == 22, (
        "leaderboard metrics (7) and periods (5), history scopes (2), daily periods and scopes (4),"
        " tournament formats (2) and match lengths (2)"
    )
    leaderboard = next(node for path, node in described(await payload(env)) if path == "farkle leaderboard")
    metric = next(option for option in leaderboard["options"] if option["name"] == "metric")
    assert metric["choices"][2]["name_localizations"]["fr"] == "Taux de victoire"


async def test_discord_receives_the_translations(env: simcord.Env) -> None:
    synced = env.backend.find_command("farkle", None)
    assert synced is not None
    assert synced["description_localizations"]["pt-BR"] == "Jogar Farkle neste canal"


async def test_a_changed_translation_is_synced_again(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = farkle(env)
    assert not await sync_if_changed(bot.tree, bot.services.database, None), "nothing changed since start-up"
    translate = CommandTranslator.translate

    async def reworded(
        self: CommandTranslator,
        string: app_commands.locale_str,
        locale: Any,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        text = await translate(self, string, locale, context)
        return f"{text}!" if text else text

    monkeypatch.setattr(CommandTranslator, "translate", reworded)
    assert await sync_if_changed(bot.tree, bot.services.database, None), (
        "only a translation changed: the hash must see it"
    )
    assert command_syncs(env) == 2
