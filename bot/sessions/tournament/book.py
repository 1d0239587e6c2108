"""What every job of the tournament door shares: the tournaments in play, one lock each, how a change is
written (a compare-and-set on the revision) and told (`Notice`s, in order, from one task), the deadlines'
timer, the rounds a result opens and the champion's crowning.

The jobs (`tournament_signup.py`, `tournament_matches.py`, `tournament_results.py`) each hold this one
book; `Tournaments` (`tournaments.py`) builds it and them, and is the door callers use.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from bot.core.clock import Clock
from bot.engine.messages import Message
from bot.engine.tournament import STAND_IN
from bot.sessions.scheduler import DeadlineScheduler
from bot.sessions.session import Snapshot
from bot.sessions.tournament.state import LiveMatch, Tournament, TournamentView
from bot.sessions.tournament.store import TournamentStore

log = logging.getLogger(__name__)

CHAMPION = "champion"

NO_TOURNAMENT = Message("That tournament is over or no longer exists.")
HOST_ONLY = Message("Only the tournament's host or a server manager can do that.")


@dataclass(frozen=True)
class Notice:
    """What the delivery side must show: `kind` is "card" (redraw it), "match" (open the match's place
    and ask both players to press Ready), "game" (post `snapshot`'s board in the match's place),
    "decided" (say how a match was decided there) or "podium" (the final post)."""

    kind: str
    view: TournamentView
    key: str | None = None
    snapshot: Snapshot | None = None
    place: int | None = None  # where a decided match was played


@dataclass(frozen=True)
class Answer:
    """A command's result: the tournament as it is now, or why nothing changed."""

    view: TournamentView | None = None
    refusal: Message | None = None

    @classmethod
    def refuse(cls, reason: Message) -> Answer:
        return cls(refusal=reason)


class TournamentMoved(Exception):
    """Another process changed the tournament first: nothing was written (its state was reloaded)."""


Listener = Callable[[Notice], Awaitable[None]]
Award = Callable[[int, str, str], Awaitable[None]]  # (user id, achievement, source)
Deadline = tuple[str, str]  # (tournament id, match key; "" for the sign-up's close)
Ring = Callable[[Deadline, float], Coroutine[Any, Any, None]]


