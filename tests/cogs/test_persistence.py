"""Nothing lost: games survive restarts, and finished games feed the statistics commands.

Restarts use `env.restart_bot(make_bot())`: a fresh FarkleBot on the same settings and database file,
while SimCord keeps the world (channels, messages and their buttons).
"""

from __future__ import annotations

import json
import re

import discord
import pytest
import simcord

from bot.services.ratings import rate_game
from bot.sessions.requests import Press
from bot.storage.results import FORGOTTEN, write_record
from tests.cogs.conftest import Dice, Table
from tests.cogs.forge import send_press, until_answered
from tests.cogs.play import (
    FARKLE,
    ROLL_OFF,
    SIX_ONES,
    MakeBot,
    act,
    big_turn,
    board_message,
    buttons,
    description,
    execute,
    farkle,
    field,
    is_board,
    keep_all,
    labels,
    latest,
    open_game,
    query,
    read_dice,
    refused,
    restart,
    title,
)
from tests.records import player, synthetic


async def scalar(env: simcord.Env, sql: str, **params: object) -> object:
    return (await query(env, sql, **params))[0][0]


async def recorded(env: simcord.Env) -> tuple[object, object]:
    """Archived games, and games counted in the statistics (summed over members)."""
    return await scalar(env, "SELECT COUNT(*) FROM games"), await scalar(
        env, "SELECT COALESCE(SUM(games), 0) FROM player_stats"
    )


async def finish_quickly(table: Table, dice: Dice) -> None:
    """ana wins a 2-player classic game in one turn; ben's last turn Farkles."""
    dice.script(ROLL_OFF, *[SIX_ONES] * 5, FARKLE)
    await open_game(table.channel, table.ana, table.ben)
    await big_turn(table.ana, table.channel, 5)
    await act(table.ben, table.channel, "roll")
    assert title(board_message(table.channel)) == "🏆 ana wins!"


def embed_of(result: simcord.InteractionResult) -> discord.Embed:
    assert result.response is not None and result.response.embeds, "expected an embed"
    return result.response.embeds[0]


def buttons_of(message: discord.Message) -> list[discord.Button]:
    return [item for row in message.components for item in getattr(row, "children", [])]


def fields(embed: discord.Embed) -> dict[str, str]:
    return {f.name or "": f.value or "" for f in embed.fields}


# ---------------------------------------------------------------------- restarts


async def test_restart_mid_turn_then_finish_on_the_old_board(
    table: Table, dice: Dice, env: simcord.Env, make_bot: MakeBot
) -> None:
    dice.script(ROLL_OFF, *[SIX_ONES] * 5, FARKLE)
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")
    await keep_all(table.ana, table.channel)  # the selection is part of the saved state
    before = board_message(table.channel)
    messages = {m.id for m in table.channel.history()}

    await restart(env, make_bot)

    # The message posted before the restart, pressed as it was: its custom ids carry the old version.
    result = await table.ana.click(before, custom_id=buttons(before)["roll"].custom_id)
    assert not result.ephemeral, result.response and result.response.content
    board = board_message(table.channel)
    assert board.id == before.id
    assert "ana's turn" in description(board)
    assert labels(board)["bank"] == "Bank all 4,000", "nothing selected yet: the best keep"
    await keep_all(table.ana, table.channel)
    await big_turn(table.ana, table.channel, 3)  # two more sixes of ones, then the bank
    assert "🏦 ana banked 10,000 (now 10,000)" in latest(table.channel)
    await act(table.ben, table.channel, "roll")

    board = board_message(table.channel)
    assert board.id == before.id, "the whole game was played on the board posted before the restart"
    assert title(board) == "🏆 ana wins!"
    assert field(board, "Final standings").splitlines() == ["**1.** ana · 10,000", "**2.** ben · 0"]
    assert [m for m in table.channel.history() if is_board(m) and m.id not in messages] == [], (
        "no second board"
    )
    assert await recorded(env) == (1, 2)


