"""Week, month and season boards and seasons' final standings, as members meet them, on SimCord's clock."""

from __future__ import annotations

import simcord

from bot.core.periods import season_at, week_at
from tests.cogs.conftest import Dice, Table
from tests.cogs.play import MakeBot, restart
from tests.cogs.test_persistence import embed_of, fields, finish_quickly, footer, lines


async def board(table: Table, **options: str) -> list[str]:
    shown = await table.ben.slash(table.channel, "farkle leaderboard", metric="wins", **options)
    assert shown.response is not None
    return lines(shown.response.message)


async def test_week_month_and_season_boards_follow_the_calendar(
    table: Table, dice: Dice, env: simcord.Env
) -> None:
    await finish_quickly(table, dice)
    for period in ("week", "month", "season"):
        assert await board(table, period=period) == ["**1.** ana · 1", "**2.** ben · 0"], period
    season = await table.ben.slash(table.channel, "farkle leaderboard", period="season")
    assert season.response is not None
    key = season_at(env.now().timestamp(), "month").key
    assert footer(season.response.message) == f"this season ({key}) · page 1/1 · 2 ranked"

    await env.advance_time(week_at(env.now().timestamp()).until - env.now().timestamp())  # next Monday
    assert await board(table, period="week") == ["Nobody is ranked yet."]
    assert len(await board(table, period="all")) == 2


def posted(channel: simcord.ChannelHandle) -> list[str]:
    """The titles of the season posts in a channel."""
    return [
        m.embeds[0].title or ""
        for m in channel.history()
        if m.embeds and "Season" in (m.embeds[0].title or "")
    ]


async def test_a_season_s_end_posts_its_final_standings_once_and_stats_list_it(
    table: Table, dice: Dice, env: simcord.Env, admin: simcord.MemberActor, make_bot: MakeBot
) -> None:
    standings = table.guild.create_text_channel("standings")
    chosen = await admin.slash(
        table.channel, "farkle-config set", option="season_channel", value=f"<#{standings.id}>"
    )
    assert chosen.response is not None and chosen.ephemeral
    await finish_quickly(table, dice)
    season = season_at(env.now().timestamp(), "month")
    assert posted(standings) == []

    await env.advance_time(season.until - env.now().timestamp() + 1)  # the season ends on the bot's clock
    assert posted(standings) == [f"🏁 Season {season.key}: final standings"]
    post = next(m for m in standings.history() if m.embeds)
    ratings = [
        fields(embed_of(await member.slash(table.channel, "farkle stats")))["Rating"]
        for member in (table.ana, table.ben)
    ]
    assert (post.embeds[0].description or "").splitlines() == [
        f"**1.** ana · {ratings[0]} · 1 rated game",
        f"**2.** ben · {ratings[1]} · 1 rated game",
    ]

    await restart(env, make_bot)  # a second process, or the same one started again: nothing more
    await env.advance_time(3600)
    assert len(posted(standings)) == 1
    assert posted(table.channel) == [], "only in the chosen channel"

    ana = fields(embed_of(await table.ana.slash(table.channel, "farkle stats")))
    assert ana["Seasons"] == f"{season.key} · #1 of 2"
    ben = fields(embed_of(await table.ben.slash(table.channel, "farkle stats")))
    assert ben["Seasons"] == f"{season.key} · #2 of 2"
    cy = fields(embed_of(await table.cy.slash(table.channel, "farkle stats")))
    assert "Seasons" not in cy
