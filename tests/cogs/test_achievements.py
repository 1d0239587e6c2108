"""Achievements as members meet them: announced in the game's channel, listed on `/farkle stats`."""

from __future__ import annotations

import pytest
import simcord

from bot.engine.rules import Ruleset
from bot.sessions import win_tables
from tests.cogs.conftest import Dice, Table
from tests.cogs.play import (
    FARKLE,
    ROLL_OFF,
    SIX_ONES,
    MakeBot,
    act,
    big_turn,
    board_message,
    execute,
    farkle,
    open_game,
    query,
    restart,
    title,
)


async def win_in_three_turns(table: Table, dice: Dice) -> None:
    """ana banks 4,000, 4,000 and 2,000 (hot dice each time); ben Farkles his three turns."""
    dice.script(ROLL_OFF, *[SIX_ONES] * 2, FARKLE, *[SIX_ONES] * 2, FARKLE, SIX_ONES, FARKLE)
    await open_game(table.channel, table.ana, table.ben)
    for rolls in (2, 2, 1):
        await big_turn(table.ana, table.channel, rolls)
        await act(table.ben, table.channel, "roll")
    assert title(board_message(table.channel)) == "🏆 ana wins!"


async def test_a_won_game_announces_its_achievements_and_stats_list_them(table: Table, dice: Dice) -> None:
    await win_in_three_turns(table, dice)
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


async def ana_plays_ten_best_moves(table: Table, dice: Dice) -> None:
    """ana makes ten decisions, each the best one in turn points, and loses to ben."""
    # reviewed in turn points, where keeping six 1s and rolling on is best up to 10,000 and beyond
    farkle(table.env).services.win_tables.forget(Ruleset.preset("classic"))
    dice.script(ROLL_OFF, *[SIX_ONES] * 5, FARKLE, FARKLE, *[SIX_ONES] * 5, FARKLE, *[SIX_ONES] * 5, FARKLE)
    await open_game(table.channel, table.ana, table.ben)
    await big_turn(table.ana, table.channel, 5, then="roll")  # five decisions, each the best; then a Farkle
    await act(table.ben, table.channel, "roll")  # Farkles
    await big_turn(table.ana, table.channel, 5, then="roll")  # five more
    await big_turn(table.ben, table.channel, 5)  # banks 10,000: ana's last chance
    await act(table.ana, table.channel, "roll")  # Farkles: ben wins
    assert title(board_message(table.channel)) == "🏆 ben wins!"


async def test_a_win_over_a_member_who_left_after_one_turn_is_a_loss_for_them_and_no_achievement(
    table: Table, dice: Dice
) -> None:
    """A forfeit loses: ben leaves after one turn, ana wins the rated game but earns no win achievement."""
    dice.script(ROLL_OFF, *[SIX_ONES] * 2, FARKLE)
    await open_game(table.channel, table.ana, table.ben)
    await big_turn(table.ana, table.channel, 2)
    await act(table.ben, table.channel, "roll")
    left = await table.ben.slash(table.channel, "farkle leave")
    assert left.response is not None
    assert title(board_message(table.channel)) == "🏆 ana wins!"
    announced = "\n".join(m.content for m in table.channel.history() if m.content.startswith("🏅"))
    assert "**Big turn**" in announced and "**First win**" not in announced
    stats = await table.ben.slash(table.channel, "farkle stats")
    ben = {f.name: f.value for f in stats.response.embeds[0].fields}
    assert ben["Rated games"] == "1" and ben["Wins"] == "0 (0%)"


async def test_a_member_who_always_plays_the_best_move_earns_a_perfect_review(
    table: Table, dice: Dice
) -> None:
    await ana_plays_ten_best_moves(table, dice)
    announced = [m.content for m in table.channel.history() if m.content.startswith("🏅")]
    perfect = [text for text in announced if "**Perfect review**" in text]
    assert len(perfect) == 1 and "**ana** earned" in perfect[0], announced
    stats = await table.ana.slash(table.channel, "farkle stats")
    listed = next(f for f in stats.response.embeds[0].fields if f.name.startswith("Achievements"))
    assert f"🏅 Perfect review · {table.env.now().date().isoformat()}" in (listed.value or "")


async def test_a_review_a_crash_lost_is_made_and_awarded_at_the_next_start(
    table: Table, dice: Dice, env: simcord.Env, make_bot: MakeBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(win_tables, "shipped_tables", lambda rules: None)  # turn points after the restart too
    await ana_plays_ten_best_moves(table, dice)
    for sql in ("DELETE FROM achievements", "DELETE FROM review_players", "DELETE FROM game_reviews"):
        await execute(env, sql)  # as if the process died while the review ran
    await restart(env, make_bot)
    assert await query(env, "SELECT COUNT(*) FROM game_reviews") == [(1,)], "reviewed at start-up"
    earned = await query(env, "SELECT user_id FROM achievements WHERE achievement = 'perfect_review'")
    assert earned == [(table.ana.id,)]

    await execute(env, "DELETE FROM achievements")  # the review stored, its event lost
    await restart(env, make_bot)
    assert await query(env, "SELECT user_id FROM achievements WHERE achievement = 'perfect_review'") == earned
