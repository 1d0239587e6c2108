"""Each server setting is declared once (`bot/core/server_settings.py`): the operator's variables, the
defaults games start with, what `/farkle-config set` accepts and the stored row all follow it."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest
from pydantic import ValidationError

from bot.core.environment import GameSettings
from bot.core.server_settings import SETTINGS, TURN_TIMEOUT, Choice, Mention, Seconds, ServerSetting, Switch
from bot.engine import UserFacingError
from bot.services.server_settings import ConfigService, Editor
from bot.sessions.session import Snapshot, TableSettings
from bot.storage import Database
from bot.storage.server_settings import SqlConfigStore
from tests.fakes import FakeClock

GUILD = 1
ANA = Editor(10, "ana")


def service_on(database: Database, **operator: int) -> ConfigService:
    defaults = GameSettings(_env_file=None, **operator)
    return ConfigService(SqlConfigStore(database, SETTINGS), defaults, FakeClock())


@pytest.fixture
def narrow_turns(monkeypatch: pytest.MonkeyPatch) -> Seconds:
    """The declaration's bounds narrowed to 20..40 seconds, everywhere it is read."""
    narrow = replace(TURN_TIMEOUT, bounds=(20, 40), choices=("20", "40"))
    monkeypatch.setitem(SETTINGS, "turn_timeout", narrow)
    return narrow


def test_the_declarations_bounds_are_what_the_operators_variable_accepts(narrow_turns: Seconds) -> None:
    assert GameSettings(_env_file=None, turn_timeout=30).turn_timeout == 30
    for outside in (15, 50):
        with pytest.raises(ValidationError, match="a number of seconds from 20 to 40"):
            GameSettings(_env_file=None, turn_timeout=outside)


async def test_the_declarations_bounds_are_what_farkle_config_accepts(
    database: Database, narrow_turns: Seconds
) -> None:
    service = service_on(database, turn_timeout=30)
    with pytest.raises(UserFacingError) as refused:
        await service.set_option(GUILD, ANA, "turn_timeout", "15")
    assert refused.value.message == narrow_turns.refused().message  # "… from 20 to 40"
    assert (await service.set_option(GUILD, ANA, "turn_timeout", "40")).config.table.turn_timeout == 40


def test_defaults_come_from_the_declarations() -> None:
    operator = GameSettings(_env_file=None).server_defaults()
    assert operator == {name: s.default for name, s in SETTINGS.items() if s.operator} != {}
    table = {f.name: f.default for f in fields(TableSettings) if f.name in SETTINGS}
    assert table == {name: s.default for name, s in SETTINGS.items() if s.on_table} != {}
    shown = {f.name: f.default for f in fields(Snapshot) if f.name in SETTINGS}
    assert shown == {name: SETTINGS[name].default for name in shown} != {}


def _not_the_default(setting: ServerSetting[object]) -> str:
    """A value an admin could type that is not what a server starts with."""
    if isinstance(setting, Seconds):
        return str(setting.bounds[1])
    if isinstance(setting, Switch):
        return "off" if setting.default else "on"
    if isinstance(setting, Choice):
        return next(c for c in setting.choices if setting.parse(c) != setting.default)
    if isinstance(setting, Mention):
        return f"<{setting.sigil}123456789012345678>"
    raise AssertionError(f"{setting.name}: a kind this test does not know")


@pytest.mark.parametrize("name", list(SETTINGS))
async def test_every_setting_round_trips_through_storage(database: Database, name: str) -> None:
    setting = SETTINGS[name]
    typed = _not_the_default(setting)
    change = await service_on(database).set_option(GUILD, ANA, name, typed)
    assert change.changed and change.new == setting.words(setting.parse(typed))
    again = await service_on(database).get(GUILD)  # a fresh service: read back from the database
    assert again.value(name) == setting.parse(typed) != setting.default
    others = {other: again.value(other) for other in SETTINGS if other != name}
    assert others == {other: SETTINGS[other].default for other in others}
