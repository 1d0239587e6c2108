"""The Activity's bench (issue 46): a move from the Activity to the chat board and the reverse, the page's
size, and the bot's idle RSS with ACTIVITY_PORT set and unset.

The Farkle bot runs unmodified in its own process against the loopback Discord (`bench/loopback/`), whose
REST also serves Discord's sign-in endpoints (`loopback/activity_discord.py`); ana and ben sign in to the
bot's Activity server as the page does. One game, played one move at a time:
  activity -> board  ana or ben POSTs the move their table offers (Roll at a turn's start, else Bank all)
                     to the Activity; timed until the loopback server holds the chat board edited to
                     that move's version ("move N" in its footer)
  board -> activity  the current player presses the chat board (a die tap, Roll or Bank, as the load
                     bench's members choose); timed until the other member's Activity socket receives a
                     table of a newer version
Idle RSS is VmRSS once the bot has logged in and gone quiet, no game, as `discord_load.py` reads it.

Run: .venv/bin/python bench/activity.py [--moves 200]
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import socket
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
from loopback.activity_discord import ActivityDiscord, Member
from loopback.bots import FARKLE_ENV, BotProcess
from loopback.payloads import BENCH_TOKEN, JSONDict, Snowflakes, World, text_of
from loopback.players import Board, FarklePlayers
from loopback.server import LoopbackDiscord
from percentile import percentile

PAGE = Path(__file__).resolve().parents[1] / "bot" / "assets" / "activity"
SECRET = "bench-secret"
INSTANCE = "i-bench"
WAIT = 10.0  # seconds a move may take to show before the bench gives up on it
MiB = 1024 * 1024


def page_size_gzipped() -> int:
    """The page as a member's client downloads it: index.html, the script and the style sheet, gzip -9."""
    files = [PAGE / "index.html", *sorted((PAGE / "assets").iterdir())]
    return sum(len(gzip.compress(path.read_bytes(), 9)) for path in files)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


class Edits:
    """When the loopback server stored each edit of a message, and what the message then said."""

    def __init__(self, server: LoopbackDiscord) -> None:
        self.seen: list[tuple[float, str]] = []
        edit = server._edit

        def noted(stored: JSONDict, body: JSONDict) -> None:
            edit(stored, body)
            self.seen.append((time.perf_counter(), text_of(stored)))

        server._edit = noted  # type: ignore[method-assign]

    async def showing(self, version: int, since: float) -> float:
        """Seconds from `since` to the first edit showing `version`."""
        mark = f"move {version} "
        deadline = time.perf_counter() + WAIT
        while time.perf_counter() < deadline:
            for when, text in self.seen:
                if when >= since and mark in text:
                    return when - since
            await asyncio.sleep(0.001)
        raise TimeoutError(f"the chat board never showed move {version}")


async def bot_session(
    env: dict[str, str], folder: Path
) -> tuple[LoopbackDiscord, BotProcess, ActivityDiscord]:
    snowflake = Snowflakes()
    world = World.build(1, snowflake)
    server = LoopbackDiscord(world, BENCH_TOKEN, snowflake)
    stand_in = ActivityDiscord(world.application_id, SECRET, BENCH_TOKEN)
    server.also = stand_in.routes()
    url = await server.start()
    process = BotProcess("loopback.run_farkle", url, folder, {**FARKLE_ENV, **env})
    process.start()
    while not server.identified.is_set():
        process.check_alive()
        await asyncio.sleep(0.1)
    await asyncio.sleep(2.5)  # discord.py is ready 2 s after the last GUILD_CREATE
    await server.settled(quiet=1.0)
    await process.idle(quiet=1.0)
    return server, process, stand_in


async def idle_rss(env: dict[str, str]) -> float:
    with tempfile.TemporaryDirectory(prefix="bench-activity-") as folder:
        server, process, _ = await bot_session(env, Path(folder))
        try:
            return process.rss() / MiB
        finally:
            process.stop()
            await server.close()


async def moves(count: int) -> tuple[list[float], list[float]]:
    port = free_port()
    env = {"ACTIVITY_PORT": str(port), "ACTIVITY_HOST": "127.0.0.1", "DISCORD_CLIENT_SECRET": SECRET}
    with tempfile.TemporaryDirectory(prefix="bench-activity-") as folder:
        server, process, stand_in = await bot_session(env, Path(folder))
        players = FarklePlayers(server)
        board = Board(server.world.tables[0])
        try:
            await players.set_up([board])
            table = board.table
            members = {person.id: Member(person.id, person.name) for person in (table.host, table.guest)}
            stand_in.join(INSTANCE, table.channel_id, table.guild_id, *members.values())
            base = f"http://127.0.0.1:{port}/api"
            async with aiohttp.ClientSession() as http:
                tokens = {}
                for member_id, member in members.items():
                    async with http.post(f"{base}/token", json={"code": stand_in.authorize(member)}) as got:
                        tokens[member_id] = (await got.json())["access_token"]
                signed_in = Members(http, base, tokens)
                to_board = await _from_the_activity(signed_in, server, board, count)
                to_activity = await _from_the_board(signed_in, players, board, count)
            return to_board, to_activity
        finally:
            process.stop()
            await server.close()


