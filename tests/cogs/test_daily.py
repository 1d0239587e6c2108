"""`/farkle daily`: the same dice for everyone that day, one attempt each, a private board that survives
restarts, a public result, standings and streaks across days (SimCord's clock)."""

from __future__ import annotations

import re
from collections.abc import Callable

import discord
import simcord

from bot.engine.daily import DAY_SECONDS, RULES, TURNS, DailyDice, expert_score
from bot.engine.daily import RULES as DAILY_RULES
from bot.engine.scoring import scoring_options
from tests.cogs.conftest import Table
from tests.cogs.play import MakeBot, execute, farkle, parts, query, restart, texts, title
from tests.solved import policy_for

BOARD = "🗓️ Daily challenge"
Keeper = Callable[[tuple[int, ...]], tuple[tuple[int, ...], bool]]  # roll -> (positions kept, bank?)


def buttons(message: discord.Message) -> dict[str, discord.Button]:
    """A daily board's buttons by action ("roll", "bank"); die N is "die:N" (it picks or drops)."""
    found = {}
    for item in parts(message):
        if isinstance(item, discord.Button) and (item.custom_id or "").startswith("farkle-daily:"):
            action = item.custom_id.split(":", 3)[3]
            found[re.sub(r"^(pick|drop):", "die:", action)] = item
    return found