async def test_closing_right_after_a_press_lets_its_answer_and_turn_ping_finish(
    table: Table, dice: Dice, env: simcord.Env, caplog: pytest.LogCaptureFixture
) -> None:
    dice.script(ROLL_OFF, FARKLE)  # ana's roll farkles: the turn passes and ben is pinged
    await open_game(table.channel, table.ana, table.ben)
    board = board_message(table.channel)
    pressed = send_press(table.ana, board, buttons(board)["roll"].custom_id)
    await until_answered(pressed)
    await farkle(env).close()  # a clean shutdown arrives before the turn ping is out
    await env.settle()
    assert "Unexpected error" not in caplog.text
    assert pressed.acknowledged and not pressed.ephemeral
    assert "ben's turn" in description(board_message(table.channel))
    assert [m.content for m in table.channel.history()][-1].endswith("it's your turn!")


async def test_restart_during_a_lobby(table: Table, dice: Dice, env: simcord.Env, make_bot: MakeBot) -> None:
    await table.ana.slash(table.channel, "farkle new")
    await act(table.ben, table.channel, "join")
    lobby = board_message(table.channel)

    await restart(env, make_bot)

    await act(table.cy, table.channel, "join")
    board = board_message(table.channel)
    assert board.id == lobby.id
    assert field(board, "Players (3/8)").splitlines() == ["👑 ana", "• ben", "• cy"]
    assert await refused(table.ben, table.channel, "start") == "Only the host, ana, can start."
    dice.script((6, 2, 3))
    await act(table.ana, table.channel, "start")
    assert "ana's turn" in description(board_message(table.channel))


async def test_a_lobby_timer_survives_a_restart(table: Table, env: simcord.Env, make_bot: MakeBot) -> None:
    await table.ana.slash(table.channel, "farkle new")
    await env.advance_time(500)
    await restart(env, make_bot)
    await env.advance_time(99)
    assert title(board_message(table.channel)).startswith("🎲 Farkle lobby")
    await env.advance_time(1)
    assert description(board_message(table.channel)) == "This lobby expired: nobody started it in time."


async def test_restart_during_the_final_round(
    table: Table, dice: Dice, env: simcord.Env, make_bot: MakeBot
) -> None:
    dice.script((6, 2, 3), *[SIX_ONES] * 5, FARKLE, FARKLE)
    await open_game(table.channel, table.ana, table.ben, table.cy)
    await big_turn(table.ana, table.channel, 5)
    await act(table.ben, table.channel, "roll")
    assert "🏁 Final round" in description(board_message(table.channel))

    await restart(env, make_bot)

    board = board_message(table.channel)
    assert "🏁 Final round" in description(board) and "cy's turn" in description(board)
    assert await refused(table.ana, table.channel, "roll") == "It's cy's turn."
    await act(table.cy, table.channel, "roll")
    assert title(board_message(table.channel)) == "🏆 ana wins!"
    assert await recorded(env) == (1, 3)


async def test_a_turn_timer_that_expired_while_the_bot_was_down_fires_at_start_up(
    table: Table, dice: Dice, env: simcord.Env, make_bot: MakeBot
) -> None:
    """SimCord cannot move time between the two halves of `restart_bot` (one operation), so the
    downtime is written into the database: the stored deadline is put in the past, as if the bot had
    been down past it."""
    dice.script(ROLL_OFF)
    await open_game(table.channel, table.ana, table.ben)
    await env.advance_time(30)
    past = farkle(env).clock.now() - 5
    ((state,),) = await query(env, "SELECT state FROM sessions")
    state = json.dumps({**json.loads(state), "deadline": past})
    await execute(env, "UPDATE sessions SET deadline = :past, state = :state", past=past, state=state)
    before = {m.id for m in table.channel.history()}

    await restart(env, make_bot)

    assert "ben's turn" in description(board_message(table.channel))
    assert "⏰ ana ran out of time: the turn ends like a Farkle (1 in a row)" in latest(table.channel)
    new = [m.content for m in table.channel.history() if m.id not in before]
    assert new == [f"<@{table.ben.id}> 🎲 it's your turn!"], "no reminder for a turn already over"
    # ben's fresh turn has the full time again.
    await env.advance_time(119)
    assert "ben's turn" in description(board_message(table.channel))
    await env.advance_time(1)
    assert "ana's turn" in description(board_message(table.channel))


