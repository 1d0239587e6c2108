"""Tournaments at scale and under racing presses, under SimCord and its clock: 200 Join presses at once, a
64-player single elimination playing its 32 first-round matches at once, a Leave pressed on a card drawn
before the start, and a finished game's end announced again after a crash."""

from __future__ import annotations

import simcord

from tests.cogs.conftest import Dice, Table
from tests.cogs.forge import forged_component, press_together
from tests.cogs.play import MakeBot, assert_within_discord_limits, execute, query, restart
from tests.cogs.test_tournaments import (
    WINNING_GAME,
    button,
    call,
    card,
    card_text,
    play_first_round,
    press,
    thread_of,
)


def sign_up(table: Table, count: int) -> list[simcord.MemberActor]:
    return [table.guild.add_member(table.env.create_user(f"m{n}")) for n in range(1, count + 1)]


async def test_two_hundred_join_presses_at_once_sign_each_member_up_once(
    table: Table, admin: simcord.MemberActor
) -> None:
    members = sign_up(table, 50)
    await admin.slash(table.channel, "farkle tournament new", name="Rush")
    shown = card(table.channel)
    join = button(shown, "join")
    results = await press_together(table.env, [(m, shown, join) for m in members for _ in range(4)])
    answers = [r.response.content for r in results if r.response is not None]
    assert len(answers) == 200, "every press answered"
    assert sum("already" not in answer for answer in answers) == 50, "each member signed up by one press"
    assert all("signed up" in answer for answer in answers)
    assert "Entrants (50/64)" in card_text(table.channel)
    assert await query(table.env, "SELECT COUNT(*) FROM tournament_entrants") == [(50,)]
    assert table.env.errors == []


async def test_sixty_four_players_play_thirty_two_matches_at_once_and_none_leaves_after_the_start(
    table: Table, admin: simcord.MemberActor
) -> None:
    members = sign_up(table, 64)
    await admin.slash(table.channel, "farkle tournament new", name="Big Cup")
    shown = card(table.channel)
    await press_together(table.env, [(m, shown, button(shown, "join")) for m in members])
    before_start = card(table.channel)
    assert "Entrants (64/64)" in card_text(table.channel)
    await press(admin, before_start, "start")
    await table.env.settle()

    threads = table.channel.threads
    assert len(threads) == 32, "every first-round match in its own thread"
    presses = []
    for thread in threads:
        opening = call(thread)
        presses += [
            (m, opening, button(opening, "ready")) for m in members if f"<@{m.id}>" in opening.content
        ]
    assert len(presses) == 64
    await press_together(table.env, presses)
    await table.env.settle()
    boards = [table.env.bot.services.sessions.snapshot(thread.id) for thread in threads]
    assert sum(1 for b in boards if b is not None and b.stage == "playing") == 32, "32 games at once"
    assert_within_discord_limits(card(table.channel))

    shown_before = card_text(table.channel)
    late = await forged_component(members[0], before_start, button(before_start, "leave"))
    assert late.response is not None and "can't leave" in late.response.content
    assert card_text(table.channel) == shown_before, "nothing changed"
    assert await query(table.env, "SELECT COUNT(*) FROM tournament_entrants") == [(64,)]
    assert table.env.errors == []


async def test_a_game_end_announced_again_after_a_crash_updates_the_bracket_once(
    table: Table, admin: simcord.MemberActor, dice: Dice, make_bot: MakeBot
) -> None:
    for _ in range(2):
        dice.script(*WINNING_GAME)
    p1, p2, p3, p4 = sign_up(table, 4)
    await play_first_round(table, admin, (p1, p2, p3, p4))
    shown = card_text(table.channel)
    assert "`1-1` **m1** beat m4" in shown and "`1-2` **m2** beat m3" in shown

    await execute(table.env, "UPDATE games SET announced = 0")  # a crash between delivery and its mark
    await restart(table.env, make_bot)
    await table.env.settle()
    assert await query(table.env, "SELECT COUNT(*) FROM tournament_games") == [(2,)]
    assert card_text(table.channel) == shown, "the bracket as it was"
    for players in ((p1, p4), (p2, p3)):
        said = [m.content for m in thread_of(table, players).history() if "wins match" in m.content]
        assert len(said) == 1, said
    assert len([t for t in table.channel.threads if " 2-1: " in (t.name or "")]) == 1, "one final"
    assert table.env.errors == []
