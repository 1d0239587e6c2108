"""`/farkle forget-me` under SimCord: the member's name leaves every tournament they played, running or
over (its card, its podium, `tournament show`), while the brackets keep their results."""

from __future__ import annotations

import simcord

from bot.storage.results import FORGOTTEN
from tests.cogs.conftest import Table
from tests.cogs.play import texts
from tests.cogs.test_tournaments import card, card_text, press


async def test_forget_me_anonymises_the_member_in_running_and_past_tournaments(
    table: Table, admin: simcord.MemberActor
) -> None:
    p1, p2, p3, p4 = [table.guild.add_member(table.env.create_user(f"m{n}")) for n in range(1, 5)]
    await admin.slash(table.channel, "farkle tournament new", name="Cup")
    for member in (p1, p2, p3, p4):
        await press(member, card(table.channel), "join")
    await press(admin, card(table.channel), "start")
    await table.env.settle()

    asked = await p4.slash(table.channel, "farkle forget-me")
    assert asked.response is not None
    done = await p4.click(asked.response.message, label="Delete my statistics")
    assert done.response is not None and "gone" in done.response.content
    for key, winner in (("1-1", p4), ("1-2", p2), ("2-1", p4)):
        await admin.slash(table.channel, "farkle tournament advance", match=key, winner=winner)
    await table.env.settle()

    shown = card_text(table.channel)
    assert "m4" not in shown and f"**{FORGOTTEN}**" in shown, "the running tournament's card"
    podium = "\n".join(texts(table.channel.history()[-1]))
    assert "m4" not in podium and f"🥇 **{FORGOTTEN}**" in podium, "the champion keeps the win, not the name"
    [past] = await table.env.bot.services.tournaments.of_guild(table.guild.id)
    again = await p1.slash(table.channel, "farkle tournament show", tournament=past.tournament_id)
    assert again.response is not None
    stored = str(again.response.components)
    assert "m4" not in stored and FORGOTTEN in stored and "m2" in stored
    assert table.env.errors == []