async def test_the_final_press_repeated_and_the_session_saved_again_record_once(
    table: Table, dice: Dice, env: simcord.Env, make_bot: MakeBot
) -> None:
    """SimCord only clicks components a message shows now, so the retried final press (Discord
    delivering the same stale button twice) is sent to the session manager as the button would."""
    dice.script(ROLL_OFF, *[SIX_ONES] * 5, FARKLE)
    await open_game(table.channel, table.ana, table.ben)
    await big_turn(table.ana, table.channel, 5)
    final = buttons(board_message(table.channel))["roll"].custom_id or ""
    await act(table.ben, table.channel, "roll")
    assert await recorded(env) == (1, 2)

    _, game_id, seq, action = final.split(":")
    retried = await farkle(env).services.sessions.press(
        Press(table.channel.id, game_id, seq, table.ben.id, "ben", action)
    )
    assert str(retried.refusal) == "This game is over."
    await table.ana.slash(table.channel, "farkle board")  # re-posting the board saves the session again
    await restart(env, make_bot)
    await table.ben.slash(table.channel, "farkle board")
    assert await recorded(env) == (1, 2)
    stats = fields(embed_of(await table.ana.slash(table.channel, "farkle stats")))
    assert stats["Rated games"] == "1" and stats["Wins"] == "1 (100%)"


async def test_a_rematch_after_a_restart(
    table: Table, dice: Dice, env: simcord.Env, make_bot: MakeBot
) -> None:
    await finish_quickly(table, dice)
    await restart(env, make_bot)
    await act(table.ben, table.channel, "rematch")
    assert title(board_message(table.channel)).startswith("🎲 Farkle lobby")
    assert field(board_message(table.channel), "Players (1/8)").splitlines() == ["👑 ben"]
    await act(table.ana, table.channel, "join")
    assert await recorded(env) == (1, 2)


# ---------------------------------------------------------------------- statistics commands


