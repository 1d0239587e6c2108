"""The bot under SimCord with scripted dice, and a table of three members in one channel."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord
import pytest
import simcord
import simcord.interactions

from bot.app.client import FarkleBot
from bot.core.environment import Settings
from bot.engine import ScriptedDice


class Dice:
    """The dice of the next games, one script per game in the order they start.

    A script is the game's rolls in order; the first is the roll-off, one die per player (`(6, 2)`: the
    first seat starts). Past its script a game rolls fair seeded dice.
    """

    def __init__(self) -> None:
        self._scripts: list[list[tuple[int, ...]]] = []
        self._sources: list[ScriptedDice] = []

    def script(self, *rolls: Sequence[int]) -> None:
        self._scripts.append([tuple(roll) for roll in rolls])

    def __call__(self) -> ScriptedDice:
        source = ScriptedDice(self._scripts.pop(0) if self._scripts else [], seed=1)
        self._sources.append(source)
        return source

    @property
    def unused(self) -> int:
        """Scripted rolls nobody rolled yet: 0 once every scripted game was played as written."""
        return sum(s.scripted_left for s in self._sources) + sum(len(s) for s in self._scripts)


@pytest.fixture
def dice() -> Dice:
    return Dice()


@pytest.fixture
def make_bot(settings: Settings, dice: Dice, opened_bots: list[FarkleBot]) -> Callable[[], FarkleBot]:
    def make() -> FarkleBot:
        opened_bots.append(FarkleBot(settings, dice=dice))
        return opened_bots[-1]

    return make


@dataclass
class Table:
    env: simcord.Env
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    ana: simcord.MemberActor
    ben: simcord.MemberActor
    cy: simcord.MemberActor


@pytest.fixture
def table(env: simcord.Env) -> Table:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ana, ben, cy = (guild.add_member(env.create_user(name)) for name in ("ana", "ben", "cy"))
    return Table(env, guild, channel, ana, ben, cy)


@pytest.fixture
def admin(table: Table) -> simcord.MemberActor:
    """A member with Manage Server, who may change the server's Farkle configuration."""
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return table.guild.add_member(table.env.create_user("ada"), roles=[admins])


@pytest.fixture
def locales(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """Each member's Discord client locale by member id (unset: en-US); the server's own locale is what
    the guild was created with (`preferred_locale`). SimCord always sends en-US, so its payload builder
    is wrapped to send what a real client would."""
    chosen: dict[int, str] = {}
    build = simcord.interactions.base_payload

    def with_locales(backend: Any, **fields: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = build(backend, **fields)
        payload["locale"] = chosen.get(fields["user_id"], "en-US")
        if fields["guild_id"] is not None:
            payload["guild_locale"] = backend.get_guild(fields["guild_id"]).preferred_locale or "en-US"
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", with_locales)
    return chosen
