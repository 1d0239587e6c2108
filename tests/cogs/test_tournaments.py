"""Tournaments the way members run them, under SimCord and its clock: the card, Join and Start, a
thread per match with its call and Ready, games played on their boards, forfeits, and the podium."""

from __future__ import annotations

import discord
import pytest
import simcord

from tests.cogs.conftest import Dice, Table
from tests.cogs.play import (
    FARKLE,
    ROLL_OFF,
    SIX_ONES,
    MakeBot,
    act,
    big_turn,
    board_message,
    keep_all,
    parts,
    query,
    restart,
    texts,
)

CARD_TITLE = "### 🏆 "
# The first seat (the match's better seed) banks 10,000 in one turn; the other Farkles its last turn.
WINNING_GAME = (ROLL_OFF, *[SIX_ONES] * 5, FARKLE)


def card(channel: simcord.ChannelHandle) -> discord.Message:
    """The tournament's card: the newest V2 message whose title is the trophy (not the podium)."""
    for message in reversed(channel.history()):
        shown = texts(message)
        if shown and shown[0].startswith(CARD_TITLE) and "the results" not in shown[0]:
            return message
    raise AssertionError("no tournament card in the channel")


def card_text(channel: simcord.ChannelHandle) -> str:
    return "\n".join(texts(card(channel)))


def button(message: discord.Message, action: str) -> str:
    for item in parts(message):
        if isinstance(item, discord.Button) and item.custom_id and f":{action}" in item.custom_id:
            return item.custom_id
    raise AssertionError(f"no {action} button")


async def press(member: simcord.MemberActor, message: discord.Message, action: str) -> str:
    """Press a tournament button; the private answer the member reads."""
    result = await member.click(message, custom_id=button(message, action))
    assert result.ephemeral and result.response is not None
    return result.response.content


def call(thread: simcord.ChannelHandle) -> discord.Message:
    """The message that opened the match: both players pinged, and Ready."""
    return next(m for m in thread.history() if "Press Ready" in m.content)


def thread_of(
    table: Table, players: tuple[simcord.MemberActor, simcord.MemberActor]
) -> simcord.ChannelHandle:
    names = f"{players[0].name} vs {players[1].name}"
    return next(t for t in table.channel.threads if (t.name or "").endswith(names))


async def play_match(
    thread: simcord.ChannelHandle, first: simcord.MemberActor, second: simcord.MemberActor
) -> None:
    """Both press Ready; the game opens on its board in the thread and the first seat wins it."""
    assert "ready" in (await press(first, call(thread), "ready")).lower()
    await press(second, call(thread), "ready")
    await big_turn(first, thread, 5)
    await act(second, thread, "roll")  # the last turn Farkles
    assert "wins" in (texts(board_message(thread))[0])


async def play_first_round(
    table: Table, admin: simcord.MemberActor, players: tuple[simcord.MemberActor, ...]
) -> None:
    """A four-player single elimination signed up, started, and its first round won by seeds 1 and 2."""
    p1, p2, p3, p4 = players
    await admin.slash(table.channel, "farkle tournament new", name="Cup", length=1)
    for member in players:
        await press(member, card(table.channel), "join")
    await press(admin, card(table.channel), "start")
    await table.env.settle()
    await play_match(thread_of(table, (p1, p4)), p1, p4)
    await play_match(thread_of(table, (p2, p3)), p2, p3)
    await table.env.settle()


@pytest.fixture
def members(table: Table) -> list[simcord.MemberActor]:
    return [table.guild.add_member(table.env.create_user(f"p{n}")) for n in range(1, 9)]


