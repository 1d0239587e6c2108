"""The configuration service on a real migrated database, without Discord."""

from __future__ import annotations

import json

import pytest

from bot.core.environment import GameSettings
from bot.core.server_settings import SETTINGS
from bot.engine import OPTIONS, PRESET_NAMES, Ruleset, UserFacingError
from bot.services.server_settings import ConfigService, Editor, option_choices, option_names
from bot.storage import Database
from bot.storage.server_settings import AuditEntry, ConfigRow, SqlConfigStore
from tests.fakes import START, FakeClock

GUILD, OTHER = 1, 2
ANA = Editor(10, "ana")


@pytest.fixture
def store(database: Database) -> SqlConfigStore:
    return SqlConfigStore(database, SETTINGS)


@pytest.fixture
def service(store: SqlConfigStore) -> ConfigService:
    defaults = GameSettings(_env_file=None, default_rules="box", turn_timeout=90)
    return ConfigService(store, defaults, FakeClock())


async def test_a_server_that_changed_nothing_follows_the_bot_defaults(service: ConfigService) -> None:
    config = await service.get(GUILD)
    assert config.ruleset is Ruleset.preset("box")
    assert (config.table.turn_timeout, config.table.lobby_timeout, config.table.hints) == (90, 600, True)
    assert config.threads is False
    assert await service.resolve(GUILD, None) is config.ruleset


async def test_a_rule_change_is_validated_by_the_engine_and_renames_the_preset(
    service: ConfigService,
) -> None:
    change = await service.set_option(GUILD, ANA, "three_pairs", "750")
    assert (change.what, change.old, change.new) == ("three_pairs", "1500", "750")
    config = await service.get(GUILD)
    assert config.ruleset.three_pairs == 750 and config.ruleset.name == "custom"
    assert (await service.get(OTHER)).ruleset.three_pairs == 1500  # per server


async def test_setting_the_same_value_changes_and_logs_nothing(service: ConfigService) -> None:
    change = await service.set_option(GUILD, ANA, "target", "10,000")
    assert not change.changed
    assert await service.history(GUILD) == []


@pytest.mark.parametrize(
    ("option", "raw", "message"),
    [
        ("three_pairs", "400", "three_pairs takes off, 300, 500, 600, 750, 1000 or 1500."),
        ("turn_timeout", "5", "turn_timeout takes a number of seconds from 15 to 3,600."),
        ("lobby_timeout", "a day", "lobby_timeout takes a number of seconds from 30 to 86,400."),
        ("threads", "maybe", "threads takes on or off."),
        ("entry_roll_limit", "3", "An entry roll limit needs an entry minimum: set entry_minimum first."),
    ],
)
async def test_refusals_say_what_is_allowed(
    service: ConfigService, option: str, raw: str, message: str
) -> None:
    if option == "entry_roll_limit":
        await service.set_option(GUILD, ANA, "entry_minimum", "0")
    with pytest.raises(UserFacingError) as refused:
        await service.set_option(GUILD, ANA, option, raw)
    assert str(refused.value) == message


async def test_an_unknown_option_lists_rules_and_server_settings(service: ConfigService) -> None:
    with pytest.raises(
        UserFacingError, match=r"There is no rule called 'colour'\. Rules: .*Server settings: "
    ):
        await service.set_option(GUILD, ANA, "colour", "red")


async def test_server_settings_become_the_table_of_new_games(service: ConfigService) -> None:
    for option, raw in (
        ("turn_timeout", "45s"),
        ("lobby-timeout", "120"),
        ("hints", "off"),
        ("threads", "on"),
    ):
        await service.set_option(GUILD, ANA, option, raw)
    config = await service.get(GUILD)
    assert (config.table.turn_timeout, config.table.lobby_timeout, config.table.hints) == (45, 120, False)
    assert config.threads and config.ruleset.name == "box"  # the rules are untouched


async def test_named_rulesets_save_resolve_and_delete(service: ConfigService) -> None:
    await service.set_option(GUILD, ANA, "target", "5000")
    await service.save_named(GUILD, ANA, "Friday-Night")
    assert (await service.get(GUILD)).ruleset.name == "friday-night"
    assert await service.rules_names(GUILD) == [*PRESET_NAMES, "friday-night"]
    assert await service.rules_names(OTHER) == list(PRESET_NAMES)
    saved = await service.resolve(GUILD, "friday-night")
    assert saved is not None and saved.target == 5000
    assert await service.resolve(GUILD, "nope") is None
    await service.use_preset(GUILD, ANA, "family")
    await service.make_default(GUILD, ANA, "friday-night")
    assert (await service.get(GUILD)).ruleset.target == 5000
    await service.set_option(GUILD, ANA, "target", "6000")
    assert (await service.get(GUILD)).ruleset.name == "custom"  # no longer what friday-night says
    await service.delete_named(GUILD, ANA, "friday-night")
    assert await service.resolve(GUILD, "friday-night") is None
    with pytest.raises(UserFacingError, match="There is no saved ruleset called “friday-night”"):
        await service.delete_named(GUILD, ANA, "friday-night")


