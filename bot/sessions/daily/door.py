"""The only door to daily attempts: one attempt per member per UTC day, every move under the member's lock.

A sibling of `SessionManager`, not a use of it: a session is a channel's game (seats, lobby, timers, a
board message everyone sees), while an attempt is one member's private game that follows them from
channel to channel and has no timer. It publishes on the same game-events stream (`DailyChanged` for
every accepted move, `DailyEnded` once the finished attempt is stored), so features watch daily play
exactly where they watch games. Like a game, a move is committed before it is answered.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Protocol

from bot.core.clock import Clock
from bot.core.records import Award, DailyRow, DailyStanding
from bot.engine.daily import RULES, DailyGame, day_of, expert_score, streaks
from bot.engine.errors import UserFacingError
from bot.engine.messages import Message
from bot.sessions.daily.attempt import DailyAttempt
from bot.sessions.policies import PolicyCache
from bot.sessions.stream_events import DailyChanged, DailyEnded, Publish

log = logging.getLogger(__name__)

MOVED_ON = Message("This daily board is out of date: use the newest one.")
NOT_TODAY = Message("That was an earlier day's daily: run `/farkle daily` for today's.")
NO_ATTEMPT = Message("You have no daily attempt today: run `/farkle daily`.")


class DailyStore(Protocol):
    """Where attempts, awards and standings live (`bot.storage.daily.SqlDailyStore`)."""

    async def load(self, user_id: int, day: int) -> DailyRow | None: ...
    async def save(self, row: DailyRow, previous: str | None) -> bool: ...
    async def unawarded(self) -> list[DailyRow]: ...
    async def award_daily(self, awards: list[Award], user_id: int, day: int) -> list[Award]: ...
    async def award_game(self, awards: list[Award]) -> list[Award]: ...
    async def award_flawless_reviews(
        self, achievement: str, accuracy: float, decisions: int
    ) -> list[Award]: ...
    async def days_played(self, user_id: int) -> list[int]: ...
    async def achievements(self, user_id: int) -> list[Award]: ...
    async def standings(self, first_day: int, last_day: int, guild_id: int | None) -> list[DailyStanding]: ...


@dataclass(frozen=True)
class DailyMove:
    """What a press or `/farkle daily` gives back: the attempt as it is now, or why not."""

    attempt: DailyAttempt | None
    refusal: Message | None = None
    ended: bool = False  # this move finished the attempt: its public result is due


@dataclass(frozen=True)
class Profile:
    current_streak: int
    best_streak: int
    awards: list[Award]


class DailyManager:
    def __init__(self, store: DailyStore, clock: Clock, publish: Publish, policies: PolicyCache) -> None:
        """`policies`: the bot's solved turns, which the expert's score is played by."""
        self._store = store
        self._policies = policies
        self._clock = clock
        self._publish = publish
        self._locks: dict[int, asyncio.Lock] = {}
        self._expert: dict[int, asyncio.Task[int]] = {}

    @property
    def store(self) -> DailyStore:
        return self._store

    def today(self) -> int:
        return day_of(self._clock.now())

    async def restore(self) -> None:
        """Hand out what a crash left unawarded: the attempt's end is published again."""
        for row in await self._store.unawarded():
            self._publish(DailyEnded(_attempt(row)))

    async def expert(self, day: int) -> int:
        """What `expert` scores on the day's dice: computed once per day and process, off the event loop."""
        return await asyncio.shield(self._expert_task(day))

    def _expert_task(self, day: int) -> asyncio.Task[int]:
        task = self._expert.get(day)
        if task is None:
            for old in [d for d in self._expert if d < day - 1]:
                del self._expert[old]
            task = self._expert[day] = asyncio.create_task(self._expert_score(day))
        return task

    async def _expert_score(self, day: int) -> int:
        policies = await self._policies.ensure(RULES)
        return await asyncio.to_thread(expert_score, day, policies.on_board)

    # ------------------------------------------------------------------ playing

    async def open(self, user_id: int, name: str, guild_id: int | None) -> DailyMove:
        """Today's attempt: a new one, the unfinished one to resume, or the finished one to look at."""
        day = self.today()
        async with self._locked(user_id):
            row = await self._store.load(user_id, day)
            if row is None:
                self._expert_task(day)  # ready by the time this attempt ends
                game = DailyGame(day)
                attempt = DailyAttempt.of(game, user_id, name, guild_id, ())
                if await self._store.save(_row(attempt, game, self._clock.now()), None):
                    self._publish(DailyChanged(attempt))
                    return DailyMove(attempt)
                row = await self._store.load(user_id, day)  # another process began it just now
                assert row is not None
            return DailyMove(_attempt(row))

    async def press(
        self, user_id: int, name: str, guild_id: int | None, day: int, seq: str, action: str, arg: int | None
    ) -> DailyMove:
        """A button of a daily board: `pick`/`drop` a die, `roll` or `bank` with the picked dice."""
        if day != self.today():
            return DailyMove(None, NOT_TODAY)
        async with self._locked(user_id):
            row = await self._store.load(user_id, day)
            if row is None:
                return DailyMove(None, NO_ATTEMPT)
            game = DailyGame.from_json(row.state)
            if seq != _attempt(row).seq:
                return DailyMove(_attempt(row), MOVED_ON)
            try:
                _apply(game, action, arg)
            except UserFacingError as refused:
                return DailyMove(_attempt(row), refused.message)
            attempt = DailyAttempt.of(game, user_id, name, guild_id, game.selected)
            if not await self._store.save(_row(attempt, game, row.started_at, self._clock.now()), row.state):
                now = await self._store.load(user_id, day)  # another process wrote it first
                return DailyMove(_attempt(now) if now is not None else None, MOVED_ON)
            self._publish(DailyChanged(attempt))
            if attempt.finished:
                self._publish(DailyEnded(attempt))
            return DailyMove(attempt, ended=attempt.finished)

    # ------------------------------------------------------------------ reading

    async def profile(self, user_id: int) -> Profile:
        current, best = streaks(await self._store.days_played(user_id), self.today())
        return Profile(current, best, await self._store.achievements(user_id))

    async def standings(self, week: bool, guild_id: int | None) -> list[DailyStanding]:
        """Today's scores, or this week's totals (Monday to Sunday, UTC), on one server or everywhere."""
        today = self.today()
        first = today - (today + 3) % 7 if week else today  # day 0 was a Thursday
        return await self._store.standings(first, today, guild_id)

    @asynccontextmanager
    async def _locked(self, user_id: int) -> AsyncIterator[None]:
        lock = self._locks.setdefault(user_id, asyncio.Lock())
        async with lock:
            yield


def _attempt(row: DailyRow) -> DailyAttempt:
    game = DailyGame.from_json(row.state)
    return DailyAttempt.of(game, row.user_id, row.name, row.guild_id, game.selected)


def _apply(game: DailyGame, action: str, arg: int | None) -> None:
    if action in ("pick", "drop") and arg is not None:
        game.pick(arg, action == "pick")
    elif action == "roll":
        game.roll_dice(game.selected)
    elif action == "bank":
        game.bank(game.selected)
    else:
        raise UserFacingError(MOVED_ON)


def _row(attempt: DailyAttempt, game: DailyGame, started: float, now: float | None = None) -> DailyRow:
    return DailyRow(
        user_id=attempt.user_id,
        day=attempt.day,
        guild_id=attempt.guild_id,
        name=attempt.name,
        state=game.to_json(),
        finished=attempt.finished,
        score=attempt.score,
        line=attempt.line,
        started_at=started,
        ended_at=now if attempt.finished else None,
    )