async def test_eight_player_single_elimination_from_sign_up_to_podium_with_a_no_show(
    table: Table, admin: simcord.MemberActor, members: list[simcord.MemberActor], dice: Dice
) -> None:
    for _ in range(6):
        dice.script(*WINNING_GAME)
    result = await admin.slash(table.channel, "farkle tournament new", name="Friday Cup", deadline=5)
    assert not result.ephemeral
    assert "Friday Cup" in card_text(table.channel) and "Single elimination" in card_text(table.channel)
    for member in members:
        assert "signed up" in await press(member, card(table.channel), "join")
    assert "already signed up" in await press(members[0], card(table.channel), "join")
    assert "Entrants (8/64)" in card_text(table.channel)
    assert "Only" in await press(members[0], card(table.channel), "start")
    await press(admin, card(table.channel), "start")
    await table.env.settle()

    p1, p2, p3, p4, p5, p6, p7, p8 = members
    assert sorted(t.name or "" for t in table.channel.threads) == sorted(
        f"Friday Cup · 1-{n}: {a.name} vs {b.name}"
        for n, (a, b) in enumerate([(p1, p8), (p4, p5), (p2, p7), (p3, p6)], start=1)
    )
    opening = call(thread_of(table, (p4, p5)))
    assert opening.content.count(f"<@{p4.id}>") == 1 and opening.content.count(f"<@{p5.id}>") == 1
    started = [item.custom_id for item in parts(card(table.channel)) if isinstance(item, discord.Button)]
    assert started == [], "once started, the card has no Join, Leave or Start"

    await press(p1, call(thread_of(table, (p1, p8))), "ready")  # p8 never shows up
    for first, second in [(p4, p5), (p2, p7), (p3, p6)]:
        await play_match(thread_of(table, (first, second)), first, second)
    assert "Round 2" not in card_text(table.channel), "waiting for p8"
    await table.env.advance_time(5 * 60 + 1)
    await table.env.settle()
    no_show = thread_of(table, (p1, p8))
    assert "p1 wins match 1-1: the opponent didn't press Ready in time" in no_show.history()[-1].content
    assert "`1-1` **p1** vs ~~p8~~ · forfeit" in card_text(table.channel)
    assert "`1-2` **p4** beat p5 · 1–0" in card_text(table.channel)

    await play_match(thread_of(table, (p1, p4)), p1, p4)
    await play_match(thread_of(table, (p2, p3)), p2, p3)
    await play_match(thread_of(table, (p1, p2)), p1, p2)
    await table.env.settle()

    final = card_text(table.channel)
    assert "Round 3 of 3" in final and "`3-1` **p1** beat p2 · 1–0" in final
    podium = "\n".join(texts(table.channel.history()[-1]))
    assert "Friday Cup: the results" in podium
    assert "🥇 **p1**" in podium and "🥈 **p2**" in podium
    assert "🥉 **p4**" in podium and "🥉 **p3**" in podium, "both semi-final losers share third"
    assert "🥇 p1 · 3–0" in podium and "p8 · 0–1" in podium, "every entrant's record"
    stats = await p1.slash(table.channel, "farkle stats")
    assert stats.response is not None
    earned = next(f for f in stats.response.embeds[0].fields if f.name.startswith("Achievements"))
    assert "🏅 Champion" in (earned.value or ""), "the award the client hands the door"
    assert await query(table.env, "SELECT crowned_at IS NOT NULL FROM tournaments") == [(True,)]
    assert dice.unused == 0 and table.env.errors == []


async def refusal(member: simcord.MemberActor, channel: simcord.ChannelHandle, **options: object) -> str:
    result = await member.slash(channel, "farkle tournament new", **options)
    assert result.ephemeral and result.response is not None, "refused privately"
    return result.response.content


async def test_bad_input_gets_one_clear_answer_and_changes_nothing(
    table: Table, admin: simcord.MemberActor
) -> None:
    channel = table.channel
    assert "Manage Server" in await refusal(table.ana, channel, name="Mine")
    assert "1 to 100 characters" in await refusal(admin, channel, name="x" * 500)
    assert "at least 1 minute" in await refusal(admin, channel, name="Cup", deadline=0)
    assert "in the past" in await refusal(admin, channel, name="Cup", signup_until="2020-01-01 10:00")
    assert "can't read" in await refusal(admin, channel, name="Cup", signup_until="next friday")
    assert channel.history() == [], "nothing was posted"
    await admin.slash(channel, "farkle tournament new", name="Cup")
    assert "already signing up" in await refusal(admin, channel, name="Second")
    assert len([m for m in channel.history() if texts(m)]) == 1, "one card"
    listed = await admin.slash(channel, "farkle tournament list")
    assert (
        listed.response is not None and "**Cup** · Single elimination · signing up" in listed.response.content
    )


