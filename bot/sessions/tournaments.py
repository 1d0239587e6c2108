"""The only door to a tournament: sign-up, start, check-ins, results, deadlines and the host's controls.

Every change runs under the tournament's lock and is committed before anyone hears of it. Each match is
a two-player game opened through the session manager's public commands (lobby, join, start) in the
match's own place (a thread the delivery side made), once both players pressed Ready; its result comes
from the game-events stream's `GameEnded`, folded into the bracket in the transaction that stores the
game's id, so a replayed end counts once. A player who hasn't pressed Ready by the match's deadline
forfeits. What the Discord side must show (the card, a match to open, a game's board, the podium) goes
out as `Notice`s, in order, from one task.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass

from bot.clock import Clock
from bot.engine import Ruleset
from bot.engine.messages import Message
from bot.engine.tournament import FEWEST_ENTRANTS, MOST_ENTRANTS, STAND_IN, Bracket, Format, Match
from bot.records import EntrantRow, GameRecord
from bot.sessions.events import GameEnded, GameEvent
from bot.sessions.manager import SessionManager
from bot.sessions.scheduler import DeadlineScheduler
from bot.sessions.session import Snapshot, TableSettings
from bot.sessions.tournament_state import (
    STAND_IN_NAME,
    LiveMatch,
    Tournament,
    TournamentView,
    new_tournament_id,
)
from bot.sessions.tournament_store import TournamentStore

log = logging.getLogger(__name__)

MOST_NAME = 100
DEFAULT_MATCH_DEADLINE = 600
FEWEST_MATCH_DEADLINE = 60
STAND_IN_LEVEL = "normal"
CHAMPION = "champion"

NO_TOURNAMENT = Message("That tournament is over or no longer exists.")
NOT_SIGNING_UP = Message("Sign-up for this tournament is closed.")
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


Listener = Callable[[Notice], Awaitable[None]]
Awarder = Callable[[int, str, str], Awaitable[None]]  # (user id, achievement, source)


class Tournaments:
    def __init__(
        self,
        store: TournamentStore,
        clock: Clock,
        games: SessionManager,
        table_for: Callable[[int], Awaitable[TableSettings]] | None = None,
    ) -> None:
        self._store = store
        self._clock = clock
        self._games = games
        self._table_for = table_for
        self._running: dict[str, Tournament] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._listeners: list[Listener] = []
        self._awarders: list[Awarder] = []
        self._uncounted: dict[str, GameRecord] = {}  # finished games whose count has not been written
        self._counting = asyncio.Lock()
        self._failing: set[str] = set()  # uncounted games whose failure was logged
        self._outbox: asyncio.Queue[Notice] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None
        self._ringing: set[asyncio.Task[object]] = set()
        self._alarms = DeadlineScheduler[tuple[str, str], float](clock, self._ring, "farkle-tournaments")
        games.subscribe(self.on_game_event)

    # ------------------------------------------------------------------ wiring

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def on_champion(self, awarder: Awarder) -> None:
        self._awarders.append(awarder)

    def view(self, tournament_id: str) -> TournamentView | None:
        tournament = self._running.get(tournament_id)
        return tournament.view() if tournament else None

    def signing_up_in(self, channel_id: int) -> TournamentView | None:
        return next(
            (t.view() for t in self._running.values() if t.channel_id == channel_id and t.stage == "signup"),
            None,
        )

    def running_in(self, guild_id: int) -> list[TournamentView]:
        return [t.view() for t in self._running.values() if t.guild_id == guild_id]

    async def of_guild(self, guild_id: int) -> list[TournamentView]:
        """A server's tournaments, newest first: running ones as they are now, the rest as stored."""
        views = []
        for row in await self._store.of_guild(guild_id):
            running = self._running.get(row.tournament_id)
            if running is not None:
                views.append(running.view())
            else:
                views.append(Tournament.from_row(row, await self._store.entrants(row.tournament_id)).view())
        return views

    async def forget(self, user_id: int, name: str) -> None:
        """Forget-me: the member's name in running tournaments (storage rewrote the stored ones)."""
        for tournament in self._running.values():
            tournament.forget(user_id, name)

    async def restore(self, owns: Callable[[int], bool] = lambda guild_id: True) -> int:
        """Bring back every tournament signing up or running, re-arm its deadlines, and open the places
        of matches a crash left without one; crown the champions a crash left unawarded."""
        for row in await self._store.running():
            if not owns(row.guild_id):
                continue
            tournament = Tournament.from_row(row, await self._store.entrants(row.tournament_id))
            self._running[tournament.tournament_id] = tournament
            self._arm(tournament)
            for key, live in tournament.live.items():
                if live.place is None:
                    self._notify(Notice("match", tournament.view(), key))
        for row in await self._store.uncrowned():
            if owns(row.guild_id):
                await self._crown(Tournament.from_row(row, []))
        return len(self._running)

    async def reconcile(self) -> None:
        """After the games are restored: count the running matches' games that ended while their
        result was never counted (its write failed, or the process died first), by game id, once."""
        playing = [live.game_id for t in self._running.values() for live in t.live.values() if live.game_id]
        for record in await self._store.ended_games(playing):
            self._uncounted.setdefault(record.game_id, record)
        await self._count_uncounted()

    async def settled(self) -> None:
        """Every deadline that rang handled and every notice delivered (tests and a clean stop)."""
        while self._ringing:
            await asyncio.gather(*self._ringing, return_exceptions=True)
        await self._outbox.join()

    async def close(self) -> None:
        await self._alarms.close()
        if self._worker is not None:
            self._worker.cancel()
            await asyncio.gather(self._worker, return_exceptions=True)

    @asynccontextmanager
    async def _locked(self, tournament_id: str) -> AsyncIterator[Tournament | None]:
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            yield self._running.get(tournament_id)

    # ------------------------------------------------------------------ sign-up

    async def create(
        self,
        ids: tuple[int, int, int],
        name: str,
        format: Format,
        rules: Ruleset,
        *,
        best_of: int = 1,
        rounds: int | None = None,
        match_deadline: int = DEFAULT_MATCH_DEADLINE,
        signup_until: float | None = None,
    ) -> Answer:
        """A new tournament signing up in channel `ids` = (guild, channel, host)."""
        guild_id, channel_id, host_id = ids
        name = " ".join(name.split())
        if not name or len(name) > MOST_NAME:
            return Answer.refuse(
                Message("A tournament's name is 1 to {most} characters long.", most=MOST_NAME)
            )
        if match_deadline < FEWEST_MATCH_DEADLINE:
            return Answer.refuse(Message("A match deadline is at least 1 minute."))
        if signup_until is not None and signup_until <= self._clock.now():
            return Answer.refuse(Message("The sign-up deadline is in the past: choose a time to come."))
        if rounds is not None and not 1 <= rounds <= 10:
            return Answer.refuse(Message("A Swiss tournament plays 1 to 10 rounds."))
        if self.signing_up_in(channel_id) is not None:
            return Answer.refuse(ALREADY_SIGNING_UP)
        tournament = Tournament(
            tournament_id=new_tournament_id(),
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            name=name,
            format=format,
            rounds=rounds or 0,
            best_of=best_of,
            rules=rules,
            match_deadline=match_deadline,
            signup_until=signup_until,
            created_at=self._clock.now(),
        )
        if not await self._store.create(tournament.row()):
            return Answer.refuse(ALREADY_SIGNING_UP)
        self._running[tournament.tournament_id] = tournament
        self._arm(tournament)
        return Answer(tournament.view())

    async def join(self, tournament_id: str, user_id: int, name: str) -> Answer:
        async with self._locked(tournament_id) as tournament:
            if tournament is None:
                return Answer.refuse(NO_TOURNAMENT)
            if tournament.stage != "signup":
                return Answer.refuse(NOT_SIGNING_UP)
            if user_id in tournament.entrants:
                return Answer.refuse(Message("You're already signed up for this tournament."))
            if len(tournament.entrants) >= MOST_ENTRANTS:
                return Answer.refuse(
                    Message("This tournament is full ({count} players).", count=MOST_ENTRANTS)
                )
            entrant = EntrantRow(tournament_id, user_id, name, self._clock.now())
            if not await self._store.join(entrant):
                return Answer.refuse(Message("You're already signed up for this tournament."))
            tournament.entrants[user_id] = name
            self._notify(Notice("card", tournament.view()))
            return Answer(tournament.view())

    async def leave(self, tournament_id: str, user_id: int) -> Answer:
        async with self._locked(tournament_id) as tournament:
            if tournament is None:
                return Answer.refuse(NO_TOURNAMENT)
            if user_id not in tournament.entrants:
                return Answer.refuse(Message("You're not signed up for this tournament."))
            if tournament.stage != "signup":
                return Answer.refuse(
                    Message(
                        "The tournament has started: you can't leave it now. Ask the host to withdraw you."
                    )
                )
            await self._store.leave(tournament_id, user_id)
            del tournament.entrants[user_id]
            self._notify(Notice("card", tournament.view()))
            return Answer(tournament.view())

    # ------------------------------------------------------------------ start and rounds

    async def start(self, tournament_id: str, user_id: int, *, manager: bool = False) -> Answer:
        async with self._locked(tournament_id) as tournament:
            if tournament is None:
                return Answer.refuse(NO_TOURNAMENT)
            if user_id != tournament.host_id and not manager:
                return Answer.refuse(HOST_ONLY)
            if tournament.stage != "signup":
                return Answer.refuse(Message("This tournament has already started."))
            return await self._start(tournament)

    async def _start(self, tournament: Tournament) -> Answer:
        count = len(tournament.entrants)
        if count < FEWEST_ENTRANTS:
            return Answer.refuse(
                Message(
                    "A tournament needs {fewest} to {most} players; {count} signed up.",
                    fewest=FEWEST_ENTRANTS,
                    most=MOST_ENTRANTS,
                    count=count,
                )
            )
        joined = list(tournament.entrants)
        ratings = await self._store.ratings(tournament.guild_id, joined)
        # Seeding: best rating first; members without one after them, in the order they joined.
        seeds = sorted(
            joined, key=lambda user: (user not in ratings, -ratings.get(user, 0.0), joined.index(user))
        )
        rounds = tournament.rounds or None
        tournament.bracket = Bracket.start(tournament.format, seeds, tournament.best_of, rounds)
        tournament.rounds = tournament.bracket.rounds_total
        tournament.stage = "running"
        if tournament.bracket.stand_in:
            tournament.entrants[STAND_IN] = STAND_IN_NAME
        self._open_round(tournament)
        await self._commit(tournament)
        self._after_change(tournament, opened=list(tournament.live))
        return Answer(tournament.view())

    def _open_round(self, tournament: Tournament) -> None:
        """Every undecided match of the current round opens now, its Ready deadline counting."""
        assert tournament.bracket is not None
        now = self._clock.now()
        tournament.live = {
            m.key: LiveMatch(
                now, now + tournament.match_deadline, ready=[STAND_IN] if STAND_IN in m.players else []
            )
            for m in tournament.bracket.open_matches()
        }

    def _advance_rounds(self, tournament: Tournament) -> list[str]:
        """After a result: open the next round once this one is over, or end the tournament."""
        bracket = tournament.bracket
        assert bracket is not None
        opened: list[str] = []
        while not bracket.open_matches() and not bracket.finished:
            bracket.next_round()
            self._open_round(tournament)
            opened = list(tournament.live)
        if bracket.finished:
            tournament.stage, tournament.ended_at, tournament.live = "over", self._clock.now(), {}
        return opened

    def _after_change(self, tournament: Tournament, opened: Sequence[str] = ()) -> None:
        view = tournament.view()
        self._notify(Notice("card", view))
        for key in opened:
            self._notify(Notice("match", view, key))
        if tournament.stage == "over":
            self._notify(Notice("podium", view))
            self._running.pop(tournament.tournament_id, None)
        self._arm(tournament)

    # ------------------------------------------------------------------ matches

    async def place_match(self, tournament_id: str, key: str, place: int, *, in_thread: bool) -> None:
        """The delivery side opened the match's place (a thread, or the tournament's channel)."""
        async with self._locked(tournament_id) as tournament:
            live = tournament.live.get(key) if tournament else None
            if tournament is None or live is None:
                return
            live.place, live.in_thread = place, in_thread
            await self._commit(tournament)
            if STAND_IN in live.ready and len(live.ready) == 1:
                return  # the stand-in's opponent still has to press Ready
            if len(live.ready) == 2:
                await self._open_game(tournament, key)

    async def ready(self, tournament_id: str, key: str, user_id: int) -> Answer:
        async with self._locked(tournament_id) as tournament:
            if tournament is None or tournament.bracket is None:
                return Answer.refuse(NO_TOURNAMENT)
            match = tournament.bracket.match(key)
            live = tournament.live.get(key)
            if match is None or live is None or match.decided:
                return Answer.refuse(Message("This match is over."))
            if user_id not in match.players:
                return Answer.refuse(Message("Only the two players of this match can press Ready."))
            if user_id in live.ready and (len(live.ready) < 2 or live.game_id is not None):
                return Answer.refuse(Message("You're ready: the game starts when your opponent is too."))
            if user_id not in live.ready:  # else both were ready and the game didn't open: try again
                live.ready.append(user_id)
                await self._commit(tournament)
            if len(live.ready) == len(match.players) == 2 and live.place is not None:
                await self._open_game(tournament, key)
            return Answer(tournament.view())

    async def _open_game(self, tournament: Tournament, key: str) -> None:
        """One game of match `key` in its place, through the session manager's own commands."""
        assert tournament.bracket is not None
        match = tournament.bracket.match(key)
        live = tournament.live[key]
        assert match is not None and match.second is not None and live.place is not None
        table = await self._table_for(tournament.guild_id) if self._table_for else self._games.default_table()
        first, second = match.first, match.second
        if first == STAND_IN:
            first, second = second, first
        ids = (tournament.guild_id, live.place, first)
        opened = await self._games.open_lobby(*ids, tournament.name_of(first), tournament.rules, table)
        if opened.snapshot is None:  # the place is busy with another game: tried again after it ends
            log.info("Match %s of tournament %s waits for its table", key, tournament.tournament_id)
            return
        if second == STAND_IN:
            snapshot = opened.snapshot
            await self._games.press(
                live.place, snapshot.game_id, snapshot.seq, first, "", "cpu", STAND_IN_LEVEL
            )
        else:
            await self._games.join(live.place, second, tournament.name_of(second))
        started = await self._games.start(live.place, first)
        if started.snapshot is None:
            log.warning(
                "Match %s of tournament %s could not start: %s",
                key,
                tournament.tournament_id,
                started.refusal,
            )
            return
        live.game_id = started.snapshot.game_id
        await self._commit(tournament)
        self._notify(Notice("game", tournament.view(), key, started.snapshot))

    async def on_game_event(self, event: GameEvent) -> None:
        """A finished game in a match's place counts for that match, once (by its game id); one whose
        count could not be written is tried again on every event until it is."""
        if isinstance(event, GameEnded):
            self._uncounted[event.record.game_id] = event.record
        if self._uncounted:
            await self._count_uncounted()

    async def _count_uncounted(self) -> None:
        """One pass at a time (a game's count may open the next game, whose events come back here); a
        game whose count fails waits for the next event or start-up, without holding up the others, and
        is logged once."""
        async with self._counting:
            tried: set[str] = set()
            while waiting := [r for game_id, r in self._uncounted.items() if game_id not in tried]:
                record = waiting[0]
                tried.add(record.game_id)
                try:
                    await self._count_ended(record)
                except Exception as error:  # the database is away, most likely
                    if record.game_id not in self._failing:
                        self._failing.add(record.game_id)
                        log.warning("Game %s not counted for its tournament yet: %r", record.game_id, error)
                    continue
                self._uncounted.pop(record.game_id, None)
                self._failing.discard(record.game_id)

    async def _count_ended(self, record: GameRecord) -> None:
        for tournament_id in [
            t.tournament_id for t in self._running.values() if t.guild_id == record.guild_id
        ]:
            async with self._locked(tournament_id) as tournament:
                if tournament is not None and tournament.bracket is not None:
                    found = _match_of_game(tournament, record)
                    if found is not None:
                        await self._count(tournament, found, record)
                        return

    async def _count(self, tournament: Tournament, match: Match, record: GameRecord) -> None:
        assert tournament.bracket is not None
        winner = _winner(record)
        if winner is None:  # nobody won (the game was abandoned): the host advances the match
            return
        before = tournament.view()
        decided = tournament.bracket.record_game(match.key, winner)
        opened: list[str] = []
        place = record.channel_id
        if decided:
            tournament.live.pop(match.key, None)
            opened = self._advance_rounds(tournament)
        else:
            tournament.live[match.key].game_id = None
        counted = {
            "game_id": record.game_id,
            "match_key": match.key,
            "winner_id": winner,
            "counted_at": self._clock.now(),
        }
        try:
            written = await self._store.count_game(tournament.row(), counted)
        except Exception:  # nothing was written: the tournament is as it was before this game
            self._running[tournament.tournament_id] = before
            raise
        if not written:  # counted before (a replayed end), or moved on: the stored state is the truth
            self._running[tournament.tournament_id] = before  # were the reload to fail too
            await self._reload(tournament.tournament_id)
            return
        tournament.revision += 1
        if decided:
            self._notify(Notice("decided", tournament.view(), match.key, place=place))
            await self._crown(tournament)
            self._after_change(tournament, opened)
        else:
            self._notify(Notice("card", tournament.view()))
            await self._open_game(tournament, match.key)  # the next game of a best of three
        await self._start_waiting(tournament)

    async def _start_waiting(self, tournament: Tournament) -> None:
        """Matches whose players are ready but whose place was busy (one game per channel) start now."""
        if tournament.bracket is None:
            return
        for key, live in list(tournament.live.items()):
            match = tournament.bracket.match(key)
            if (
                match is not None
                and not match.decided
                and live.game_id is None
                and len(live.ready) == 2
                and live.place
            ):
                await self._open_game(tournament, key)

    async def _reload(self, tournament_id: str) -> Tournament | None:
        row = await self._store.load(tournament_id)
        if row is None or row.stage not in ("signup", "running"):
            self._running.pop(tournament_id, None)
            return None
        tournament = Tournament.from_row(row, await self._store.entrants(tournament_id))
        self._running[tournament_id] = tournament
        return tournament

    async def _crown(self, tournament: Tournament) -> None:
        """The champion's achievement, marked handed out once every awarder took it; a start-up crowns
        the tournaments left unmarked (awarding is idempotent per member)."""
        if tournament.stage != "over" or tournament.bracket is None:
            return
        champion = tournament.bracket.champion()
        try:
            if champion is not None and champion != STAND_IN:
                for award in self._awarders:
                    await award(champion, CHAMPION, f"tournament:{tournament.tournament_id}")
            await self._store.mark_crowned(tournament.tournament_id, self._clock.now())
        except Exception as error:  # the podium still goes out; the next start-up awards it
            log.warning(
                "The champion of tournament %s is not awarded yet: %r", tournament.tournament_id, error
            )

    # ------------------------------------------------------------------ host controls

    async def cancel(self, tournament_id: str, user_id: int, *, manager: bool = False) -> Answer:
        async with self._locked(tournament_id) as tournament:
            if tournament is None:
                return Answer.refuse(NO_TOURNAMENT)
            if user_id != tournament.host_id and not manager:
                return Answer.refuse(HOST_ONLY)
            tournament.stage, tournament.ended_at, tournament.live = "cancelled", self._clock.now(), {}
            await self._commit(tournament)
            self._running.pop(tournament_id, None)
            self._alarms.cancel((tournament_id, ""))
            self._notify(Notice("card", tournament.view()))
            return Answer(tournament.view())

    async def advance(
        self, tournament_id: str, key: str, winner: int, user_id: int, *, manager: bool = False
    ) -> Answer:
        """The host decides a stuck match for `winner`."""
        return await self._decide(tournament_id, user_id, manager, key, winner, "advanced")

    async def disqualify(
        self, tournament_id: str, player: int, user_id: int, *, manager: bool = False
    ) -> Answer:
        return await self._decide(tournament_id, user_id, manager, None, player, "disqualified")

    async def _decide(
        self, tournament_id: str, user_id: int, manager: bool, key: str | None, player: int, how: str
    ) -> Answer:
        async with self._locked(tournament_id) as tournament:
            if tournament is None or tournament.bracket is None:
                return Answer.refuse(
                    NO_TOURNAMENT if tournament is None else Message("This tournament has not started yet.")
                )
            if user_id != tournament.host_id and not manager:
                return Answer.refuse(HOST_ONLY)
            bracket = tournament.bracket
            if how == "disqualified":
                if player not in bracket.seeds or player in bracket.removed or player == STAND_IN:
                    return Answer.refuse(Message("That member is not playing in this tournament."))
                decided = bracket.disqualify(player)
            else:
                assert key is not None
                match = bracket.match(key)
                if match is None or match.decided:
                    return Answer.refuse(Message("There is no open match {key} in this tournament.", key=key))
                if player not in match.players:
                    return Answer.refuse(Message("The winner must be one of the match's two players."))
                bracket.decide(key, player, "advanced")
                decided = match
            live = tournament.live.pop(decided.key, None) if decided is not None else None
            opened = self._advance_rounds(tournament)
            await self._commit(tournament)
            if decided is not None:
                self._notify(
                    Notice("decided", tournament.view(), decided.key, place=live.place if live else None)
                )
            await self._crown(tournament)
            self._after_change(tournament, opened)
            return Answer(tournament.view())

    # ------------------------------------------------------------------ deadlines

    def _arm(self, tournament: Tournament) -> None:
        tid = tournament.tournament_id
        if tournament.stage == "signup" and tournament.signup_until is not None:
            self._alarms.set((tid, ""), tournament.signup_until, tournament.signup_until)
        else:
            self._alarms.cancel((tid, ""))
        for key, live in tournament.live.items():
            if live.game_id is None and tournament.stage == "running":
                self._alarms.set((tid, key), live.deadline, live.deadline)

    async def _ring(self, where: tuple[str, str], deadline: float) -> None:
        ringing = asyncio.current_task()
        if ringing is not None:
            self._ringing.add(ringing)
            ringing.add_done_callback(self._ringing.discard)
        tournament_id, key = where
        async with self._locked(tournament_id) as tournament:
            if tournament is None:
                return
            if not key:
                if tournament.stage == "signup":
                    await self._close_signup(tournament)
                return
            await self._forfeit(tournament, key, deadline)

    async def _close_signup(self, tournament: Tournament) -> None:
        """The sign-up window closed: start, or cancel when too few signed up."""
        started = await self._start(tournament)
        if started.refusal is not None:
            tournament.stage, tournament.ended_at = "cancelled", self._clock.now()
            await self._commit(tournament)
            self._running.pop(tournament.tournament_id, None)
            self._notify(Notice("card", tournament.view()))

    async def _forfeit(self, tournament: Tournament, key: str, deadline: float) -> None:
        """Whoever hasn't pressed Ready by the deadline forfeits; if neither did, single elimination
        advances the better seed and Swiss counts the match lost for both."""
        live = tournament.live.get(key)
        bracket = tournament.bracket
        match = bracket.match(key) if bracket else None
        if live is None or bracket is None or match is None or match.decided or live.game_id is not None:
            return
        if live.deadline != deadline:
            return
        present = [p for p in match.players if p in live.ready]
        if len(present) == 1:
            winner: int | None = present[0]
        elif len(present) == 0 and bracket.format == "single":
            winner = min(match.players, key=bracket.seed_of)
        elif len(present) == 0:
            winner = None
        else:
            return
        bracket.decide(key, winner, "forfeit")
        tournament.live.pop(key, None)
        opened = self._advance_rounds(tournament)
        await self._commit(tournament)
        self._notify(Notice("decided", tournament.view(), key, place=live.place))
        await self._crown(tournament)
        self._after_change(tournament, opened)

    # ------------------------------------------------------------------ plumbing

    async def _commit(self, tournament: Tournament) -> None:
        """Write the tournament at its revision; on a conflict (another writer moved it on) the stored
        one is loaded back and the change is refused."""
        try:
            saved = await self._store.save(tournament.row())
        except Exception:  # nothing was written: the change made in memory is undone
            with contextlib.suppress(Exception):
                await self._reload(tournament.tournament_id)
            raise
        if not saved:
            await self._reload(tournament.tournament_id)
            raise TournamentMoved(tournament.tournament_id)
        tournament.revision += 1

    def _notify(self, notice: Notice) -> None:
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


class TournamentMoved(Exception):
    """Another process changed the tournament first: nothing was written (its state was reloaded)."""


ALREADY_SIGNING_UP = Message(
    "A tournament is already signing up in this channel: start or cancel it first "
    "(`/farkle tournament show`)."
)


def _match_of_game(tournament: Tournament, record: GameRecord) -> Match | None:
    """The open match played in the game's place by the game's players."""
    assert tournament.bracket is not None
    humans = {p.user_id for p in record.humans}
    for key, live in tournament.live.items():
        match = tournament.bracket.match(key)
        if match is None or live.place != record.channel_id:
            continue
        if humans == {p for p in match.players if p != STAND_IN}:
            return match
    return None


def _winner(record: GameRecord) -> int | None:
    """Who won the game, as a bracket id (a computer is the stand-in); None if nobody did."""
    winners = [p for p in record.players if p.won]
    if len(winners) != 1:
        return None
    return STAND_IN if winners[0].computer is not None else winners[0].user_id