class Members:
    """ana and ben at the Activity, signed in as the page signs in."""

    def __init__(self, http: aiohttp.ClientSession, base: str, tokens: dict[int, str]) -> None:
        self.http, self.base, self.tokens = http, base, tokens

    async def read(self, token: str) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"}
        async with self.http.get(f"{self.base}/instances/{INSTANCE}", headers=headers) as got:
            answer = await got.json()
        if got.status != 200:
            raise RuntimeError(f"the Activity refused to read the table ({got.status}): {answer}")
        table: dict[str, Any] = answer["table"]
        return table

    async def move(self, token: str, action: str, version: object) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"}
        body = {"action": action, "version": version}
        async with self.http.post(
            f"{self.base}/instances/{INSTANCE}/actions", json=body, headers=headers
        ) as got:
            answer: dict[str, Any] = await got.json()
        if got.status != 200:
            raise RuntimeError(f"the Activity refused {action}: {answer}")
        return answer

    async def playing(self, server: LoopbackDiscord, board: Board) -> dict[str, Any]:
        """The game in play, a new one opened from the Activity (ana opens and starts, ben joins) once
        the last one is over; `board` follows the game's chat board."""
        host, guest = (self.tokens[person.id] for person in (board.table.host, board.table.guest))
        table = await self.read(host)
        if table["stage"] == "playing":
            return table
        for token, action in ((host, "new"), (guest, "join"), (host, "start")):
            table = (await self.move(token, action, (await self.read(token))["version"]))["table"]
        await server.settled()
        channel = str(board.table.channel_id)
        board.message_id = max(
            int(stored["id"])
            for stored in server.messages.values()
            if stored.get("channel_id") == channel and "turn" in text_of(stored)
        )
        return table


async def _from_the_activity(
    members: Members, server: LoopbackDiscord, board: Board, count: int
) -> list[float]:
    edits = Edits(server)
    seconds: list[float] = []
    while len(seconds) < count:
        table = await members.playing(server, board)
        token = members.tokens[int(table["current"])]
        table = await members.read(token)  # the current player's own moves
        action = "roll" if "roll" in table["moves"] and not table["turn"]["roll"] else "bank_all"
        if action not in table["moves"]:
            action = "roll"
        started = time.perf_counter()
        answer = await members.move(token, action, table["version"])
        if answer["table"]["stage"] == "playing":  # the results board names no move: not timed
            seconds.append(await edits.showing(answer["table"]["version"], started))
    await server.settled()
    return seconds


async def _from_the_board(members: Members, players: FarklePlayers, board: Board, count: int) -> list[float]:
    seconds: list[float] = []
    while len(seconds) < count:
        await members.playing(players.server, board)
        move = players.next_move(board)
        if move is None:
            await players.server.settled()
            continue
        watcher = next(token for member_id, token in members.tokens.items() if member_id != move.person.id)
        async with members.http.ws_connect(f"{members.base}/instances/{INSTANCE}/live") as live:
            await live.send_json({"token": watcher})
            shown = (await live.receive_json(timeout=WAIT))["table"]["version"]
            started = time.perf_counter()
            players.server.press(board.table, move.person, board.message_id, move.custom_id)
            while True:
                pushed = (await live.receive_json(timeout=WAIT))["table"]
                if pushed["version"] is not None and pushed["version"] > shown:
                    seconds.append(time.perf_counter() - started)
                    break
        await players.server.settled()
    return seconds


def _line(name: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    return f"{name}: {len(ms)} moves, p50 {percentile(ms, 0.5):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms"


async def main(args: argparse.Namespace) -> None:
    print(f"page, gzipped: {page_size_gzipped() / 1024:.1f} KB")
    to_board, to_activity = await moves(args.moves)
    print(_line("activity -> chat board", to_board))
    print(_line("chat board -> activity", to_activity))
    for name, env in (
        ("unset", {}),
        ("set", {"ACTIVITY_PORT": str(free_port()), "DISCORD_CLIENT_SECRET": SECRET}),
    ):
        print(f"idle RSS, ACTIVITY_PORT {name}: {await idle_rss(env):.1f} MiB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200, help="moves each way (default 200)")
    asyncio.run(main(parser.parse_args()))