async def test_sign_up_closes_on_time_and_the_host_controls_a_running_tournament(
    table: Table, admin: simcord.MemberActor, members: list[simcord.MemberActor]
) -> None:
    soon = f"<t:{int(table.env.now().timestamp()) + 600}:R>"
    await admin.slash(
        table.channel, "farkle tournament new", name="Timed", format="swiss", rounds=2, signup_until=soon
    )
    for member in members[:5]:
        await press(member, card(table.channel), "join")
    await table.env.advance_time(601)
    await table.env.settle()
    shown = card_text(table.channel)
    assert "Round 1 of 2" in shown and "Computer stand-in" in shown, "five players: a stand-in"
    assert "Ties broken by Buchholz, Sonneborn-Berger, matches won, seed." in shown
    p2, p3 = members[1:3]
    refused = await table.ana.slash(table.channel, "farkle tournament disqualify", member=p2)
    assert refused.response is not None and "host" in refused.response.content
    await admin.slash(table.channel, "farkle tournament disqualify", member=p2)
    assert "disqualified" in card_text(table.channel)
    bot = table.env.bot
    await bot.services.stats.forget(p3.id)  # forget-me
    [past] = [v for v in await bot.services.tournaments.of_guild(table.guild.id)]
    assert dict(past.entrants)[p3.id] != "p3"
    cancelled = await admin.slash(table.channel, "farkle tournament cancel")
    assert cancelled.response is not None and "cancelled" in cancelled.response.content
    assert "This tournament was cancelled." in card_text(table.channel)
    shown_again = await admin.slash(table.channel, "farkle tournament show", tournament=past.tournament_id)
    assert shown_again.ephemeral and shown_again.response is not None
    assert "Timed" in str(shown_again.response.components), "the card, privately"


async def test_without_thread_permissions_matches_are_played_in_the_channel_one_game_at_a_time(
    table: Table, admin: simcord.MemberActor, members: list[simcord.MemberActor], dice: Dice
) -> None:
    for _ in range(3):
        dice.script(*WINNING_GAME)
    me = table.guild.me
    assert me is not None
    closed = table.guild.create_text_channel(
        "no-threads", overwrites={me: discord.PermissionOverwrite(create_public_threads=False)}
    )
    await admin.slash(closed, "farkle tournament new", name="Cup")
    p1, p2, p3, p4 = members[:4]
    for member in (p1, p2, p3, p4):
        await press(member, card(closed), "join")
    await press(admin, card(closed), "start")
    await table.env.settle()
    said = [m.content for m in closed.history()]
    assert sum("I couldn't open a thread for match" in line for line in said) == 2
    assert closed.threads == []

    def call_of(key: str) -> discord.Message:
        return next(m for m in closed.history() if f"your match {key} " in m.content)

    for member in (p1, p4, p2, p3):
        await press(member, call_of("1-1" if member in (p1, p4) else "1-2"), "ready")
    snapshot = table.env.bot.services.sessions.snapshot(closed.id)
    assert snapshot is not None and [s.user_id for s in snapshot.seats] == [p1.id, p4.id], "1-2 waits"
    await big_turn(p1, closed, 5)
    await act(p4, closed, "roll")
    await table.env.settle()
    snapshot = table.env.bot.services.sessions.snapshot(closed.id)
    assert snapshot is not None and snapshot.stage == "playing"
    assert [s.user_id for s in snapshot.seats] == [p2.id, p3.id], "then 1-2 starts at the free table"
    await big_turn(p2, closed, 5)
    await act(p3, closed, "roll")
    await table.env.settle()
    await press(p1, call_of("2-1"), "ready")
    await press(p2, call_of("2-1"), "ready")
    await big_turn(p1, closed, 5)
    await act(p2, closed, "roll")
    await table.env.settle()
    assert "🥇 **p1**" in "\n".join(texts(closed.history()[-1]))
    assert dice.unused == 0 and table.env.errors == []


