"""`make play` feels live: quick taps all count and show, and a computer's turn reaches the page step by step.

In-process, through the page's own action door (the one the browser's clicks take), no browser needed.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp
from play import COUNTDOWN_TICK, Table, channel_state, play_world
from simcord.preview._action_plans import _component_key, _component_paths
from table_moves import board, free_dice, play_one_turn, press, turn_of, until

from tests.test_play import page, state

PAUSE = 1.0


def control_keys(table: Table) -> dict[str, str]:
    """The board's buttons as the page addresses them: custom id → control key."""
    message = table.env.backend.get_message(table.channel.id, board(table).id)
    keys = {}
    for index, root in enumerate(message.components):
        for path, component in _component_paths(root, str(index)):
            key = _component_key(component, path, message.id)
            if key and component.get("custom_id"):
                keys[component["custom_id"]] = key
    return keys


def pick_ids(table: Table) -> Iterator[str]:
    for custom_id in control_keys(table):
        action, position = custom_id.rsplit(":", 2)[-2:]
        if action == "pick" and int(position) in free_dice(table):
            yield custom_id


class PageClicks:
    """Clicks sent as the page sends them: in sequence, each with the revision the page last read."""

    def __init__(self, table: Table, context_id: str, revision: int) -> None:
        self.table, self.context_id, self.revision, self.sequence = table, context_id, revision, 0
        opened = table.preview._get_page(context_id)
        self.sequence = opened.last_sequence

    async def click(self, custom_id: str) -> dict[str, Any]:
        opened = self.table.preview._get_page(self.context_id)
        key = control_keys(self.table)[custom_id]
        self.sequence += 1
        body = {
            "protocol_version": 3,
            "sequence": self.sequence,
            "request_id": str(uuid.uuid4()),
            "generation": opened.generation,
            "bot_generation": self.table.env._generation,
            "published_revision": self.revision,
            "kind": "click",
            "control_key": key,
            "target_id": key.split(":")[1],
        }
        receipt: dict[str, Any] = await self.table.preview._action(self.context_id, body)
        if isinstance(receipt.get("revision"), int):
            self.revision = receipt["revision"]
        return receipt


def refused(receipt: dict[str, Any]) -> list[str]:
    return [item.get("code") for item in receipt.get("diagnostics") or [] if item.get("code")]


async def my_roll(table: Table) -> None:
    async with table.gate:
        await table.you.slash(table.channel, "farkle new")
    await press(table, table.you, "cpu:easy")
    await press(table, table.you, "start")
    await until(lambda: turn_of(table, table.you))
    await press(table, table.you, "roll")
    await until(lambda: bool(free_dice(table)) and table.published == channel_state(table))


def selected_dice_shown(value: object) -> int:
    """How many die buttons the page's state draws selected (the success style)."""
    if isinstance(value, dict):
        here = value.get("style") == 3 and "die_" in str(value.get("emoji"))
        return int(here) + sum(selected_dice_shown(item) for item in value.values())
    if isinstance(value, list):
        return sum(selected_dice_shown(item) for item in value)
    return 0


@contextlib.asynccontextmanager
async def rolled_on_the_page(tmp_path: Path) -> AsyncIterator[tuple[Table, aiohttp.ClientSession, dict, int]]:
    """The member's first roll, with the page open: the table, the page's session, its headers and the
    revision the page read last."""
    async with (
        play_world(tmp_path / "farkle.sqlite3", seed=5, pause=PAUSE) as table,
        aiohttp.ClientSession() as session,
    ):
        headers, _ = await page(table, session)
        await my_roll(table)
        read = (await state(table, session, headers))["publishedRevision"]
        yield table, session, headers, read


