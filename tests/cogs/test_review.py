"""Game review as members see it: the results' Review button and `/farkle review`, answered privately;
a review that reads the same after a restart; live chances on two-player boards; accuracy in stats and
on the leaderboard."""

from __future__ import annotations

import asyncio
import re
import threading

import discord
import pytest
import simcord

from bot.core.records import SKILL_MINIMUM
from bot.engine import strategy_for
from bot.engine.multi import Position, TurnDraws, estimate
from bot.engine.rules import Ruleset
from bot.engine.win.tables import TurnValues, WinTables
from bot.sessions import chances as chances_module
from tests.cogs.conftest import Dice, Table
from tests.cogs.play import (
    DIE_EMOJI,
    ROLL_OFF,
    MakeBot,
    act,
    assert_within_discord_limits,
    board_message,
    buttons,
    description,
    execute,
    farkle,
    fields,
    open_game,
    parts,
    press,
    query,
    restart,
    texts,
    title,
)
from tests.cogs.test_master import flat_tables
from tests.cogs.test_persistence import finish_quickly
from tests.solved import policies_for


async def finish(table: Table, dice: Dice) -> str:
    """ana wins a 2-player classic game in one turn, ben's last turn Farkles: the game's id."""
    await finish_quickly(table, dice)
    review = buttons(board_message(table.channel))["farkle-review"]
    return (review.custom_id or "").removeprefix("farkle-review:")


def review_of(result: simcord.InteractionResult) -> discord.Message:
    assert result.ephemeral and result.response is not None
    message = result.response.message
    assert message.flags.components_v2 and not message.embeds
    assert_within_discord_limits(message)
    return message


def charts(message: discord.Message) -> list[str]:
    """The media gallery's images by file name, each one of the message's attachments (Discord resolves
    `attachment://name` to the attachment's address)."""
    shown = [
        item.media.url
        for part in parts(message)
        if isinstance(part, discord.MediaGalleryComponent)
        for item in part.items
    ]
    attached = {attachment.url: attachment.filename for attachment in message.attachments}
    assert all(url in attached for url in shown), (shown, attached)
    return [attached[url] for url in shown]


def faces(text: str) -> str:
    """Dice as digits, whether drawn as the die emojis or as keycaps; never the tiny ⚀–⚅ glyphs."""
    assert not any(glyph in text for glyph in "⚀⚁⚂⚃⚄⚅"), text
    return DIE_EMOJI.sub(lambda match: match[1], text).replace("\ufe0f\u20e3", "")


async def test_the_review_button_answers_privately_in_chances_to_win(table: Table, dice: Dice) -> None:
    game_id = await finish(table, dice)  # classic: its win tables ship with the bot
    results = board_message(table.channel)
    shown = review_of(await table.cy.click(results, custom_id=f"farkle-review:{game_id}"))
    assert title(shown) == f"🔎 Review of game {game_id}"
    measure, start, turning = description(shown).splitlines()
    assert measure == "Measured in chance to win, from the exact win tables."
    assert re.fullmatch(r"ana moved first with a 5\d\.\d% chance to win\.", start), start
    assert turning.startswith("📍 Turning point: turn "), turning
    blocks = fields(shown)
    ana, ben = blocks["ana"], blocks["ben"]
    assert ana.startswith("Accuracy **") and "· 0 costly mistakes · 5 decisions" in ana
    assert re.search(r"^Decisions cost \*\*\d+\.\d%\*\* · the dice gave \*\*[+−]\d+\.\d%\*\*$", ana, re.M), (
        ana
    )
    line = "1. Turn 1 · 1 1 1 1 1 1: keep 1 1 1 1 1 1, roll 6 dice → best: keep 1 1 1 1 1 1, bank 8,000 (−"
    assert line in faces(ana), "die emojis (keycaps where emojis would not fit)"
    assert "No decision that mattered." in ben and "Decisions cost **0.0%** · the dice gave **" in ben
    assert charts(shown) == ["review-chart.png"]
    (chart,) = shown.attachments
    assert (await chart.read()).startswith(b"\x89PNG")
    assert await query(table.env, "SELECT COUNT(*) FROM game_reviews") == [(1,)], "reviewed once"