class TournamentBook:
    """One per door: its jobs change a tournament only through `locked`, `commit` and `notify`."""

    def __init__(self, store: TournamentStore, clock: Clock, award: Award, ring: Ring) -> None:
        self.store = store
        self.clock = clock
        self.running: dict[str, Tournament] = {}
        self._award = award
        self._ring = ring
        # A lock lives while a change holds or awaits it (as the session manager's): tournaments that
        # ended keep none.
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._listeners: list[Listener] = []
        self._outbox: asyncio.Queue[Notice] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None
        self._ringing: set[asyncio.Task[object]] = set()
        self.alarms = DeadlineScheduler[Deadline, float](clock, self._ring_tracked, "farkle-tournaments")

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def signing_up_in(self, channel_id: int) -> TournamentView | None:
        return next(
            (t.view() for t in self.running.values() if t.channel_id == channel_id and t.stage == "signup"),
            None,
        )

    @asynccontextmanager
    async def locked(self, tournament_id: str) -> AsyncIterator[Tournament | None]:
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            yield self.running.get(tournament_id)

    async def settled(self) -> None:
        """Every deadline that rang handled and every notice delivered (tests and a clean stop)."""
        while self._ringing:
            await asyncio.gather(*self._ringing, return_exceptions=True)
        await self._outbox.join()

    async def close(self) -> None:
        await self.alarms.close()
        if self._worker is not None:
            self._worker.cancel()
            await asyncio.gather(self._worker, return_exceptions=True)

    # ------------------------------------------------------------------ writing and telling

    async def commit(self, tournament: Tournament) -> None:
        """Write the tournament at its revision; on a conflict (another writer moved it on) the stored
        one is loaded back and the change is refused."""
        try:
            saved = await self.store.save(tournament.row())
        except Exception:  # nothing was written: the change made in memory is undone
            with contextlib.suppress(Exception):
                await self.reload(tournament.tournament_id)
            raise
        if not saved:
            await self.reload(tournament.tournament_id)
            raise TournamentMoved(tournament.tournament_id)
        tournament.revision += 1

    async def reload(self, tournament_id: str) -> Tournament | None:
        row = await self.store.load(tournament_id)
        if row is None or row.stage not in ("signup", "running"):
            self.running.pop(tournament_id, None)
            return None
        tournament = Tournament.from_row(row, await self.store.entrants(tournament_id))
        self.running[tournament_id] = tournament
        return tournament

    def notify(self, notice: Notice) -> None:
        self._outbox.put_nowait(notice)
        if self._worker is None or self._worker.done():
            self._worker = asyncio.create_task(self._deliver(), name="farkle-tournament-notices")

    async def _deliver(self) -> None:
        while not self._outbox.empty():
            notice = self._outbox.get_nowait()
            for listener in self._listeners:
                try:
                    await listener(notice)
                except Exception:  # the tournament is committed: showing it is retried by the next change
                    log.exception("A tournament listener failed on %s", notice.kind)
            self._outbox.task_done()

    # ------------------------------------------------------------------ rounds and their end

    def open_round(self, tournament: Tournament) -> None:
        """Every undecided match of the current round opens now, its Ready deadline counting."""
        assert tournament.bracket is not None
        now = self.clock.now()
        tournament.live = {
            m.key: LiveMatch(
                now, now + tournament.match_deadline, ready=[STAND_IN] if STAND_IN in m.players else []
            )
            for m in tournament.bracket.open_matches()
        }

    def advance_rounds(self, tournament: Tournament) -> list[str]:
        """After a result: open the next round once this one is over, or end the tournament."""
        bracket = tournament.bracket
        assert bracket is not None
        opened: list[str] = []
        while not bracket.open_matches() and not bracket.finished:
            bracket.next_round()
            self.open_round(tournament)
            opened = list(tournament.live)
        if bracket.finished:
            tournament.stage, tournament.ended_at, tournament.live = "over", self.clock.now(), {}
        return opened

    async def close_match(self, tournament: Tournament, key: str | None) -> None:
        """Match `key`, just decided in the bracket (None: no match was), leaves play; the rounds move
        on and are written before anyone hears of it."""
        live = tournament.live.pop(key, None) if key is not None else None
        opened = self.advance_rounds(tournament)
        await self.commit(tournament)
        await self.announce(tournament, key, live.place if live else None, opened)

    async def announce(
        self, tournament: Tournament, key: str | None, place: int | None, opened: Sequence[str]
    ) -> None:
        """After a decided match was written: say so where it was played, crown a champion, show the rest."""
        if key is not None:
            self.notify(Notice("decided", tournament.view(), key, place=place))
        await self.crown(tournament)
        self.after_change(tournament, opened)

    def after_change(self, tournament: Tournament, opened: Sequence[str] = ()) -> None:
        view = tournament.view()
        self.notify(Notice("card", view))
        for key in opened:
            self.notify(Notice("match", view, key))
        if tournament.stage == "over":
            self.notify(Notice("podium", view))
            self.running.pop(tournament.tournament_id, None)
        self.arm(tournament)

    async def crown(self, tournament: Tournament) -> None:
        """The champion's achievement, awaited, and only then the tournament marked crowned; a start-up
        crowns the tournaments left unmarked (awarding is idempotent per member)."""
        if tournament.stage != "over" or tournament.bracket is None:
            return
        champion = tournament.bracket.champion()
        try:
            if champion is not None and champion != STAND_IN:
                await self._award(champion, CHAMPION, f"tournament:{tournament.tournament_id}")
            await self.store.mark_crowned(tournament.tournament_id, self.clock.now())
        except Exception as error:  # the podium still goes out; the next start-up awards it
            log.warning(
                "The champion of tournament %s is not awarded yet: %r", tournament.tournament_id, error
            )

    # ------------------------------------------------------------------ deadlines

    def arm(self, tournament: Tournament) -> None:
        tid = tournament.tournament_id
        if tournament.stage == "signup" and tournament.signup_until is not None:
            self.alarms.set((tid, ""), tournament.signup_until, tournament.signup_until)
        else:
            self.alarms.cancel((tid, ""))
        for key, live in tournament.live.items():
            if live.game_id is None and tournament.stage == "running":
                self.alarms.set((tid, key), live.deadline, live.deadline)

    async def _ring_tracked(self, where: Deadline, deadline: float) -> None:
        """A deadline rings as its own task: `settled` waits for it."""
        ringing = asyncio.current_task()
        if ringing is not None:
            self._ringing.add(ringing)
            ringing.add_done_callback(self._ringing.discard)
        await self._ring(where, deadline)
