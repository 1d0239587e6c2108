"""Achievements as members meet them: announced in the game's channel, listed on `/farkle stats`."""

from __future__ import annotations

from tests.cogs.conftest import Dice, Table
from tests.cogs.test_persistence import finish_quickly


async def test_a_won_game_announces_its_achievements_and_stats_list_them(table: Table, dice: Dice) -> None:
    await finish_quickly(table, dice)
    announced = [m.content for m in table.channel.history() if m.content.startswith("🏅")]
    assert len(announced) == 1 and "**ana** earned" in announced[0]
    for name in ("First win", "Hot dice", "Six of a kind", "Flawless", "Big turn"):
        assert f"**{name}**" in announced[0]
    stats = await table.ana.slash(table.channel, "farkle stats")
    listed = next(f for f in stats.response.embeds[0].fields if f.name.startswith("Achievements"))
    date = table.env.now().date().isoformat()
    assert f"🏅 First win · {date}" in (listed.value or "")
    assert listed.name == "Achievements (5)"
    ben = await table.ben.slash(table.channel, "farkle stats")
    nothing = next(f for f in ben.response.embeds[0].fields if f.name.startswith("Achievements"))
    assert nothing.value == "None yet."
