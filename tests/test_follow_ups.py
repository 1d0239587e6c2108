"""Turn pings wait for the answers being sent: in a burst of presses, every player's answer comes first."""

from __future__ import annotations

import asyncio

import pytest

from bot import client
from bot.client import FarkleBot
from bot.settings import Settings


async def test_a_follow_up_waits_for_every_answer_in_flight_and_keeps_its_channels_order(
    settings: Settings,
) -> None:
    bot = FarkleBot(settings)
    release, done = asyncio.Event(), []

    async def answer() -> None:
        bot.answering()
        await release.wait()

    async def ping(name: str) -> None:
        done.append(name)

    answers = [asyncio.create_task(answer()) for _ in range(3)]
    await asyncio.sleep(0)
    bot.after_answers(1, lambda: ping("first in channel 1"))
    bot.after_answers(2, lambda: ping("channel 2"))
    bot.after_answers(1, lambda: ping("second in channel 1"))
    await asyncio.sleep(0.05)
    assert done == [], "nothing goes out while answers are being sent"

    release.set()
    await asyncio.gather(*answers)
    await asyncio.sleep(0.05)
    assert done.index("first in channel 1") < done.index("second in channel 1") and len(done) == 3
    await bot.close()


async def test_a_follow_up_goes_out_anyway_when_answers_never_stop(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(client, "FOLLOW_UP_WAIT", 0.1)
    bot = FarkleBot(settings)
    stuck, done = asyncio.Event(), asyncio.Event()

    async def answer() -> None:
        bot.answering()
        await stuck.wait()

    async def ping() -> None:
        done.set()

    busy = asyncio.create_task(answer())
    await asyncio.sleep(0)
    bot.after_answers(1, ping)
    await asyncio.wait_for(done.wait(), 1)
    stuck.set()
    await busy
    await bot.close()