async def test_rules_without_tables_are_reviewed_in_turn_points_and_say_so(table: Table, dice: Dice) -> None:
    # as if these rules had no tables yet
    farkle(table.env).services.win_tables.forget(Ruleset.preset("classic"))
    game_id = await finish(table, dice)
    shown = review_of(await table.ben.slash(table.channel, "farkle review", game=game_id))
    measure, turning = description(shown).splitlines()
    assert measure == "Measured in expected points of the turn: these rules have no win tables yet."
    assert turning.startswith("📍 Turning point: turn ") and "expected points for " in turning
    assert not charts(shown) and not shown.attachments, "no chart without chances"
    ana = fields(shown)["ana"]
    assert re.search(r"^Decisions cost \*\*\d+\*\* expected points · the dice gave \*\*", ana, re.M)
    line = (
        "1. Turn 1 · 1 1 1 1 1 1: keep 1 1 1 1 1 1, bank 10,000 → best: keep 1 1 1 1 1 1, roll 6 dice "
        "(−13 expected points)"
    )
    assert line in faces(ana) and "· 0 costly mistakes · 5 decisions" in ana


async def test_review_command_has_replays_scope_and_reads_the_same_after_a_restart(
    table: Table, dice: Dice, env: simcord.Env, make_bot: MakeBot
) -> None:
    # reviewed in turn points: after the restart the shipped tables are loaded again
    farkle(table.env).services.win_tables.forget(Ruleset.preset("classic"))
    game_id = await finish(table, dice)
    before = texts(review_of(await table.ben.slash(table.channel, "farkle review", game=game_id.upper())))
    await restart(env, make_bot)
    after = texts(review_of(await table.ben.slash(table.channel, "farkle review", game=game_id)))
    assert after == before, "the stored review is the one shown, whatever tables exist later"
    unknown = await table.ben.slash(table.channel, "farkle review", game="abcdef")
    assert unknown.ephemeral and unknown.response is not None
    assert unknown.response.content == "No finished game `abcdef` in this server."


@pytest.mark.parametrize("locale", ["en-US", "de", "fr", "es-ES", "pt-BR"])
async def test_every_language_renders_a_review_within_discords_limits(
    table: Table, dice: Dice, locales: dict[int, str], locale: str
) -> None:
    locales[table.cy.id] = locale
    game_id = await finish(table, dice)
    shown = review_of(await table.cy.slash(table.channel, "farkle review", game=game_id))
    assert len(fields(shown)) == 2 and game_id in title(shown)
    assert len(charts(shown)) == 1


async def test_a_two_player_board_shows_live_chances_from_the_tables(table: Table, dice: Dice) -> None:
    farkle(table.env).services.win_tables.adopt(flat_tables(Ruleset.preset("classic")))
    dice.script(ROLL_OFF, (1, 5, 2, 3, 4, 6))
    await open_game(table.channel, table.ana, table.ben)
    assert "📈 Chances to win: ana 50% · ben 50%" in description(board_message(table.channel))
    await act(table.ana, table.channel, "roll")
    snapshot = farkle(table.env).services.sessions.snapshot(table.channel.id)
    assert snapshot is not None and snapshot.chances
    (ana, ana_chance), (ben, ben_chance) = snapshot.chances
    assert (ana, ben) == (table.ana.id, table.ben.id) and ana_chance + ben_chance == pytest.approx(1)
    shown = f"📈 Chances to win: ana {round(ana_chance * 100)}% · ben {round(ben_chance * 100)}%"
    assert shown in description(board_message(table.channel))


