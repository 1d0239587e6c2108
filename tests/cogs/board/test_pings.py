"""Turn pings leave with the game: however a game ends, no "it's your turn" is left in the channel; and a
ping, heard on the stream, waits for the answers being sent (a player's own answer comes first)."""

from __future__ import annotations

import asyncio
from typing import cast

import pytest

from bot.app.client import FarkleBot
from bot.core.environment import Settings
from bot.engine import Ruleset
from bot.sessions.outcome import Outcome
from bot.sessions.session import Session
from bot.sessions.stream_events import Cause, GameChanged
from cogs.board import pings as pings_module
from cogs.board.delivery import Delivery
from cogs.board.ledger import Ledger
from cogs.board.pings import Pings
from tests.cogs.conftest import Dice, Table
from tests.cogs.play import FARKLE, ROLL_OFF, act, open_game, pings


async def test_a_game_ended_by_its_host_leaves_no_turn_ping(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF, FARKLE)
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")  # a Farkle: ben's turn, ben is pinged
    await table.env.advance_time(2)
    assert pings(table.channel) == [f"<@{table.ben.id}> 🎲 it's your turn!"]

    result = await table.ana.slash(table.channel, "farkle end")
    assert result.response is not None
    await table.env.advance_time(2)
    assert pings(table.channel) == [], "the ping was deleted with the game"


async def test_a_game_won_leaves_no_turn_ping(table: Table, dice: Dice) -> None:
    dice.script(ROLL_OFF, FARKLE)
    await open_game(table.channel, table.ana, table.ben)
    await act(table.ana, table.channel, "roll")
    await table.env.advance_time(2)
    result = await table.ben.slash(table.channel, "farkle leave")  # ana is left alone: she wins
    assert result.response is not None
    await table.env.advance_time(2)
    assert pings(table.channel) == []


# ---------------------------------------------------------------------- waiting for the answers


def changed(channel_id: int, turn_for: int) -> GameChanged:
    """A committed change in `channel_id` whose ping goes to `turn_for`."""
    lobby = Session("g", 1, channel_id, turn_for, Ruleset.preset("box"))
    return GameChanged(Outcome(snapshot=lobby.snapshot(), turn_for=turn_for), Cause.TIMER)


class Sent(list[tuple[int, int]]):
    """The (channel, member) of each ping sent, which a test can wait for."""

    def __init__(self) -> None:
        super().__init__()
        self.grew = asyncio.Event()

    def append(self, ping: tuple[int, int]) -> None:
        super().append(ping)
        self.grew.set()

    async def reach(self, count: int, at_most: float = 5.0) -> None:
        """Wait until `count` pings were sent: a bound on the wait, not a measure of its time."""
        while len(self) < count:
            self.grew.clear()
            await asyncio.wait_for(self.grew.wait(), at_most)


def pinging(
    bot: FarkleBot, monkeypatch: pytest.MonkeyPatch, held: asyncio.Event | None = None
) -> tuple[Pings, Sent]:
    """The pings subscriber, recording (channel, member) for each ping it would send; a ping on its way
    waits for `held` to be set, when given."""
    sent = Sent()

    async def announce(self: Pings, outcome: Outcome) -> None:
        assert outcome.snapshot is not None and outcome.turn_for is not None
        if held is not None:
            await held.wait()
        sent.append((outcome.snapshot.channel_id, outcome.turn_for))

    monkeypatch.setattr(Pings, "announce", announce)
    return Pings(bot, cast(Ledger, None), Delivery(bot.clock)), sent


async def yielded(turns: int = 50) -> None:
    """Let every ready task run a step `turns` times (no clock involved)."""
    for _ in range(turns):
        await asyncio.sleep(0)


async def answers_in_flight(bot: FarkleBot, count: int = 1) -> tuple[asyncio.Event, list[asyncio.Task[None]]]:
    """`count` interactions being answered until the event is set."""
    release = asyncio.Event()

    async def answer() -> None:
        bot.in_flight.answering()
        await release.wait()

    answers = [asyncio.create_task(answer()) for _ in range(count)]
    await asyncio.sleep(0)
    return release, answers


async def test_a_ping_waits_for_every_answer_in_flight_and_keeps_its_channels_order(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = FarkleBot(settings)
    subscriber, sent = pinging(bot, monkeypatch)
    release, answers = await answers_in_flight(bot, 3)
    for event in (changed(1, 10), changed(2, 20), changed(1, 11)):
        await subscriber.on_game_event(event)
    await yielded()
    assert sent == [], "nothing goes out while answers are being sent"

    release.set()
    await asyncio.gather(*answers)
    await sent.reach(3)
    assert sorted(sent) == [(1, 10), (1, 11), (2, 20)]
    assert sent.index((1, 10)) < sent.index((1, 11)), "a channel's pings keep their order"
    await bot.close()


async def test_a_ping_goes_out_anyway_when_answers_never_stop(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pings_module, "PING_WAIT", 0.0)  # the wait is over at once
    bot = FarkleBot(settings)
    subscriber, sent = pinging(bot, monkeypatch)
    stuck, busy = await answers_in_flight(bot)
    await subscriber.on_game_event(changed(1, 10))
    await sent.reach(1)  # PING_WAIT passed with the answer still in flight
    assert sent == [(1, 10)]
    stuck.set()
    await asyncio.gather(*busy)
    await bot.close()


async def test_a_shutdown_lets_the_pings_on_their_way_finish(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = FarkleBot(settings)
    ping_held = asyncio.Event()
    subscriber, sent = pinging(bot, monkeypatch, ping_held)
    release, busy = await answers_in_flight(bot)
    await subscriber.on_game_event(changed(1, 10))
    closing = asyncio.create_task(bot.close())
    release.set()
    await yielded()
    assert not closing.done(), "the shutdown waits for the answer in flight, then for its ping"
    ping_held.set()
    await closing
    assert sent == [(1, 10)]
    await asyncio.gather(*busy)