async def test_a_restart_between_rounds_and_in_the_middle_of_a_match(
    table: Table,
    admin: simcord.MemberActor,
    members: list[simcord.MemberActor],
    dice: Dice,
    make_bot: MakeBot,
) -> None:
    for _ in range(3):
        dice.script(*WINNING_GAME)
    p1, p2, p3, p4 = members[:4]
    await play_first_round(table, admin, (p1, p2, p3, p4))
    await restart(table.env, make_bot)  # between rounds: the final's thread and call are out

    final = thread_of(table, (p1, p2))
    await press(p1, call(final), "ready")  # a call drawn before the restart still works
    await press(p2, call(final), "ready")
    await act(p1, final, "roll")
    await keep_all(p1, final)
    await restart(table.env, make_bot)  # in the middle of the final's game: its script is in its state

    await act(p1, final, "roll")
    await keep_all(p1, final)
    await big_turn(p1, final, 3)
    await act(p2, final, "roll")
    await table.env.settle()
    assert "`2-1` **p1** beat p2 · 1–0" in card_text(table.channel)
    assert "🥇 **p1**" in "\n".join(texts(table.channel.history()[-1]))
    counted = await query(table.env, "SELECT COUNT(*) FROM tournament_games")
    assert counted == [(3,)], "each match's game counted once"


async def test_five_player_swiss_of_three_rounds_with_a_computer_stand_in(
    table: Table, admin: simcord.MemberActor, members: list[simcord.MemberActor], dice: Dice
) -> None:
    for _ in range(9):
        dice.script(*WINNING_GAME)  # the better-placed seat (a member: never the stand-in) wins
    await admin.slash(
        table.channel, "farkle tournament new", name="Swiss", format="swiss", rounds=3, stand_in_skill=60
    )
    players = {member.id: member for member in members[:5]}
    for member in players.values():
        await press(member, card(table.channel), "join")
    await press(admin, card(table.channel), "start")
    await table.env.settle()
    door = table.env.bot.services.tournaments
    [tournament] = [v.tournament_id for v in door.running_in(table.guild.id)]
    for number in range(1, 4):
        view = door.view(tournament)
        assert view is not None and f"Round {number} of 3" in card_text(table.channel)
        for match in view.rounds_played[-1]:
            first = players[match.first]
            second = players.get(match.second or 0)
            thread = next(
                t for t in table.channel.threads if (t.name or "").startswith(f"Swiss · {match.key}:")
            )
            await press(first, call(thread), "ready")
            if second is None:  # the stand-in is ready at once; the computer Farkles its one turn
                assert "Computer stand-in" in (thread.name or "")
                assert "Computer 1 (skill 60)" in "\n".join(texts(board_message(thread))), "the host's choice"
                await big_turn(first, thread, 5)
            else:
                await press(second, call(thread), "ready")
                await big_turn(first, thread, 5)
                await act(second, thread, "roll")
            await table.env.settle()
    podium = "\n".join(texts(table.channel.history()[-1]))
    assert "Swiss: the results" in podium and "Computer stand-in" not in podium
    assert "Ties broken by Buchholz, Sonneborn-Berger, matches won, seed." in podium
    assert dice.unused == 0 and table.env.errors == []


async def test_a_role_the_server_sets_may_hold_tournaments_besides_manage_server(
    table: Table, admin: simcord.MemberActor
) -> None:
    hosts = table.guild.create_role("Hosts")
    host = table.guild.add_member(table.env.create_user("hana"), roles=[hosts])
    refused = "Only members with Manage Server can hold a tournament."
    assert await refusal(host, table.channel, name="Early") == refused, "no role set yet"
    set_role = await admin.slash(
        table.channel, "farkle-config set", option="tournament_role", value=hosts.mention
    )
    assert set_role.response is not None and set_role.response.embeds[0].title == "✅ Saved"
    shown = await admin.slash(table.channel, "farkle-config show")
    assert shown.response is not None
    listing = next(f.value for f in shown.response.embeds[0].fields if f.name == "Server settings")
    assert f"• tournament_role: <@&{hosts.id}>" in (listing or "")

    assert await refusal(table.ana, table.channel, name="Mine") == (
        f"Only members with Manage Server or the <@&{hosts.id}> role can hold a tournament."
    )
    assert table.channel.history() == [], "the refusal changed nothing"
    await host.slash(table.channel, "farkle tournament new", name="Hosted Cup")
    assert "Hosted Cup" in card_text(table.channel)
    elsewhere = table.guild.create_text_channel("more-games")
    await admin.slash(elsewhere, "farkle tournament new", name="Admins' Cup")
    assert "Admins' Cup" in card_text(elsewhere), "Manage Server still holds one"
    running = {v.name for v in table.env.bot.services.tournaments.running_in(table.guild.id)}
    assert running == {"Hosted Cup", "Admins' Cup"} and table.env.errors == []