async def seed_leaderboard(env: simcord.Env, table: Table) -> None:
    """26 ranked members: m01…m25 banked 1,000 × their number, ana 12,500 (14th on points)."""
    bot = farkle(env)
    members = [(9000 + n, f"m{n:02d}", n * 1000) for n in range(1, 26)] + [(table.ana.id, "ana", 12_500)]
    ended = bot.clock.now() - 3600
    records = []
    for index in range(0, len(members), 2):
        low, high = sorted(members[index : index + 2], key=lambda m: m[2])
        (winner, winner_name, winner_points), (loser, loser_name, loser_points) = high, low
        records.append(
            synthetic(
                f"seed{index:02d}",
                player(winner, name=winner_name, points=winner_points, best=winner_points // 2, won=True),
                player(loser, name=loser_name, points=loser_points, best=loser_points // 2),
                ended_at=ended,
                guild=table.guild.id,
                channel=table.channel.id,
            )
        )
    written = await bot.services.database.write(
        lambda c: [write_record(c, record, rate_game) for record in records]
    )
    assert all(written)


def newest_page(channel: simcord.ChannelHandle) -> discord.Message:
    return next(
        m for m in reversed(channel.history()) if m.embeds and "leaderboard" in (m.embeds[0].title or "")
    )


def lines(message: discord.Message) -> list[str]:
    """The board's ranked lines (above the line that says whom it ranks)."""
    ranked, _, qualifying = description(message).partition("\n\n")
    assert qualifying.startswith("*Ranks members with "), "every board states its minimum"
    return ranked.splitlines()


def paging(message: discord.Message) -> list[tuple[str, bool]]:
    """The leaderboard's buttons: label and whether it is disabled."""
    return [
        (item.label or "", item.disabled)
        for row in message.components
        for item in getattr(row, "children", [])
        if isinstance(item, discord.Button)
    ]


def footer(message: discord.Message) -> str:
    return message.embeds[0].footer.text or ""


async def test_leaderboard_pages_with_the_callers_rank(
    table: Table, env: simcord.Env, make_bot: MakeBot
) -> None:
    await seed_leaderboard(env, table)
    result = await table.ben.slash(table.channel, "farkle leaderboard", metric="points")
    assert not result.ephemeral and result.response is not None
    page = result.response.message
    assert lines(page) == [f"**{r}.** m{26 - r:02d} · {26 - r},000" for r in range(1, 11)]
    assert footer(page) == "all time · page 1/3 · 26 ranked"
    assert fields(page.embeds[0])["You"] == "Not ranked yet: 0 of 1 rated game.", "ben has no rated games"
    assert paging(page) == [("◀ Previous", True), ("Next ▶", False)]

    await table.ana.click(page, label="Next ▶")
    page = newest_page(table.channel)
    assert lines(page)[2:6] == [
        "**13.** m13 · 13,000",
        "**14.** ana · 12,500",
        "**15.** m12 · 12,000",
        "**16.** m11 · 11,000",
    ]
    assert fields(page.embeds[0])["You"] == "**14.** ana · 12,500"
    assert footer(page) == "all time · page 2/3 · 26 ranked"

    await restart(env, make_bot)  # the paging buttons are stateless: they outlive the bot
    # (the restart announces the seeded games, and their achievements, in the channel)

    await table.ben.click(page, label="Next ▶")
    page = newest_page(table.channel)
    assert lines(page) == [f"**{r}.** m{27 - r:02d} · {27 - r},000" for r in range(21, 27)]
    assert footer(page) == "all time · page 3/3 · 26 ranked"
    assert paging(page) == [("◀ Previous", False), ("Next ▶", True)]
    await table.ana.click(page, label="◀ Previous")
    assert footer(newest_page(table.channel)) == "all time · page 2/3 · 26 ranked"


async def test_leaderboard_default_is_rating_with_shared_ranks_and_the_30_day_window(
    table: Table, dice: Dice, env: simcord.Env
) -> None:
    await finish_quickly(table, dice)
    result = await table.cy.slash(table.channel, "farkle leaderboard")
    page = result.response.message if result.response else None
    assert page is not None and page.embeds[0].title == "🏆 Farkle leaderboard · Rating"
    assert [line.split(" · ")[0] for line in lines(page)] == ["**1.** ana", "**2.** ben"]
    assert footer(page) == "all time · page 1/1 · 2 ranked"
    assert paging(page) == [("◀ Previous", True), ("Next ▶", True)]
    wins = await table.ben.slash(table.channel, "farkle leaderboard", metric="wins", period="30d")
    assert wins.response is not None
    assert lines(wins.response.message) == ["**1.** ana · 1", "**2.** ben · 0"]
    assert fields(wins.response.message.embeds[0])["You"] == "**2.** ben · 0"
    assert footer(wins.response.message) == "last 30 days · page 1/1 · 2 ranked"

    await env.advance_time(31 * 24 * 3600)
    late = await table.ben.slash(table.channel, "farkle leaderboard", metric="wins", period="30d")
    assert late.response is not None
    assert lines(late.response.message) == ["Nobody is ranked yet."]
    every = await table.ben.slash(table.channel, "farkle leaderboard", metric="wins")
    assert every.response is not None and len(lines(every.response.message)) == 2


async def test_stats_of_a_member(table: Table, dice: Dice) -> None:
    await finish_quickly(table, dice)
    embed = embed_of(await table.cy.slash(table.channel, "farkle stats", member=table.ana))
    assert embed.title == "📊 ana at Farkle"
    ana = fields(embed)
    assert ana["Rated games"] == "1" and ana["Wins"] == "1 (100%)"
    assert ana["Points banked"] == "10,000" and ana["Best turn"] == "10,000" and ana["Best game"] == "10,000"
    assert ana["Hot dice"] == "5" and ana["Farkles"] == "0" and ana["Average turn"] == "10,000"
    ben = fields(embed_of(await table.ben.slash(table.channel, "farkle stats")))
    assert ben["Wins"] == "0 (0%)" and ben["Farkles"] == "1"
    assert int(ben["Rating"].replace(",", "")) < 1000 < int(ana["Rating"].replace(",", "")), (
        "1,000 at the start"
    )
    nobody = embed_of(await table.cy.slash(table.channel, "farkle stats"))
    assert (nobody.description or "").startswith("No rated games in this server yet.\nRated games are")


async def test_history_and_replay(table: Table, dice: Dice) -> None:
    await finish_quickly(table, dice)
    result = await table.cy.slash(table.channel, "farkle history")
    assert result.ephemeral
    history = embed_of(result)
    match = re.match(r"`([0-9a-f]+)` <t:\d+:d> · classic · 🏆 ana 10,000, ben 0$", history.description or "")
    assert match, history.description
    game_id = match[1]
    server = embed_of(await table.cy.slash(table.channel, "farkle history", scope="server"))
    assert server.description == history.description
    elsewhere = table.guild.create_text_channel("elsewhere")
    assert embed_of(await table.cy.slash(elsewhere, "farkle history")).description == "No finished games yet."

    replayed = await table.cy.slash(table.channel, "farkle replay", game=game_id.upper())
    assert replayed.ephemeral and replayed.response is not None
    card = embed_of(replayed)
    assert card.title == f"🎬 Replay of game {game_id}" and card.footer.text == "Page 1 of 1"
    turns = read_dice(card.description or "").splitlines()
    assert turns[0] == "🎲 ana won the roll-off (6, 2) and starts"
    assert turns[1].startswith(
        "1. ana: rolled 1 1 1 1 1 1 [✓] kept 1 1 1 1 1 1 (+2,000) → | 🔥 ana has hot dice! "
        "rolled 1 1 1 1 1 1 [−0.1% chance to win] kept 1 1 1 1 1 1 (+2,000) →"
    ), "each decision is marked with its cost (the classic tables ship): the best move with ✓"
    assert "ana banked 10,000" in turns[1]
    assert turns[2] == "2. ben: rolled 2 3 4 6 2 3 | 💥 ben farkled | 🏆 Game over"
    assert len(turns) == 3
    assert [b.disabled for b in buttons_of(replayed.response.message)] == [True, True], "one page"
    (download,) = replayed.response.attachments
    text = (await download.read()).decode()
    assert download.filename == f"farkle-{game_id}.txt"
    assert text.splitlines()[2] == "2. ben: rolled 2️⃣ 3️⃣ 4️⃣ 6️⃣ 2️⃣ 3️⃣ | 💥 ben farkled | 🏆 Game over"
    offered = await table.ana.autocomplete(table.channel, "farkle replay", "game", "")
    assert [choice["value"] for choice in offered] == [game_id], "ana's recent games"
    assert offered[0]["name"].startswith(f"{game_id} · ") and "classic · ana, ben" in offered[0]["name"]
    assert await table.cy.autocomplete(table.channel, "farkle review", "game", "") == [], "cy played none"
    unknown = await table.cy.slash(table.channel, "farkle replay", game="abcdef")
    assert unknown.response is not None
    assert unknown.response.content == "No finished game `abcdef` in this server."


async def test_forget_me_asks_first(table: Table, dice: Dice, env: simcord.Env) -> None:
    await finish_quickly(table, dice)
    asked = await table.ana.slash(table.channel, "farkle forget-me")
    assert asked.ephemeral and asked.response is not None
    assert asked.response.content.startswith(
        "This deletes your Farkle statistics, daily attempts and achievements"
    )
    cancelled = await table.ana.click(asked.response.message, label="Cancel")
    assert cancelled.response is not None
    assert cancelled.response.content == "Cancelled: nothing changed."
    assert fields(embed_of(await table.ana.slash(table.channel, "farkle stats")))["Rated games"] == "1"

    asked = await table.ana.slash(table.channel, "farkle forget-me")
    assert asked.response is not None
    done = await table.ana.click(asked.response.message, label="Delete my statistics")
    assert done.response is not None
    assert done.response.content == "Done: your statistics and name are gone."
    assert not done.response.message.components
    mine = embed_of(await table.ana.slash(table.channel, "farkle stats"))
    assert (mine.description or "").startswith("No rated games in this server yet.")
    history = embed_of(await table.ben.slash(table.channel, "farkle history"))
    assert f"🏆 {FORGOTTEN} 10,000, ben 0" in (history.description or "")
    assert "ana" not in (history.description or "")
    board = await table.ben.slash(table.channel, "farkle leaderboard", metric="wins")
    assert board.response is not None and lines(board.response.message) == ["**1.** ben · 0"]
    game_id = (history.description or "").split("`")[1]
    replayed = await table.ben.slash(table.channel, "farkle replay", game=game_id)
    assert (embed_of(replayed).description or "").startswith(
        "🎲 Forgotten player won the roll-off (6, 2) and starts\n1. Forgotten player: rolled"
    )


async def test_reset_leaderboard_needs_manage_server(table: Table, dice: Dice, env: simcord.Env) -> None:
    await finish_quickly(table, dice)
    refused_reset = await table.ana.slash(table.channel, "farkle reset-leaderboard")
    assert refused_reset.ephemeral and refused_reset.response is not None
    assert refused_reset.response.content == "You need the Manage Server permission to do that."
    assert [type(e).__name__ for e in env.errors] == ["MissingPermissions"]

    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(env.create_user("admin"), roles=[admins])
    asked = await admin.slash(table.channel, "farkle reset-leaderboard")
    assert asked.ephemeral and asked.response is not None
    cancelled = await admin.click(asked.response.message, label="Cancel")
    assert cancelled.response is not None and cancelled.response.content == "Cancelled: nothing changed."
    assert len(lines((await table.ana.slash(table.channel, "farkle leaderboard")).response.message)) == 2  # type: ignore[union-attr]

    asked = await admin.slash(table.channel, "farkle reset-leaderboard")
    assert asked.response is not None
    done = await admin.click(asked.response.message, label="Reset the leaderboard")
    assert done.response is not None and done.response.content == "Done: the leaderboard starts from zero."
    for period in ("all", "30d"):
        board = await table.ana.slash(table.channel, "farkle leaderboard", period=period)
        assert board.response is not None
        assert lines(board.response.message) == ["Nobody is ranked yet."], period
    history = embed_of(await table.ana.slash(table.channel, "farkle history"))
    assert "🏆 ana 10,000" in (history.description or ""), "history stays"


async def test_a_replay_turns_its_pages_and_keeps_its_download(
    table: Table, dice: Dice, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.render.replay.PAGE_TEXT", 200)  # a page a turn or so
    await finish_quickly(table, dice)
    history = embed_of(await table.cy.slash(table.channel, "farkle history"))
    game_id = (history.description or "").split("`")[1]
    replayed = await table.cy.slash(table.channel, "farkle replay", game=game_id)
    first = embed_of(replayed)
    pages = int((first.footer.text or "").rsplit(" ", 1)[1])
    assert pages > 1 and (first.footer.text or "") == f"Page 1 of {pages}"
    message = replayed.response.message  # type: ignore[union-attr]
    previous, following = buttons_of(message)
    assert previous.disabled and not following.disabled
    turned = await table.cy.click(message, custom_id=following.custom_id)
    second = embed_of(turned)
    assert second.footer.text == f"Page 2 of {pages}" and second.description != first.description
    assert [a.filename for a in turned.response.attachments] == [f"farkle-{game_id}.txt"]  # type: ignore[union-attr]