def today(env: simcord.Env) -> int:
    return int(env.now().timestamp() // DAY_SECONDS)


def daily_board(table: Table, member: simcord.MemberActor) -> discord.Message:
    """The member's newest private daily board (nobody else sees it)."""
    for message in reversed(table.channel.history(viewer=member)):
        if title(message).startswith(BOARD):
            assert message.flags.ephemeral
            return message
    raise AssertionError("no daily board")


def shown_roll(message: discord.Message) -> tuple[tuple[int, int], tuple[int, ...]]:
    """(turn, roll number) from the Roll button's id, and the faces of the dice to keep from."""
    found = buttons(message)
    turn, roll = found["roll"].custom_id.split(":")[2].split("-")
    faces = []
    for position in range(6):
        die = found.get(f"die:{position}")
        if die is None:
            break
        faces.append(int(die.emoji.name.removeprefix("die_")) if die.emoji else int(die.label or 0))
    return (int(turn), int(roll)), tuple(faces)


async def press(table: Table, member: simcord.MemberActor, action: str) -> simcord.InteractionResult:
    message = daily_board(table, member)
    result = await member.click(message, custom_id=buttons(message)[action].custom_id)
    return result


def greedy(roll: tuple[int, ...]) -> tuple[tuple[int, ...], bool]:
    """Keep the best option; bank with two dice or fewer left."""
    return _keep(roll, scoring_options(roll, DAILY_RULES)[0].dice), len(roll) <= 3


def cautious(roll: tuple[int, ...]) -> tuple[tuple[int, ...], bool]:
    """Keep the fewest dice that score and always roll on while four or more dice are left."""
    option = min(scoring_options(roll, DAILY_RULES), key=lambda o: (len(o.dice), -o.points))
    return _keep(roll, option.dice), len(roll) - len(option.dice) < 4


def _keep(roll: tuple[int, ...], faces: tuple[int, ...]) -> tuple[int, ...]:
    free, chosen = list(range(len(roll))), []
    for face in faces:
        position = next(p for p in free if roll[p] == face)
        free.remove(position)
        chosen.append(position)
    return tuple(chosen)


async def play(
    table: Table, member: simcord.MemberActor, keeper: Keeper, *, turns: int = TURNS
) -> tuple[dict[tuple[int, int], tuple[int, ...]], simcord.InteractionResult | None]:
    """Play `turns` turns of today's daily: every roll seen by (turn, roll), and the last press."""
    result = await member.slash(table.channel, "farkle daily")
    assert result.ephemeral
    seen: dict[tuple[int, int], tuple[int, ...]] = {}
    last = None
    while True:
        message = daily_board(table, member)
        found = buttons(message)
        if "roll" not in found:
            return seen, last  # finished
        (turn, _), roll = shown_roll(message)
        if turn > turns:
            return seen, last
        if not roll:
            last = await press(table, member, "roll")
            continue
        seen[shown_roll(message)[0]] = roll
        positions, bank = keeper(roll)
        for position in positions:
            picked = await press(table, member, f"die:{position}")
            assert not picked.ephemeral, picked.response and picked.response.content
        last = await press(table, member, "bank" if bank else "roll")
        assert last.followups or not last.ephemeral, last.response and last.response.content


async def test_two_members_the_same_day_face_the_same_dice_whatever_they_keep(table: Table) -> None:
    seen_by_ana, _ = await play(table, table.ana, greedy, turns=4)
    seen_by_ben, _ = await play(table, table.ben, cautious, turns=4)
    dice = DailyDice(today(table.env))
    assert seen_by_ana[(1, 1)] == seen_by_ben[(1, 1)] == dice.faces(1, 1)
    for seen in (seen_by_ana, seen_by_ben):
        for (turn, roll), faces in seen.items():
            assert faces == dice.faces(turn, roll, len(faces))
    both = set(seen_by_ana) & set(seen_by_ben)
    assert len(both) > 4
    for key in both:  # the same roll, cut to the dice each of them had left
        shorter = min(len(seen_by_ana[key]), len(seen_by_ben[key]))
        assert seen_by_ana[key][:shorter] == seen_by_ben[key][:shorter]
    assert any(len(seen_by_ana[key]) != len(seen_by_ben[key]) for key in both)


async def test_a_second_daily_the_same_day_resumes_and_a_finished_one_is_not_replayed(table: Table) -> None:
    await play(table, table.ana, greedy, turns=2)
    before = shown_roll(daily_board(table, table.ana))
    again = await table.ana.slash(table.channel, "farkle daily")
    assert again.ephemeral and shown_roll(daily_board(table, table.ana)) == before
    _, finishing = await play(table, table.ana, greedy)
    assert finishing is not None
    final = daily_board(table, table.ana)
    assert "roll" not in buttons(final)
    await table.ana.slash(table.channel, "farkle daily")
    assert "Come back tomorrow" in "\n".join(texts(daily_board(table, table.ana)))
    rows = await query(
        table.env, "SELECT COUNT(*), MAX(finished) FROM daily_attempts WHERE user_id = :u", u=table.ana.id
    )
    assert rows == [(1, 1)]


async def test_the_result_is_public_with_the_expert_comparison_and_a_line_per_turn(table: Table) -> None:
    _, finishing = await play(table, table.ana, greedy)
    assert finishing is not None
    public = [m for m in finishing.followups if not m.ephemeral]
    assert public, "the result is a public follow-up"
    result = public[0].content
    score = (await query(table.env, "SELECT score FROM daily_attempts WHERE user_id = :u", u=table.ana.id))[
        0
    ][0]
    assert f"**{score:,}**" in result
    assert f"{expert_score(today(table.env), policy_for(RULES)):,}" in result
    line = result.splitlines()[-1]
    assert len(line) == TURNS and set(line) <= {"🟩", "🟥", "🔥"}
    public_in_channel = [m for m in table.channel.history(viewer=table.ben) if m.content == result]
    assert public_in_channel, "everyone in the channel reads it"


async def test_a_finished_daily_posts_its_new_achievements_once_after_its_result(table: Table) -> None:
    _, finishing = await play(table, table.ana, greedy)
    assert finishing is not None
    await table.env.advance_time(2)  # the awards are handed out on the stream, after the answer
    public = [m.content for m in table.channel.history(viewer=table.ben)]
    announced = [content for content in public if content.startswith("🏅")]
    assert len(announced) == 1, "posted once, by the press that finished the daily"
    assert "**Daily player**: Finish a daily challenge." in announced[0]
    result = next(
        i
        for i, content in enumerate(public)
        if f"{expert_score(today(table.env), policy_for(RULES)):,}" in content
    )
    assert result < public.index(announced[0]), "the result comes first"


async def test_an_attempt_resumes_after_a_restart(table: Table, make_bot: MakeBot) -> None:
    await play(table, table.ana, greedy, turns=2)
    before = shown_roll(daily_board(table, table.ana))
    await restart(table.env, make_bot)
    await table.ana.slash(table.channel, "farkle daily")
    assert shown_roll(daily_board(table, table.ana)) == before
    _, finishing = await play(table, table.ana, greedy)
    assert finishing is not None and finishing.followups


async def test_streaks_count_consecutive_days_and_show_on_stats(table: Table) -> None:
    for _ in range(2):
        await play(table, table.ana, greedy)
        await table.env.advance_time(DAY_SECONDS)
    stats = await table.ana.slash(table.channel, "farkle stats")
    streak = next(f.value for f in stats.response.embeds[0].fields if f.name == "Daily streak")
    assert streak == "2 days now · best 2 days"  # yesterday's streak holds until today is over
    await table.env.advance_time(DAY_SECONDS)
    await play(table, table.ana, greedy)
    stats = await table.ana.slash(table.channel, "farkle stats")
    streak = next(f.value for f in stats.response.embeds[0].fields if f.name == "Daily streak")
    assert streak == "1 day now · best 2 days"


async def test_standings_rank_today_and_the_week_per_server_and_overall(table: Table) -> None:
    await play(table, table.ana, greedy)
    await play(table, table.ben, cautious)
    scores = dict(await query(table.env, "SELECT user_id, score FROM daily_attempts"))
    result = await table.cy.slash(table.channel, "farkle daily-standings")
    lines = (result.response.embeds[0].description or "").splitlines()
    ranked = sorted(scores.items(), key=lambda item: -item[1])
    names = {table.ana.id: "ana", table.ben.id: "ben"}
    assert [line.split(" ", 1)[1].split(" · ")[0] for line in lines] == [names[u] for u, _ in ranked]
    other = table.env.create_guild()
    elsewhere = other.create_text_channel("elsewhere")
    dan = other.add_member(table.env.create_user("dan"))
    server = await dan.slash(elsewhere, "farkle daily-standings")
    assert "Nobody" in (server.response.embeds[0].description or "")
    everyone = await dan.slash(elsewhere, "farkle daily-standings", scope="everyone", period="week")
    assert len((everyone.response.embeds[0].description or "").splitlines()) == 2


async def test_forget_me_deletes_daily_attempts_and_achievements(table: Table) -> None:
    await play(table, table.ana, greedy)
    assert await query(table.env, "SELECT COUNT(*) FROM achievements WHERE user_id = :u", u=table.ana.id) != [
        (0,)
    ]
    await farkle(table.env).services.stats.forget(table.ana.id)
    for sql in ("SELECT COUNT(*) FROM achievements", "SELECT COUNT(*) FROM daily_attempts"):
        assert await query(table.env, f"{sql} WHERE user_id = :u", u=table.ana.id) == [(0,)]


async def test_a_board_from_an_earlier_day_is_refused_and_todays_is_new(table: Table) -> None:
    await play(table, table.ana, greedy, turns=1)
    await table.env.advance_time(DAY_SECONDS)
    stale = await press(table, table.ana, "roll")
    assert stale.ephemeral and "earlier day" in stale.response.content
    await table.ana.slash(table.channel, "farkle daily")
    assert shown_roll(daily_board(table, table.ana)) == ((1, 0), ())


async def test_achievements_a_crash_left_unawarded_are_awarded_after_a_restart(
    table: Table, make_bot: MakeBot
) -> None:
    await play(table, table.ana, greedy)
    earned = await query(table.env, "SELECT achievement FROM achievements ORDER BY achievement")
    assert ("daily_first",) in earned
    await execute(table.env, "DELETE FROM achievements")
    await execute(table.env, "UPDATE daily_attempts SET awarded = 0")  # as if the process died in between
    await restart(table.env, make_bot)
    await table.env.advance_time(1)
    assert await query(table.env, "SELECT achievement FROM achievements ORDER BY achievement") == earned
    assert await query(table.env, "SELECT awarded FROM daily_attempts") == [(1,)]


async def test_the_daily_board_is_the_game_board(table: Table) -> None:
    """Roll and Bank say what they would do with the dice picked, picked dice are green, and the dice
    kept this turn are set aside once with their score, as on a game's board."""
    await table.ana.slash(table.channel, "farkle daily")
    await press(table, table.ana, "roll")
    board = daily_board(table, table.ana)
    roll = DailyDice(today(table.env)).faces(1, 1)
    assert shown_roll(board)[1] == roll and not any(t.startswith("Set aside") for t in texts(board))
    labels = {key: button.label for key, button in buttons(board).items()}
    assert labels["roll"] == "Pick dice to keep" and labels["bank"] == "Bank 0"
    option = scoring_options(roll, DAILY_RULES)[-1]  # one scoring keep
    for position in _keep(roll, option.dice):
        await press(table, table.ana, f"die:{position}")
    board = daily_board(table, table.ana)
    picked = [key for key, button in buttons(board).items() if button.style is discord.ButtonStyle.success]
    assert len([key for key in picked if key.startswith("die:")]) == len(option.dice)
    points = f"{option.points:,}"
    roll_label = buttons(board)["roll"].label or ""
    assert (
        roll_label.startswith(f"Roll {6 - len(option.dice)} dice (+{points}) · ") and "% Farkle" in roll_label
    )
    assert buttons(board)["bank"].label == f"Bank {points}" and not buttons(board)["bank"].disabled
    await press(table, table.ana, "roll")
    shown = "\n".join(texts(daily_board(table, table.ana)))
    assert f"Turn total **{points}**" in shown and f"(+{points})" in shown and "Set aside: " in shown
