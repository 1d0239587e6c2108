"""What hostile or merely unusual members send: long input and names, DMs, forged payloads."""

from __future__ import annotations

import logging

import pytest
import simcord

from bot.app.errors import NOT_IN_DMS
from tests.cogs import play
from tests.cogs.conftest import Dice, Table
from tests.cogs.forge import dm_slash, forged_component
from tests.cogs.play import FARKLE, ROLL_OFF, SIX_ONES, act, big_turn, board_message, field, open_game, title

LONG = "x" * 6000  # the longest text a slash command option can carry


@pytest.mark.parametrize(
    ("command", "options", "starts"),
    [
        ("farkle replay", {"game": LONG}, "No finished game `xxx"),
        ("farkle review", {"game": LONG}, "No finished game `xxx"),
        ("farkle new", {"rules": LONG}, "Unknown rules “xxx"),
        ("farkle-config delete", {"name": LONG}, "There is no saved ruleset called “xxx"),
        ("farkle-config default", {"name": LONG}, "There is no ruleset called “xxx"),
        ("farkle-config set", {"option": LONG, "value": "1"}, "There is no rule called 'xxx"),
    ],
)
async def test_replies_that_quote_long_input_stay_within_discords_limit(
    table: Table, admin: simcord.MemberActor, command: str, options: dict[str, str], starts: str
) -> None:
    result = await admin.slash(table.channel, command, **options)
    assert result.ephemeral and result.response is not None
    answer = result.response.content
    assert answer.startswith(starts) and "…" in answer and len(answer) <= 2000
    assert table.env.errors == []


async def test_huge_display_names_are_cut_wherever_they_are_drawn(table: Table, dice: Dice) -> None:
    host, guest = (
        table.guild.add_member(table.env.create_user(f"long{n}", global_name=n * 10_000)) for n in "AB"
    )
    dice.script(ROLL_OFF, *[SIX_ONES] * 5, FARKLE)
    await open_game(table.channel, host, guest)
    assert "**AAAAAAAA" in field(board_message(table.channel), "Standings")
    await big_turn(host, table.channel, 5)
    await act(guest, table.channel, "roll")
    shown = title(board_message(table.channel))
    assert shown.startswith("🏆 AAAA") and shown.endswith("… wins!") and len(shown) < 100
    results = board_message(table.channel)
    reviewed = await guest.click(results, custom_id=play.buttons(results)["farkle-review"].custom_id)
    assert reviewed.response is not None
    play.assert_within_discord_limits(reviewed.response.message)
    assert all(name.endswith("…") for name in play.fields(reviewed.response.message)), "each player's block"

    for command in ("farkle leaderboard", "farkle history", "farkle stats"):
        result = await guest.slash(table.channel, command)
        assert result.response is not None and result.response.embeds, command
    assert (result.response.embeds[0].title or "") == f"📊 {'B' * 31}… at Farkle"
    assert table.env.errors == []


async def test_server_settings_sent_from_a_dm_are_answered(table: Table) -> None:
    user = table.env.create_user("dee")
    result = await dm_slash(user, "farkle-config show")
    assert result.ephemeral and result.response is not None
    assert result.response.content == str(NOT_IN_DMS)
    assert table.env.errors == []


@pytest.mark.parametrize(
    ("locale", "answer"),
    [
        ("en-US", "This works in a server only, not in direct messages."),
        ("de", "Das geht nur auf einem Server, nicht in Direktnachrichten."),
    ],
)
async def test_reset_leaderboard_in_the_bots_dm_says_it_works_in_a_server(
    env: simcord.Env, locales: dict[int, str], locale: str, answer: str
) -> None:
    """There is no server to manage in a DM: the answer is the other server-only commands' one, in the
    member's language, not a permission that could never be granted there."""
    dee = env.create_user("dee")
    locales[dee.id] = locale
    result = await dee.slash("farkle reset-leaderboard")
    assert result.ephemeral and result.response is not None
    assert result.response.content == answer
    assert [type(error).__name__ for error in env.errors] == ["NoPrivateMessage"]


async def test_leaderboard_pages_pressed_from_a_dm_turn_that_conversation_s_pages(table: Table) -> None:
    user = table.env.create_user("dee")
    note = await user.send_dm("hello")
    result = await forged_component(user, note, "farkle-lb:wins:all:1:next")
    assert table.env.errors == []
    assert result.response is not None and result.response.embeds


@pytest.mark.parametrize(
    ("custom_id", "values"),
    [
        ("farkle-lb:rating:all:1000000000000000000:next", None),
        ("farkle-lb:rating:all:" + "9" * 5000 + ":next", None),
        ("farkle-lb:rating:all:1:next", ["1"]),  # a select menu carrying a page button's id
    ],
)
async def test_forged_leaderboard_pages_are_ignored_quietly(
    table: Table, custom_id: str, values: list[str] | None, caplog: pytest.LogCaptureFixture
) -> None:
    shown = await table.ana.slash(table.channel, "farkle leaderboard")
    assert shown.response is not None
    board = next(m for m in table.channel.history() if m.id == shown.response.id)
    result = await forged_component(table.ben, board, custom_id, values=values)
    assert not result.acknowledged
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert table.env.errors == []


@pytest.mark.parametrize(
    ("command", "option", "typed", "filled"),
    [
        ("farkle-config set", "option", "", {}),
        ("farkle-config set", "value", "5000", {"option": "target"}),
        ("farkle-config delete", "name", "", {}),
        ("farkle-config default", "name", "", {}),
    ],
)
async def test_config_autocomplete_offers_nothing_without_manage_server(
    table: Table, admin: simcord.MemberActor, command: str, option: str, typed: str, filled: dict[str, str]
) -> None:
    await admin.slash(table.channel, "farkle-config save", name="friday-night")
    config = next(c for c in await table.env.bot.tree.fetch_commands() if c.name == "farkle-config")
    table.guild.set_command_permissions(config, {table.ana: True})  # an owner may show it to anyone
    assert await admin.autocomplete(table.channel, command, option, typed, **filled)
    assert await table.ana.autocomplete(table.channel, command, option, typed, **filled) == []


async def test_stats_for_someone_outside_the_server_answers_clearly(table: Table) -> None:
    stranger = table.env.create_user("stranger")
    result = await table.ana.slash(table.channel, "farkle stats", member=stranger)
    assert result.ephemeral and result.response is not None
    assert result.response.content == "stranger is not a member of this server."
    assert [type(e).__name__ for e in table.env.errors] == ["TransformerError"]  # answered, not logged
