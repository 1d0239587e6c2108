"""`make play`: the real bot in SimCord's Preview, its page answering on 127.0.0.1 (no browser here)."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest
from play import YOUR_NAME, Table, channel_state, play_world
from table_moves import board, play_one_turn, press, turn_of, until, walk

ROOT = Path(__file__).resolve().parents[1]
PAUSE = 1.0  # the bot's own pause between a computer's steps


async def page(table: Table, session: aiohttp.ClientSession) -> tuple[dict[str, str], dict]:
    """Open a page as the browser does: the address's secret, then the page's own context."""
    base, secret = table.url.split("/#")
    headers = {"X-Simcord-Capability": secret}
    async with session.post(f"{base}/api/pages", json={"viewer_id": str(table.you.id)}, headers=headers) as r:
        assert r.status == 200
        opened = await r.json()
    headers["X-Simcord-Context"] = opened["context"]["id"]
    return headers, opened


async def state(table: Table, session: aiohttp.ClientSession, headers: dict[str, str]) -> dict:
    async with session.get(table.url.split("/#")[0] + "/api/state", headers=headers) as response:
        assert response.status == 200
        return await response.json()


def shows_the_channel(table: Table) -> bool:
    """Whether the page was last published with the channel as it is now (not an older step of it)."""
    return table.published == channel_state(table)


def emoji_assets(value: object) -> list[str]:
    """The asset ids of the custom emojis anywhere in the page's state."""
    if isinstance(value, dict):
        found = [value["asset_id"]] if value.get("custom") and value.get("asset_id") else []
        return found + [asset for item in value.values() for asset in emoji_assets(item)]
    if isinstance(value, list):
        return [asset for item in value for asset in emoji_assets(item)]
    return []


async def test_a_game_against_a_computer_reaches_the_page(tmp_path: Path) -> None:
    async with (
        play_world(tmp_path / "farkle.sqlite3", seed=5, pause=PAUSE) as table,
        aiohttp.ClientSession() as session,
    ):
        async with session.get(table.url.split("#")[0]) as index:
            assert index.status == 200 and "<html" in (await index.text()).lower()
        headers, _ = await page(table, session)

        async with table.gate:
            await table.you.slash(table.channel, "farkle new")
        await press(table, table.you, "cpu:expert")
        await press(table, table.you, "start")
        await until(lambda: turn_of(table, table.you))  # after the computer's opening turn, if it began
        drawn_words = str([component.to_dict() for component in board(table).components])
        assert f"**{YOUR_NAME}'s turn**" in drawn_words, "the board names the member as a server would"
        await press(table, table.you, "roll")
        await until(lambda: shows_the_channel(table))  # what a member did reaches the page too

        shown = await state(table, session, headers)
        assets = set(emoji_assets(shown))
        assert len(assets) >= 1, "the rolled dice show no emoji"
        for asset in assets:
            async with session.get(
                f"{table.url.split('/#')[0]}/api/assets/{asset}", headers=headers
            ) as image:
                assert image.status == 200 and image.content_type == "image/png"
                assert (await image.read()).startswith(b"\x89PNG")

        await play_one_turn(table, table.you)  # banks or farkles: the computer's turn comes next
        await until(lambda: turn_of(table, table.you) and shows_the_channel(table))
        later = await state(table, session, headers)
        assert later["publishedRevision"] > shown["publishedRevision"]
        drawn = [button for button in walk(board(table).components) if button.custom_id]
        assert drawn, "the board after the computer's turn has buttons"


def test_a_busy_port_exits_2_with_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, ROOT / "scripts" / "play.py", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=ROOT,
        )
    assert result.returncode == 2
    assert result.stderr.strip() == f"make play: port {port} is busy on 127.0.0.1; choose another with --port"


@pytest.mark.parametrize("port", ["-1", "70000"])
def test_a_port_out_of_range_exits_2_with_one_line(port: str) -> None:
    result = subprocess.run(
        [sys.executable, ROOT / "scripts" / "play.py", "--port", port],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
