"""Autocomplete answers: the names containing what was typed, at most Discord's 25."""

from __future__ import annotations

from collections.abc import Iterable

from discord import app_commands

MAX_CHOICES = 25


def matching(names: Iterable[str], typed: str) -> list[app_commands.Choice[str]]:
    wanted = typed.strip().lower()
    return [app_commands.Choice(name=n, value=n) for n in names if wanted in n][:MAX_CHOICES]
