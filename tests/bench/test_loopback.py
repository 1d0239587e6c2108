"""The load bench's instrument can fail: its loopback server serves a real discord.py bot in its own
process, and refuses a press whose custom id is no longer on the message, as Discord does. No timings
are asserted."""

from __future__ import annotations

from discord_load import session
from loopback.server import UPDATE_MESSAGE, Outcome


async def test_the_trivial_bot_answers_presses_and_a_stale_id_is_refused() -> None:
    async with session("trivial", games=1) as bench:
        await bench.players.set_up(bench.boards)
        board = bench.boards[0]
        table = board.table
        stored = bench.server.messages[board.message_id]
        # As first drawn, the board carries an id the bot's redraw will not: the first answer retires it.
        stored["components"][-1]["components"][-1]["custom_id"] = "trivial:0:old"
        first_footer = stored["embeds"][0]["footer"]["text"]

        presses = [
            bench.server.press(table, table.host, board.message_id, f"trivial:0:{button}")
            for button in ("d0", "roll", "bank")
        ]
        assert [await press.done for press in presses] == [Outcome.ANSWERED] * 3
        assert all(press.callback_type == UPDATE_MESSAGE and press.latency is not None for press in presses)
        assert bench.server.messages[board.message_id]["embeds"][0]["footer"]["text"] != first_footer

        stale = bench.server.press(table, table.host, board.message_id, "trivial:0:old")
        assert await stale.done is Outcome.REFUSED
        assert stale.sent_at is None  # never sent to the bot
        assert not bench.server.unknown_routes