async def test_the_turn_a_bank_passes_is_solved_after_its_answer_not_in_it(
    table: Table, dice: Dice, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = farkle(table.env)
    solved: list[tuple[int, int, bool]] = []  # (bank, other, while an answer waited) of every turn solved
    solve = WinTables._solve_turn

    def spy(tables: WinTables, bank: int, other: int, mine: int, theirs: int) -> TurnValues:
        solved.append((bank, other, bot.in_flight.is_answering(asyncio.current_task())))
        return solve(tables, bank, other, mine, theirs)

    monkeypatch.setattr(WinTables, "_solve_turn", spy)
    farkle(table.env).services.win_tables.adopt(flat_tables(Ruleset.preset("classic")))
    dice.script(ROLL_OFF, (1, 5, 2, 3, 4, 6), (1, 2, 3, 4, 6, 6))
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")
    await act(table.ana, table.channel, "die:0")
    solved.clear()

    await act(table.ana, table.channel, "bank")  # ben's turn: its chances are the table's, nothing solved
    assert solved == [(0, 100, False)], "ben's turn is solved once the Bank is answered"
    assert "📈 Chances to win: ana 50% · ben 50%" in description(board_message(table.channel))
    await act(table.ben, table.channel, "roll")  # the roll reads the turn solved for it
    assert solved == [(0, 100, False)]
    snapshot = bot.services.sessions.snapshot(table.channel.id)
    assert snapshot is not None and [user for user, _ in snapshot.chances] == [table.ana.id, table.ben.id]


async def test_live_odds_are_a_server_setting(table: Table, dice: Dice, admin: simcord.MemberActor) -> None:
    farkle(table.env).services.win_tables.adopt(flat_tables(Ruleset.preset("classic")))
    turned = await admin.slash(table.channel, "farkle-config set", option="live_odds", value="off")
    assert turned.response is not None
    shown = await admin.slash(table.channel, "farkle-config show")
    assert shown.response is not None and "• live_odds: off" in str(shown.response.embeds[0].to_dict())
    await open_game(table.channel, table.ana, table.ben)
    assert "📈" not in description(board_message(table.channel))


async def test_a_three_player_board_shows_every_players_chance_estimated_off_the_loop(
    table: Table, dice: Dice, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[bool] = []  # whether each estimate ran off the event loop's thread

    def spy(at: Position, draws: TurnDraws) -> dict[str, float]:
        threads.append(threading.current_thread() is not threading.main_thread())
        return estimate(at, draws)

    monkeypatch.setattr(chances_module, "estimate", spy)
    dice.script((6, 2, 3), (1, 5, 2, 3, 4, 6))
    await open_game(table.channel, table.ana, table.ben, table.cy)
    board = description(board_message(table.channel))
    snapshot = farkle(table.env).services.sessions.snapshot(table.channel.id)
    assert snapshot is not None and [user for user, _ in snapshot.chances] == [
        table.ana.id,
        table.ben.id,
        table.cy.id,
    ]
    assert sum(chance for _, chance in snapshot.chances) == pytest.approx(1)
    shown = " · ".join(
        f"{name} {round(c * 100)}%"
        for name, (_, c) in zip(("ana", "ben", "cy"), snapshot.chances, strict=True)
    )
    assert f"📈 Chances to win: {shown}" in board
    assert sum(int(p) for p in re.findall(r"(\d+)%", board.split("📈")[1].splitlines()[0])) in (99, 100, 101)

    await act(table.ana, table.channel, "roll")
    await act(table.ana, table.channel, "die:0")
    await act(table.ana, table.channel, "bank")  # ben's turn, ana 100 ahead
    session = farkle(table.env).services.sessions.snapshot(table.channel.id)
    assert session is not None
    ben, cy, ana = (str(member.id) for member in (table.ben, table.cy, table.ana))
    banks = Position(Ruleset.preset("classic"), (ben, cy, ana), (0, 0, 100), (True,) * 3, (0, 0, 0), None)
    recomputed = estimate(banks, TurnDraws.of(policies_for(banks.rules), banks.rules))
    assert dict(session.chances) == {int(player): chance for player, chance in recomputed.items()}
    assert recomputed[ana] != pytest.approx(1 / 3, abs=1e-3), "the bank moved the chances"
    assert threads == [True, True], "one estimate per turn, each in a worker thread"

    await act(table.ben, table.channel, "roll")
    hint = (await press(table.ben, table.channel, "hint")).response.content
    assert f"🏆 Your chance to win: **{recomputed[ben]:.1%}**" in hint
    assert threads == [True, True], "the Hint reads the turn's estimate"


async def test_stats_and_the_accuracy_leaderboard_show_reviewed_games(table: Table, dice: Dice) -> None:
    await finish(table, dice)
    stats = (await table.ana.slash(table.channel, "farkle stats")).response
    assert stats is not None
    accuracy = next(f.value for f in stats.embeds[0].fields if f.name == "Review accuracy")
    assert accuracy is not None and accuracy.endswith("(last 1 reviewed game)")
    board = await table.ana.slash(table.channel, "farkle leaderboard", metric="accuracy")
    assert board.response is not None
    embed = board.response.embeds[0]
    assert embed.title == "🏆 Farkle leaderboard · Accuracy"
    assert embed.description == (
        "Nobody is ranked yet.\n\n*Ranks members with 5 reviewed games or more (games against computers "
        "count too).*"
    ), "one reviewed game is below the minimum, which the board states"
    you = next(f.value for f in embed.fields if f.name == "You")
    assert you == "Not ranked yet: 1 of 5 reviewed games."


async def test_stats_and_the_skill_leaderboard_show_the_skill_rating_from_its_minimum(
    table: Table, dice: Dice
) -> None:
    game_id = await finish(table, dice)  # ana made 5 decisions, in chances to win

    async def skill() -> str:
        stats = (await table.ana.slash(table.channel, "farkle stats")).response
        assert stats is not None
        return next(f.value or "" for f in stats.embeds[0].fields if f.name == "Skill")

    assert await skill() == "not yet: 5 of 20 decisions"
    board = await table.ana.slash(table.channel, "farkle leaderboard", metric="skill")
    assert board.response is not None and board.response.embeds[0].title == "🏆 Farkle leaderboard · Skill"
    embed = board.response.embeds[0]
    assert embed.description == (
        "Nobody is ranked yet.\n\n*Ranks members with 20 decisions or more (their last 50, in chances to "
        "win; games against computers count too).*"
    )
    assert next(f.value for f in embed.fields if f.name == "You") == "Not ranked yet: 5 of 20 decisions."
    seat, ended = (await query(table.env, "SELECT seat, ended_at FROM review_decisions LIMIT 1"))[0]
    for index in range(100, 115):  # fifteen more decisions of that game, each giving away 0.5 %
        await execute(
            table.env,
            "INSERT INTO review_decisions VALUES (:game, :index, :seat, :guild, :user, 'win', 0.005, :ended)",
            game=game_id,
            index=index,
            seat=seat,
            guild=table.guild.id,
            user=table.ana.id,
            ended=ended,
        )
    shown = await skill()
    assert re.fullmatch(r"(\d+) \(last 20 decisions\)", shown), shown
    board = await table.ana.slash(table.channel, "farkle leaderboard", metric="skill")
    assert board.response is not None
    assert (board.response.embeds[0].description or "").startswith(f"**1.** ana · {shown.split()[0]} over 20")


async def test_one_game_against_a_computer_gives_a_skill_and_no_rating(table: Table, dice: Dice) -> None:
    """Every reviewed decision counts for skill, whoever sits across the table; the rating needs members."""
    channel, ana = table.channel, table.ana
    dice.script(ROLL_OFF)  # ana starts; fair seeded dice after
    await ana.slash(channel, "farkle new")
    await act(ana, channel, "cpu:normal")
    await act(ana, channel, "start")
    game = farkle(table.env).services.sessions._games.in_channel(channel.id).game
    expert = strategy_for("expert", game.rules, policies_for(game.rules), None)
    while not title(board_message(channel)).startswith("🏆"):
        action = expert.choose(game)
        for position in action.keep:
            await act(ana, channel, f"die:{position}")
        await act(ana, channel, action.kind)
    mine = "SELECT COUNT(*) FROM review_decisions WHERE user_id = :user"
    (decisions,) = await query(table.env, mine, user=ana.id)
    assert decisions[0] >= SKILL_MINIMUM, "one whole game gives a member the decisions a skill needs"
    stats = (await ana.slash(channel, "farkle stats")).response
    assert stats is not None
    card = stats.embeds[0]
    skill = next(f.value or "" for f in card.fields if f.name == "Skill")
    assert re.fullmatch(r"\d+ \(last \d+ decisions\)", skill), skill
    assert (card.description or "").startswith("No rated games in this server yet."), "no rating moved"
    assert await query(table.env, "SELECT COUNT(*) FROM player_stats") == [(0,)]