async def test_quick_taps_across_a_republication_all_count_and_all_show(tmp_path: Path) -> None:
    async with rolled_on_the_page(tmp_path) as (table, session, headers, read):
        async with table.gate:  # the page republished after the member last read it (a friend's message)
            await table.friend.send(table.channel, "good luck")
            await table.preview.refresh()
        clicks = PageClicks(table, headers["X-Simcord-Context"], read)
        dice = list(pick_ids(table))
        assert len(dice) >= 2
        receipts = [await clicks.click(custom_id) for custom_id in dice]  # back to back, as quick taps
        assert [refused(receipt) for receipt in receipts] == [[] for _ in dice]
        snapshot = table.bot.services.sessions.snapshot(table.channel.id)
        assert snapshot is not None and len(snapshot.selection) == len(dice), "every tap counted"
        assert selected_dice_shown(await state(table, session, headers)) == len(dice), "every tap shown"


async def test_a_press_on_a_message_that_changed_since_the_page_read_it_is_refused(tmp_path: Path) -> None:
    """As Discord refuses a press made on a drawing that was replaced, so does the page."""
    async with rolled_on_the_page(tmp_path) as (table, _, headers, read):
        first, second, *_ = pick_ids(table)
        await press(table, table.you, f"pick:{first.rsplit(':', 1)[1]}")  # the board changes
        async with table.gate:
            await table.preview.refresh()
        receipt = await PageClicks(table, headers["X-Simcord-Context"], read).click(second)
        assert "stale-revision" in refused(receipt)


async def test_a_computer_turn_reaches_the_page_as_more_than_one_update(tmp_path: Path) -> None:
    """Over a few rounds (a computer that farkles at once has a one-step turn), some computer turn is
    published step by step."""
    async with play_world(tmp_path / "farkle.sqlite3", seed=5, pause=PAUSE) as table:
        await my_roll(table)
        published: list[list[str]] = []
        refresh = table.preview.refresh

        async def counted() -> None:
            await refresh()
            snapshot = table.bot.services.sessions.snapshot(table.channel.id)
            if snapshot is not None and snapshot.current != table.you.id:
                published[-1].append(channel_state(table))

        table.preview.refresh = counted  # type: ignore[method-assign]
        for _ in range(5):
            published.append([])
            await play_one_turn(table, table.you)  # banks or farkles: the computer plays next
            await until(lambda: turn_of(table, table.you) and table.published == channel_state(table), 60)
            if len(set(published[-1])) > 1:
                break
            await press(table, table.you, "roll")
            await until(lambda: bool(free_dice(table)) or not turn_of(table, table.you))
        assert max(len(set(turn)) for turn in published) > 1, "the computer's steps are published one by one"


async def test_the_page_shows_the_bot_as_farkle_with_its_die_today(tmp_path: Path) -> None:
    async with (
        play_world(tmp_path / "farkle.sqlite3", seed=5, pause=PAUSE) as table,
        aiohttp.ClientSession() as session,
    ):
        headers, _ = await page(table, session)
        async with table.gate:
            await table.you.slash(table.channel, "farkle new")
            await table.preview.refresh()
        shown = await state(table, session, headers)
        bots = [message["author"] for message in shown["messages"].values() if message["author"]["bot"]]
        assert bots and {author["name"] for author in bots} == {"Farkle"}, "not TestBot"
        avatar = shown["assets"][bots[0]["avatar"]]
        assert avatar["available"] and avatar["contentType"] == "image/png", "the die-face avatar is served"
        assert shown["diagnostics"] == [], "no error badge"
        assert table.env.now().date() == datetime.now(UTC).date(), "the page's clock starts today"


async def test_countdowns_tick_while_the_channel_stays_as_it_was(tmp_path: Path) -> None:
    """The page writes "in 2 minutes" against the time of its last publication: it is republished with
    the clock's time even when nothing changed."""
    async with rolled_on_the_page(tmp_path) as (table, session, headers, _):
        first = (await state(table, session, headers))["profile"]["presentationTime"]
        drawn = channel_state(table)
        published = table.published_at
        await until(lambda: table.published_at > published + COUNTDOWN_TICK)
        later = (await state(table, session, headers))["profile"]["presentationTime"]
        assert channel_state(table) == drawn, "nothing moved: the member's turn waits for them"
        assert datetime.fromisoformat(later) > datetime.fromisoformat(first)
