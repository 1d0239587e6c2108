"""Week, month and season boards and seasons' final standings, as members meet them, on SimCord's clock."""

from __future__ import annotations

import simcord

from bot.periods import season_at, week_at
from tests.cogs.conftest import Dice, Table
from tests.cogs.test_persistence import finish_quickly, footer, lines


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
