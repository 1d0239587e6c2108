"""`/farkle-config` through SimCord: admins set house rules, players see and play them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import discord
import pytest
import simcord

from bot.app.client import FarkleBot
from bot.core.server_settings import SETTINGS
from bot.engine import OPTIONS, Ruleset
from cogs.threads import NO_THREAD
from tests.cogs.conftest import Table
from tests.cogs.play import (
    act,
    board_message,
    description,
    open_game,
    title,
)

# A valid value for every rule, after the steps it needs (from classic), each visible in the summary.
RULE_STEPS: dict[str, list[tuple[str, str]]] = {
    "single_one": [("single_one", "200")],
    "single_five": [("single_five", "100")],
    "three_ones": [("three_ones", "300")],
    "n_of_a_kind": [("n_of_a_kind", "doubling")],
    "six_of_a_kind": [("six_of_a_kind", "3000")],
    "six_ones": [("six_ones", "5000")],
    "six_ones_instant_win": [("six_ones_instant_win", "on")],
    "straight": [("straight", "1500")],
    "three_pairs": [("three_pairs", "750")],
    "four_and_pair": [("four_and_pair", "1500")],
    "two_triplets": [("two_triplets", "2500")],
    "penalty_roll": [("penalty_roll", "-1000")],
    "entry_minimum": [("entry_minimum", "500")],
    "entry_roll_limit": [("entry_minimum", "500"), ("entry_roll_limit", "3")],
    "bank_minimum": [("bank_minimum", "300")],
    "hot_dice": [("hot_dice", "forced")],
    "three_farkles": [("three_farkles", "reset")],
    "piggyback": [("piggyback", "previous_points")],
    "piggyback_bonus": [("piggyback", "bonus"), ("piggyback_bonus", "500")],
    "piggyback_needs_all_on_board": [("piggyback", "bonus"), ("piggyback_needs_all_on_board", "on")],
    "target": [("target", "5000")],
    "end_rule": [("end_rule", "exact")],
    "tie_rule": [("tie_rule", "share")],
    "teams": [("teams", "2")],
    "min_players": [("min_players", "3")],
    "max_players": [("max_players", "4")],
}


async def configure(
    admin: simcord.MemberActor, channel: simcord.ChannelHandle, option: str, value: str
) -> None:
    result = await admin.slash(channel, "farkle-config set", option=option, value=value)
    assert result.ephemeral and result.response is not None
    assert result.response.embeds[0].title == "✅ Saved", result.response.content


def rule_fields(embed: discord.Embed) -> dict[str, str]:
    return {f.name or "": f.value or "" for f in embed.fields if f.name in ("Scoring", "Turn", "End of game")}


def expected_fields(ruleset: Ruleset) -> dict[str, str]:
    return {name: "\n".join(f"• {line}" for line in lines) for name, lines in ruleset.summary_sections()}


async def shown(admin: simcord.MemberActor, channel: simcord.ChannelHandle) -> discord.Embed:
    result = await admin.slash(channel, "farkle-config show")
    assert result.ephemeral and result.response is not None
    return result.response.embeds[0]


async def rules_for_players(member: simcord.MemberActor, channel: simcord.ChannelHandle) -> discord.Embed:
    result = await member.slash(channel, "farkle rules")
    assert result.ephemeral and result.response is not None
    return result.response.embeds[0]


def test_every_rule_has_a_case() -> None:
    assert set(RULE_STEPS) == set(OPTIONS)


async def test_members_without_manage_server_neither_see_nor_run_it(
    table: Table, admin: simcord.MemberActor
) -> None:
    assert "farkle-config set" not in table.ana.available_commands(table.channel)
    assert "farkle rules" in table.ana.available_commands(table.channel)
    assert {"farkle-config show", "farkle-config set", "farkle-config reset"} <= set(
        admin.available_commands(table.channel)
    )
    # A server owner may show the command to anyone; running it still needs Manage Server.
    command = next(c for c in await table.env.bot.tree.fetch_commands() if c.name == "farkle-config")
    table.guild.set_command_permissions(command, {table.ana: True})
    result = await table.ana.slash(table.channel, "farkle-config set", option="target", value="5000")
    assert result.ephemeral and result.response is not None
    assert result.response.content == "You need the Manage Server permission to do that."
    assert [type(e).__name__ for e in table.env.errors] == ["MissingPermissions"]
    assert (await table.env.bot.services.config.get(table.guild.id)).ruleset.target == 10000


@pytest.mark.parametrize("option", list(RULE_STEPS))
async def test_every_rule_is_settable_shown_and_used_by_the_next_game(
    table: Table, admin: simcord.MemberActor, option: str
) -> None:
    expected = Ruleset.preset("classic")
    for name, value in RULE_STEPS[option]:
        await configure(admin, table.channel, name, value)
        expected = expected.with_option(name, value)
    assert expected.summary() != Ruleset.preset("classic").summary(), "the change must be visible"
    assert rule_fields(await shown(admin, table.channel)) == expected_fields(expected)
    assert rule_fields(await rules_for_players(table.ben, table.channel)) == expected_fields(expected)
    result = await table.ana.slash(table.channel, "farkle new")
    assert not result.ephemeral
    snapshot = table.env.bot.services.sessions.snapshot(table.channel.id)
    assert snapshot is not None and snapshot.rules.model_dump() == expected.model_dump()
    assert "custom rules" in title(board_message(table.channel))


@pytest.mark.parametrize(
    ("option", "value"), [("turn_timeout", "45"), ("lobby_timeout", "120"), ("hints", "off")]
)
async def test_every_server_setting_is_settable_shown_and_used_by_the_next_game(
    table: Table, admin: simcord.MemberActor, option: str, value: str
) -> None:
    await configure(admin, table.channel, option, value)
    settings = next(
        f.value for f in (await shown(admin, table.channel)).fields if f.name == "Server settings"
    )
    assert f"• {option}: {value}" in (settings or "")
    await table.ana.slash(table.channel, "farkle new")
    snapshot = table.env.bot.services.sessions.snapshot(table.channel.id)
    assert snapshot is not None
    if option == "turn_timeout":
        assert snapshot.turn_timeout == 45
    elif option == "lobby_timeout":
        assert snapshot.deadline == pytest.approx(table.env.bot.clock.now() + 120)
    else:
        assert snapshot.hints is False


def test_threads_language_and_live_odds_are_the_only_settings_tested_elsewhere() -> None:
    """live_odds: tests/cogs/test_review.py; season, season_channel: tests/cogs/test_seasons.py;
    tournament_role: tests/cogs/test_tournaments.py."""
    elsewhere = {"live_odds", "season", "season_channel", "tournament_role"}
    assert set(SETTINGS) - elsewhere == {"turn_timeout", "lobby_timeout", "hints", "threads", "language"}


@pytest.mark.parametrize(
    ("option", "value", "refusal"),
    [
        ("three_pairs", "400", "three_pairs takes off, 300, 500, 600, 750, 1000 or 1500."),
        ("target", "lots", "target takes a multiple of 500 from 1,000 to 100,000."),
        ("hot_dice", "sometimes", "hot_dice takes optional or forced."),
        ("max_players", "9", "max_players takes a multiple of 1 from 2 to 8."),
        ("turn_timeout", "5", "turn_timeout takes a number of seconds from 15 to 3,600."),
        ("threads", "perhaps", "threads takes on or off."),
    ],
)
async def test_invalid_values_are_refused_with_what_is_allowed(
    table: Table, admin: simcord.MemberActor, option: str, value: str, refusal: str
) -> None:
    result = await admin.slash(table.channel, "farkle-config set", option=option, value=value)
    assert result.ephemeral and result.response is not None
    assert result.response.content == refusal
    assert await table.env.bot.services.config.history(table.guild.id) == []


async def test_option_and_value_autocomplete(table: Table, admin: simcord.MemberActor) -> None:
    options = await admin.autocomplete(table.channel, "farkle-config set", "option", "pair")
    assert [c["value"] for c in options] == ["three_pairs", "four_and_pair"]
    settings = await admin.autocomplete(table.channel, "farkle-config set", "option", "time")
    assert [c["value"] for c in settings] == ["turn_timeout", "lobby_timeout"]
    values = await admin.autocomplete(table.channel, "farkle-config set", "value", "", option="three_pairs")
    assert [c["value"] for c in values] == ["off", "300", "500", "600", "750", "1000", "1500"]
    typed = await admin.autocomplete(table.channel, "farkle-config set", "value", "7000", option="target")
    assert typed == [{"name": "7000 (a multiple of 500 from 1,000 to 100,000)", "value": "7000"}]


async def test_a_settings_declaration_is_what_farkle_config_accepts_and_suggests(
    table: Table, admin: simcord.MemberActor, monkeypatch: pytest.MonkeyPatch
) -> None:
    narrow = replace(SETTINGS["turn_timeout"], bounds=(20, 40), choices=("20", "40"))
    monkeypatch.setitem(SETTINGS, "turn_timeout", narrow)
    result = await admin.slash(table.channel, "farkle-config set", option="turn_timeout", value="15")
    assert result.response is not None
    assert result.response.content == "turn_timeout takes a number of seconds from 20 to 40."
    values = await admin.autocomplete(table.channel, "farkle-config set", "value", "", option="turn_timeout")
    assert [c["value"] for c in values] == ["20", "40"]
    await configure(admin, table.channel, "turn_timeout", "40")


async def test_a_running_game_keeps_its_rules(table: Table, admin: simcord.MemberActor) -> None:
    await open_game(table.channel, table.ana, table.ben)
    await configure(admin, table.channel, "target", "5000")
    assert "classic rules" in title(board_message(table.channel))
    embed = await rules_for_players(table.ben, table.channel)
    assert embed.title == "Rules of this game: classic"
    snapshot = table.env.bot.services.sessions.snapshot(table.channel.id)
    assert snapshot is not None and snapshot.rules.target == 10000
    other = table.guild.create_text_channel("more-games")
    await table.cy.slash(other, "farkle new")
    snapshot = table.env.bot.services.sessions.snapshot(other.id)
    assert snapshot is not None and snapshot.rules.target == 5000


async def test_named_rulesets(table: Table, admin: simcord.MemberActor) -> None:
    await configure(admin, table.channel, "target", "5000")
    saved = await admin.slash(table.channel, "farkle-config save", name="friday-night")
    assert saved.response is not None and "saved ruleset: friday-night" in (
        saved.response.embeds[0].description or ""
    )
    await admin.slash(table.channel, "farkle-config preset", name="family")
    offered = await table.ana.autocomplete(table.channel, "farkle new", "rules", "")
    assert [c["value"] for c in offered] == [
        "classic",
        "box",
        "doubling",
        "last-loses",
        "family",
        "friday-night",
    ]
    assert await table.ana.autocomplete(table.channel, "farkle new", "rules", "fri") == [
        {"name": "friday-night", "value": "friday-night"}
    ]
    deletable = await admin.autocomplete(table.channel, "farkle-config delete", "name", "")
    assert [c["value"] for c in deletable] == ["friday-night"]

    await table.ana.slash(table.channel, "farkle new", rules="friday-night")
    assert "friday-night rules" in title(board_message(table.channel))
    snapshot = table.env.bot.services.sessions.snapshot(table.channel.id)
    assert snapshot is not None and snapshot.rules.target == 5000
    await table.ana.slash(table.channel, "farkle end")

    await admin.slash(table.channel, "farkle-config default", name="friday-night")
    assert (await rules_for_players(table.ben, table.channel)).title == "This server's rules: friday-night"

    await admin.slash(table.channel, "farkle-config delete", name="friday-night")
    refused = await table.ana.slash(table.channel, "farkle new", rules="friday-night")
    assert refused.ephemeral and refused.response is not None
    assert refused.response.content == (
        "Unknown rules “friday-night”: choose one of classic, box, doubling, last-loses, family."
    )
    missing = await admin.slash(table.channel, "farkle-config delete", name="friday-night")
    assert missing.response is not None
    assert (
        missing.response.content
        == "There is no saved ruleset called “friday-night”: this server has none yet."
    )


async def test_reset_asks_first_and_only_then_restores_the_defaults(
    table: Table, admin: simcord.MemberActor
) -> None:
    await configure(admin, table.channel, "target", "5000")
    asked = await admin.slash(table.channel, "farkle-config reset")
    assert asked.ephemeral and asked.response is not None
    cancelled = await admin.click(asked.response.message, label="Cancel")
    assert cancelled.response is not None and cancelled.response.content == "Cancelled: nothing changed."
    assert (await table.env.bot.services.config.get(table.guild.id)).ruleset.target == 5000

    asked = await admin.slash(table.channel, "farkle-config reset")
    assert asked.response is not None
    await admin.click(asked.response.message, label="Reset")
    assert (await table.env.bot.services.config.get(table.guild.id)).ruleset == Ruleset.preset("classic")


async def test_configuration_survives_a_restart(
    table: Table, admin: simcord.MemberActor, make_bot: Callable[[], FarkleBot]
) -> None:
    await configure(admin, table.channel, "three_pairs", "500")
    await configure(admin, table.channel, "turn_timeout", "60")
    await admin.slash(table.channel, "farkle-config save", name="pairs")
    await table.env.restart_bot(make_bot())
    embed = await shown(admin, table.channel)
    assert embed.title == "This server's rules: pairs"
    assert "Three pairs: 500" in rule_fields(embed)["Scoring"]
    offered = await table.ana.autocomplete(table.channel, "farkle new", "rules", "pa")
    assert [c["value"] for c in offered] == ["pairs"]
    await table.ana.slash(table.channel, "farkle new")
    snapshot = table.env.bot.services.sessions.snapshot(table.channel.id)
    assert snapshot is not None and snapshot.rules.three_pairs == 500 and snapshot.turn_timeout == 60


async def test_history_lists_who_changed_what(table: Table, admin: simcord.MemberActor) -> None:
    empty = await admin.slash(table.channel, "farkle-config history")
    assert (
        empty.response is not None and empty.response.embeds[0].description == "Nothing has been changed yet."
    )
    await configure(admin, table.channel, "three_pairs", "750")
    await configure(admin, table.channel, "threads", "on")
    result = await admin.slash(table.channel, "farkle-config history")
    assert result.ephemeral and result.response is not None
    lines = (result.response.embeds[0].description or "").splitlines()
    assert [line.split(":R> ", 1)[1] for line in lines] == [
        "**ada** · threads: off → on",
        "**ada** · three_pairs: off → 750",
    ]


async def test_games_in_threads(table: Table, admin: simcord.MemberActor) -> None:
    await configure(admin, table.channel, "threads", "on")
    result = await table.ana.slash(table.channel, "farkle new")
    assert not result.ephemeral and result.response is not None
    [thread] = table.channel.threads
    assert thread.name == "Farkle · ana"
    assert (
        result.response.content
        == f"🎲 **ana** opened a Farkle lobby (classic rules): join in {thread.mention}"
    )
    assert table.env.bot.services.sessions.snapshot(table.channel.id) is None
    await act(table.ben, thread, "join")
    await act(table.ana, thread, "start")
    snapshot = table.env.bot.services.sessions.snapshot(thread.id)
    assert snapshot is not None and snapshot.stage == "playing" and len(snapshot.seats) == 2
    assert "turn" in description(board_message(thread))
    assert table.channel.history()[-1].content == result.response.content  # the channel stays quiet
    # A second game gets its own thread while the first one runs.
    await table.cy.slash(table.channel, "farkle new")
    assert sorted(t.name or "" for t in table.channel.threads) == ["Farkle · ana", "Farkle · cy"]


async def test_without_thread_permissions_the_game_stays_in_the_channel(
    table: Table, admin: simcord.MemberActor
) -> None:
    me = table.guild.me
    assert me is not None
    closed = table.guild.create_text_channel(
        "no-threads", overwrites={me: discord.PermissionOverwrite(create_public_threads=False)}
    )
    await configure(admin, table.channel, "threads", "on")
    result = await table.ana.slash(closed, "farkle new")
    assert not result.ephemeral and closed.threads == []
    assert [f.content for f in result.followups] == [NO_THREAD]
    assert result.followups[0].ephemeral
    assert "lobby" in title(board_message(closed))


async def test_a_thread_that_refuses_the_board_falls_back_to_the_channel(
    table: Table, admin: simcord.MemberActor
) -> None:
    await configure(admin, table.channel, "threads", "on")
    table.env.inject_error("POST", "/channels/*/messages", status=403, code=50001, message="Missing Access")
    result = await table.ana.slash(table.channel, "farkle new")
    assert result.response is not None and "lobby" in title(board_message(table.channel))
    assert [f.content for f in result.followups] == [NO_THREAD] and result.followups[0].ephemeral
    assert table.channel.threads == [], "the empty thread is removed"
    sessions = table.env.bot.services.sessions
    assert [s.channel_id for s in sessions.snapshots()] == [table.channel.id]
    await act(table.ben, table.channel, "join")
    await act(table.ana, table.channel, "start")  # the game is played in the channel
    assert table.env.errors == []
