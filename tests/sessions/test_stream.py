"""The game-events stream as a feature sees it: one subscriber, every kind of change, each end once."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import pytest

from bot.core.environment import GameSettings
from bot.engine import Ruleset
from bot.sessions.manager import SessionManager
from bot.sessions.requests import Host
from bot.sessions.stream_events import Cause, GameChanged, GameEnded, GameEvent
from tests.fakes import settle
from tests.sessions.test_manager import ANA, BEN, CHANNEL, GUILD, Harness, ok
from tests.solved import solved_cache


@dataclass
class Feature:
    """What a new feature (achievements, daily scores, review) would do: subscribe and keep what it sees."""

    changes: list[GameChanged] = field(default_factory=list)
    ended: list[GameEnded] = field(default_factory=list)

    async def __call__(self, event: GameEvent) -> None:
        match event:
            case GameChanged():
                self.changes.append(event)
            case GameEnded():
                self.ended.append(event)

    @property
    def causes(self) -> set[Cause]:
        return {change.cause for change in self.changes}


@pytest.fixture
async def h():
    harness = Harness()
    yield harness
    await harness.manager.close()


def _fresh(h: Harness) -> SessionManager:
    """A new process on the same database."""
    return SessionManager(
        store=h.store,
        clock=h.clock,
        settings=GameSettings(_env_file=None, computer_pause=0),
        policies=solved_cache(),
    )


async def _game_against_a_computer_that_ana_leaves(h: Harness) -> str:
    """A command opens it, presses add the computer and start it, a timer passes ana's turn, the
    computer plays, and ana's `/farkle leave` ends it."""
    ok(await h.manager.open_lobby(Host(GUILD, CHANNEL, ANA, "ana"), Ruleset.preset("classic")))
    ok(await h.press(ANA, "cpu", "easy"))
    h.scripts.append([(6, 2)])  # ana starts
    ok(await h.press(ANA, "start"))
    await h.clock.advance(120)  # ana idles: reminded, then timed out; the computer plays at once
    for _ in range(50):
        if h.snapshot.current == ANA:
            break
        await settle()
    assert h.snapshot.current == ANA, "the computer played its turn"
    game_id = h.snapshot.game_id
    ended = ok(await h.manager.leave(CHANNEL, ANA))
    assert ended.snapshot is not None and ended.snapshot.stage == "over"
    await settle()
    return game_id


async def test_one_subscriber_sees_every_kind_of_change_and_the_end_once(h: Harness) -> None:
    feature = Feature()
    h.manager.subscribe(feature)

    game_id = await _game_against_a_computer_that_ana_leaves(h)

    assert feature.causes == {Cause.COMMAND, Cause.PRESS, Cause.TIMER, Cause.COMPUTER}
    versions = [change.outcome.snapshot.version for change in feature.changes if change.outcome.snapshot]
    assert versions == sorted(versions), "changes arrive in the order they were committed"
    assert [event.record.game_id for event in feature.ended] == [game_id]
    assert feature.ended[0].record == h.store.archived[game_id], "the record as the archive stored it"
    assert h.store.announced == {game_id}


async def test_a_game_that_ended_just_before_a_crash_is_announced_once_after_the_restart(
    h: Harness,
) -> None:
    feature = Feature()
    h.manager.subscribe(feature)
    worker_of = h.manager.events

    ok(await h.manager.open_lobby(Host(GUILD, CHANNEL, ANA, "ana"), Ruleset.preset("classic")))
    ok(await h.manager.join(CHANNEL, BEN, "ben"))
    h.scripts.append([(6, 2)])
    ok(await h.manager.start(CHANNEL, ANA))
    await settle()
    # The process dies right after the game-ending commit, before the stream delivers anything more.
    ended = await h.manager.leave(CHANNEL, BEN)
    assert worker_of._worker is not None
    worker_of._worker.cancel()
    await asyncio.gather(worker_of._worker, return_exceptions=True)
    game_id = ended.snapshot.game_id if ended.snapshot else ""
    assert game_id in h.store.archived and feature.ended == []

    after_crash = _fresh(h)
    after_crash.subscribe(feature)
    await after_crash.restore()
    await settle()
    assert [event.record.game_id for event in feature.ended] == [game_id]
    assert feature.ended[0].record == h.store.archived[game_id]

    again = _fresh(h)  # a later, clean restart announces nothing twice
    again.subscribe(feature)
    await again.restore()
    await settle()
    assert len(feature.ended) == 1
    await after_crash.close()
    await again.close()


async def test_a_replayed_end_within_one_process_is_delivered_once(h: Harness) -> None:
    feature = Feature()
    h.manager.subscribe(feature)
    game_id = await _game_against_a_computer_that_ana_leaves(h)

    h.manager.events.publish(GameEnded(h.store.archived[game_id]))  # e.g. a restore racing the end
    await settle()
    assert len(feature.ended) == 1


async def test_a_failing_subscriber_does_not_starve_the_others(h: Harness) -> None:
    async def broken(event: GameEvent) -> None:
        raise RuntimeError("a feature's bug")

    feature = Feature()
    h.manager.subscribe(broken)
    h.manager.subscribe(feature)
    await _game_against_a_computer_that_ana_leaves(h)
    assert len(feature.ended) == 1 and Cause.COMPUTER in feature.causes