async def test_deleting_the_saved_ruleset_in_use_keeps_its_rules_as_custom(service: ConfigService) -> None:
    await service.save_named(GUILD, ANA, "house")
    await service.delete_named(GUILD, ANA, "house")
    ruleset = (await service.get(GUILD)).ruleset
    assert ruleset.name == "custom" and ruleset.three_pairs == 1500


@pytest.mark.parametrize("name", ["classic", "custom", "has space", "x" * 33, ""])
async def test_saved_names_are_short_and_do_not_shadow_presets(service: ConfigService, name: str) -> None:
    with pytest.raises(UserFacingError, match="lowercase letters, digits"):
        await service.save_named(GUILD, ANA, name)


async def test_unknown_default_lists_what_exists(service: ConfigService) -> None:
    with pytest.raises(UserFacingError, match="no ruleset called “nope”: choose classic, box, doubling"):
        await service.make_default(GUILD, ANA, "nope")
    with pytest.raises(UserFacingError, match="There is no rule set called 'nope'"):
        await service.use_preset(GUILD, ANA, "nope")


async def test_reset_restores_defaults_and_keeps_saved_rulesets(service: ConfigService) -> None:
    await service.set_option(GUILD, ANA, "turn_timeout", "300")
    await service.set_option(GUILD, ANA, "piggyback", "bonus")
    await service.save_named(GUILD, ANA, "pig")
    change = await service.reset(GUILD, ANA)
    assert change.old == (
        "pig rules, turn_timeout 300, lobby_timeout 600, hints on, threads off, language auto, "
        "live_odds on, season month, season_channel none, tournament_role none"
    )
    config = await service.get(GUILD)
    assert config.ruleset is Ruleset.preset("box") and config.table.turn_timeout == 90
    assert await service.resolve(GUILD, "pig") is not None


async def test_history_names_who_changed_what_newest_first(service: ConfigService) -> None:
    await service.set_option(GUILD, ANA, "hot_dice", "forced")
    await service.set_option(GUILD, Editor(11, "ben"), "hints", "off")
    await service.save_named(GUILD, ANA, "hot")
    entries = await service.history(GUILD)
    assert [(e.user_name, e.what, e.old, e.new) for e in entries] == [
        ("ana", "saved ruleset", None, "hot"),
        ("ben", "hints", "on", "off"),
        ("ana", "hot_dice", "optional", "forced"),
    ]
    assert entries[0].user_id == ANA.id and entries[0].at == START
    assert len(await service.history(GUILD, limit=2)) == 2


async def test_a_stored_ruleset_the_engine_now_refuses_falls_back_to_the_default(
    service: ConfigService, store: SqlConfigStore
) -> None:
    broken = Ruleset.preset("classic").model_dump() | {"target": 1}
    entry = AuditEntry(ANA.id, ANA.name, "rules", None, "broken", 0.0)
    await store.save(GUILD, ConfigRow(rules=json.dumps(broken)), entry)
    assert (await service.get(GUILD)).ruleset is Ruleset.preset("box")


def test_every_option_and_setting_is_offered() -> None:
    assert option_names() == [*OPTIONS, *SETTINGS]
    assert option_choices("three-pairs") == OPTIONS["three_pairs"].choices
    assert option_choices("threads") == ("on", "off")
    assert option_choices("target") == ()


async def test_deleting_an_unknown_name_lists_the_saved_ones(service: ConfigService) -> None:
    await service.save_named(GUILD, ANA, "house")
    with pytest.raises(UserFacingError) as refused:
        await service.delete_named(GUILD, ANA, "hose")
    assert str(refused.value) == "There is no saved ruleset called “hose”: choose house."
    assert [e.new for e in await service.history(GUILD)] == ["house"]  # a refusal is not logged


async def test_live_odds_are_on_by_default_and_a_server_turns_them_off(service: ConfigService) -> None:
    assert (await service.get(GUILD)).table.live_odds is True
    change = await service.set_option(GUILD, ANA, "live_odds", "off")
    assert (change.old, change.new) == ("on", "off")
    assert (await service.get(GUILD)).table.live_odds is False
    with pytest.raises(UserFacingError, match="live_odds takes"):
        await service.set_option(GUILD, ANA, "live_odds", "sometimes")


async def test_the_season_and_its_channel_are_server_settings(service: ConfigService) -> None:
    """A season is a month unless an admin chooses a quarter; its standings go to a channel, or nowhere."""
    assert (await service.get(GUILD)).season == "month"
    assert (await service.get(GUILD)).season_channel is None
    changed = await service.set_option(GUILD, ANA, "season", "Quarter")
    assert (changed.old, changed.new, changed.config.season) == ("month", "quarter", "quarter")
    changed = await service.set_option(GUILD, ANA, "season_channel", "<#1234>")
    assert (changed.old, changed.new, changed.config.season_channel) == ("none", "<#1234>", 1234)
    assert (await service.get(GUILD)).season_channel == 1234
    for bad in ("year", "weekly"):
        with pytest.raises(UserFacingError, match="season takes month or quarter"):
            await service.set_option(GUILD, ANA, "season", bad)
    with pytest.raises(UserFacingError, match=r"season_channel takes a channel \(#name\) or none"):
        await service.set_option(GUILD, ANA, "season_channel", "general")
    changed = await service.set_option(GUILD, ANA, "season_channel", "none")
    assert changed.config.season_channel is None and changed.new == "none"
