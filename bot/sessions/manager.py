"""The only door to a game: one session per channel, every change under that channel's lock.

Commands, button presses, timers and computer players all call in here; each accepted change bumps the
session's version, is committed to storage before anyone is answered, and comes back as an `Outcome`
(a frozen snapshot plus the engine's events) for the Discord layer to draw.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from functools import partial
from typing import Literal, Protocol

from bot.clock import Clock
from bot.engine import (
    LEVELS,
    Advice,
    DiceSource,
    Event,
    Game,
    IllegalAction,
    Ruleset,
    SeededDice,
    advise,
    strategy_for,
)
from bot.sessions.policies import PolicyCache
from bot.sessions.session import Seat, Session, Snapshot, TableSettings, new_game_id
from bot.settings import GameSettings

log = logging.getLogger(__name__)

TURN_ACTIONS = frozenset({"pick", "drop", "roll", "bank", "piggy"})
LOBBY_ACTIONS = frozenset({"join", "leave", "start", "cancel", "team", "cpu"})
OUTDATED = "This board is out of date: use the newest board in the channel (`/farkle board` shows it)."


class SessionStore(Protocol):
    """Where sessions live between restarts (SQLite in the bot, memory in unit tests)."""

    async def save(self, session: Session, state: str | None = None) -> None:
        """Persist the session; `state` is its `dump()` when the caller already made one."""
        ...

    async def delete(self, channel_id: int) -> None: ...

    async def load_all(self) -> list[tuple[int, str, int | None]]:
        """Every stored session as (channel id, its `dump()` text, the version its board last showed)."""
        ...

    async def mark_shown(self, channel_id: int, game_id: str, version: int) -> None:
        """The board message of that game now shows `version` (never moves backwards)."""
        ...


@dataclass(frozen=True)
class Outcome:
    """What happened, for the Discord layer to show: a refusal, or a new state and its events."""

    snapshot: Snapshot | None = None
    refusal: str | None = None
    events: tuple[Event, ...] = ()
    turn_for: int | None = None
    reminder_for: int | None = None
    opened: bool = False  # a new lobby: this answer posts its message (a rematch pressed twice opens one)

    @classmethod
    def refuse(cls, reason: str) -> Outcome:
        return cls(refusal=reason)


@dataclass(frozen=True)
class Restored:
    """What a start-up found: boards to bring up to date, and saved games that could not be read."""

    sessions: tuple[Snapshot, ...]
    behind: tuple[int, ...]  # channels whose board or turn ping fell behind, live games first
    unreadable: tuple[int, ...]


Listener = Callable[[Outcome], Awaitable[None]]
RestoreListener = Callable[[Restored], Awaitable[None]]
AlarmKind = Literal["remind", "expire"]


@dataclass(frozen=True)
class Alarm:
    """When a channel's timer rings next, and for which version of which game (stale alarms are ignored)."""

    when: float
    kind: AlarmKind
    game_id: str
    version: int


class SessionManager:
    def __init__(
        self,
        *,
        store: SessionStore,
        clock: Clock,
        settings: GameSettings,
        dice: Callable[[], DiceSource] | None = None,
        policies: PolicyCache | None = None,
    ) -> None:
        self._store = store
        self._clock = clock
        self._settings = settings
        self._dice = dice or (lambda: SeededDice(secrets.randbits(63)))
        self._policies = policies
        self._sessions: dict[int, Session] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._alarms: dict[int, Alarm] = {}
        self._wakes_at: float | None = None
        self._scheduler: asyncio.Task[None] | None = None
        self._ringing: set[asyncio.Task[None]] = set()
        self._computers: dict[int, asyncio.Task[None]] = {}
        self._listeners: list[Listener] = []
        self._restore_listeners: list[RestoreListener] = []

    # ------------------------------------------------------------------ reading

    def subscribe(self, listener: Listener) -> None:
        """Changes nobody pressed for (timers, computer players) are announced to listeners."""
        self._listeners.append(listener)

    def on_restore(self, listener: RestoreListener) -> None:
        """After a start-up, the Discord layer redraws the boards that fell behind their game."""
        self._restore_listeners.append(listener)

    def snapshot(self, channel_id: int) -> Snapshot | None:
        session = self._sessions.get(channel_id)
        return session.snapshot() if session else None

    def snapshots(self) -> list[Snapshot]:
        return [session.snapshot() for session in self._sessions.values()]

    # ------------------------------------------------------------------ lifecycle

    async def restore(self) -> Restored:
        """Load every saved session row by row and re-arm its timer (a deadline already past fires at once).

        A row that can't be read is logged and left aside; every other game comes back.
        """
        unreadable = []
        for channel_id, state, shown_version in await self._store.load_all():
            try:
                session = Session.load(state, shown_version)
            except Exception:
                log.exception("Could not restore the saved game in channel %s; leaving it aside", channel_id)
                unreadable.append(channel_id)
                continue
            self._sessions[session.channel_id] = session
            self._arm(session)
            self._wake_computer(session)
        behind = [s for s in self._sessions.values() if self.catch_up(s.channel_id) is not None]
        behind.sort(key=lambda session: _CATCH_UP_ORDER[session.stage])
        restored = Restored(
            sessions=tuple(self.snapshots()),
            behind=tuple(session.channel_id for session in behind),
            unreadable=tuple(unreadable),
        )
        for listener in self._restore_listeners:
            await listener(restored)
        return restored

    def catch_up(self, channel_id: int) -> Outcome | None:
        """The redraw a board needs after a crash, with the turn ping its player never got; None if none."""
        session = self._sessions.get(channel_id)
        if session is None:
            return None
        current, game = session.current_seat, session.game
        unpinged = (
            session.stage == "playing"
            and game is not None
            and current is not None
            and current.computer is None
            and session.pinged_turn != game.turn_number
        )
        if not (session.board_behind or unpinged):
            return None
        return Outcome(
            snapshot=session.snapshot(), turn_for=current.user_id if unpinged and current else None
        )

    async def mark_shown(self, channel_id: int, game_id: str, version: int) -> None:
        """A board message now shows `version`: a start-up redraws only boards that fell behind."""
        session = self._sessions.get(channel_id)
        if session is None or session.game_id != game_id:
            return
        if session.shown_version is not None and session.shown_version >= version:
            return
        session.shown_version = version
        try:
            await self._store.mark_shown(channel_id, game_id, version)
        except Exception:  # only a needless redraw after the next restart is at stake
            log.exception("Could not record the board shown in channel %s", channel_id)

    async def hint(self, channel_id: int, game_id: str, user_id: int) -> Advice | str:
        """The expert's advice for the player to move, or why there is none. Changes nothing."""
        session = self._sessions.get(channel_id)
        if session is not None:
            await self._ensure_policies(session.rules)  # before the lock: a first solve takes a moment
        async with self._locked(channel_id) as session:
            game = session.game if session is not None and session.game_id == game_id else None
            if session is None or game is None or session.stage != "playing":
                return "This game is over."
            if not session.table.hints:
                return "Hints are turned off on this server."
            current = session.current_seat
            if current is None or current.user_id != user_id:
                return f"Hints are for the player whose turn it is ({current.name if current else 'nobody'})."
            return advise(game)

    async def close(self) -> None:
        tasks = [*self._computers.values(), *self._ringing, *([self._scheduler] if self._scheduler else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._alarms.clear()
        self._computers.clear()
        self._scheduler = None

    @asynccontextmanager
    async def _locked(self, channel_id: int) -> AsyncIterator[Session | None]:
        async with self._locks.setdefault(channel_id, asyncio.Lock()):
            yield self._sessions.get(channel_id)

    # ------------------------------------------------------------------ lobby

    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        rules: Ruleset,
        table: TableSettings | None = None,
    ) -> Outcome:
        async with self._locked(channel_id) as existing:
            if existing is not None and existing.stage in ("lobby", "playing"):
                what = "lobby" if existing.stage == "lobby" else "game"
                return Outcome.refuse(f"There is already a Farkle {what} in this channel.")
            session = Session(
                game_id=new_game_id(),
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                rules=rules,
                table=table or self.default_table(),
            )
            if not rules.teams:
                session.seats.append(Seat(host_id, host_name))
            self._sessions[channel_id] = session
            return _opened(await self._commit(session, []))

    async def attach_board(
        self, channel_id: int, game_id: str, message_id: int, shown: int
    ) -> Snapshot | None:
        """Remember which message shows this game (at version `shown`), so timers and restarts can edit it.

        Returns the game as it is now: it may have moved on while its message was being posted.
        """
        async with self._locked(channel_id) as session:
            if session is None or session.game_id != game_id:
                return None
            session.board_message_id, session.shown_version = message_id, shown
            await self._save(session)
            return session.snapshot()

    async def attach_ping(self, channel_id: int, game_id: str, message_id: int | None) -> int | None:
        """Swap in the newest turn-mention message; returns the previous one so it can be deleted."""
        async with self._locked(channel_id) as session:
            if session is None or session.game_id != game_id:
                return None
            previous, session.ping_message_id = session.ping_message_id, message_id
            session.pinged_turn = session.game.turn_number if session.game else None
            await self._save(session)
            return previous

    async def join(self, channel_id: int, user_id: int, name: str, team: int | None = None) -> Outcome:
        async with self._locked(channel_id) as session:
            if session is None or session.stage != "lobby":
                return Outcome.refuse("There is no open lobby here: start one with `/farkle new`.")
            return await self._join(session, user_id, name, team)

    async def _join(self, session: Session, user_id: int, name: str, team: int | None) -> Outcome:
        teams = session.rules.teams
        if teams and team is None:
            return Outcome.refuse("Pick a team: press one of the team buttons.")
        if team is not None and not 1 <= team <= max(teams, 1):
            return Outcome.refuse("That team does not exist.")
        seat = session.seat(user_id)
        if seat is not None and seat.team == team:
            return Outcome.refuse("You're already in this game.")
        if seat is None and len(session.seats) >= session.max_players:
            return Outcome.refuse(f"This game is full ({session.max_players} players).")
        if seat is None:
            session.seats.append(Seat(user_id, name, team=team))
        else:
            seat.team = team
        return await self._commit(session, [])

    async def leave(self, channel_id: int, user_id: int) -> Outcome:
        async with self._locked(channel_id) as session:
            if session is None or session.stage not in ("lobby", "playing"):
                return Outcome.refuse("There is no Farkle game in this channel.")
            seat = session.seat(user_id)
            if seat is None or (session.game and not self._is_active(session, seat)):
                return Outcome.refuse("You're not in this game.")
            if session.stage == "lobby":
                return await self._leave_lobby(session, user_id)
            return await self._apply(session, lambda game: game.leave(seat.player_id))

    async def start(self, channel_id: int, user_id: int) -> Outcome:
        async with self._locked(channel_id) as session:
            if session is None or session.stage != "lobby":
                return Outcome.refuse("There is no open lobby here: start one with `/farkle new`.")
            return await self._start(session, user_id)

    async def _start(self, session: Session, user_id: int) -> Outcome:
        if user_id != session.host_id:
            return Outcome.refuse(f"Only the host, {session.snapshot().name_of(session.host_id)}, can start.")
        teams = session.engine_teams()
        if len(session.seats) < session.rules.min_players:
            return Outcome.refuse(f"You need at least {session.rules.min_players} players to start.")
        if teams is not None and len(set(teams)) < session.rules.teams:
            return Outcome.refuse(f"Every one of the {session.rules.teams} teams needs a player.")
        dice = self._dice()
        dice_start = dice.state()
        try:
            game = Game.new(session.rules, [s.player_id for s in session.seats], dice, teams=teams)
        except (IllegalAction, ValueError) as refused:
            return Outcome.refuse(str(refused))
        session.game, session.stage, session.started_at = game, "playing", self._clock.now()
        session.dice_start = dice_start
        first = session.current_seat
        turn_for = first.user_id if first is not None and first.computer is None else None
        return await self._commit(session, list(game.events), turn_for=turn_for)

    async def cancel(self, channel_id: int, user_id: int, *, moderator: bool = False) -> Outcome:
        """The host (or a moderator) closes a lobby or abandons a game: nothing is recorded."""
        async with self._locked(channel_id) as session:
            if session is None or session.stage not in ("lobby", "playing"):
                return Outcome.refuse("There is no Farkle game in this channel.")
            if user_id != session.host_id and not moderator:
                return Outcome.refuse("Only the host or a member with Manage Messages can end this game.")
            return await self._close(session, "ended")

    # ------------------------------------------------------------------ buttons

    async def press(
        self,
        channel_id: int,
        game_id: str,
        seq: str,
        user_id: int,
        name: str,
        action: str,
        arg: str | None,
    ) -> Outcome:
        """A button on a lobby or board message; the custom id carried `game_id` and the board's `seq`."""
        async with self._locked(channel_id) as session:
            if action == "rematch":
                return await self._rematch(session, channel_id, game_id, user_id, name)
            if session is None or session.game_id != game_id or session.stage == "closed":
                return Outcome.refuse("This game has ended.")
            if action in LOBBY_ACTIONS:
                if session.stage != "lobby":
                    return Outcome.refuse("This lobby has already started.")
                return await self._lobby_press(session, user_id, name, action, arg)
            if action not in TURN_ACTIONS:
                return Outcome.refuse("That button is not part of this game.")
            if session.stage != "playing" or session.game is None:
                return Outcome.refuse("This game is over.")
            if seq != session.seq:
                return Outcome.refuse(OUTDATED)
            current = session.current_seat
            if current is None or current.user_id != user_id:
                name_now = current.name if current else "nobody"
                return Outcome.refuse(f"It's {name_now}'s turn.")
            if current.computer is not None:
                return Outcome.refuse("The computer is playing this turn.")
            return await self._turn_press(session, current, action, arg)

    async def _lobby_press(
        self, session: Session, user_id: int, name: str, action: str, arg: str | None
    ) -> Outcome:
        if action == "join":
            return await self._join(session, user_id, name, None)
        if action == "team":
            return await self._join(session, user_id, name, _int(arg))
        if action == "start":
            return await self._start(session, user_id)
        if action == "cpu":
            return await self._add_computer(session, user_id, arg or "normal")
        if action == "leave":
            return await self._leave_lobby(session, user_id)
        if user_id != session.host_id:
            return Outcome.refuse("Only the host can cancel the lobby.")
        return await self._close(session, "cancelled")

    async def _leave_lobby(self, session: Session, user_id: int) -> Outcome:
        """The last human out closes the lobby; a leaving host hands over to the next human."""
        if session.seat(user_id) is None:
            return Outcome.refuse("You're not in this lobby.")
        session.seats = [s for s in session.seats if s.user_id != user_id]
        humans = [s.user_id for s in session.seats if s.computer is None]
        if not humans:
            return await self._close(session, "empty")
        if user_id == session.host_id:
            session.host_id = humans[0]
        return await self._commit(session, [])

    async def _close(self, session: Session, reason: str) -> Outcome:
        session.stage, session.end_reason = "closed", reason
        return await self._commit(session, [])

    async def _add_computer(self, session: Session, user_id: int, level: str) -> Outcome:
        if user_id != session.host_id:
            return Outcome.refuse("Only the host can add computer players.")
        if level not in LEVELS:
            return Outcome.refuse(f"Computer levels are {', '.join(LEVELS)}.")
        if len(session.seats) >= session.max_players:
            return Outcome.refuse(f"This game is full ({session.max_players} players).")
        number = sum(1 for seat in session.seats if seat.computer) + 1
        session.seats.append(Seat(-number, f"Computer {number} ({level})", computer=level))
        return await self._commit(session, [])

    async def _turn_press(self, session: Session, seat: Seat, action: str, arg: str | None) -> Outcome:
        game = session.game
        assert game is not None
        player = seat.player_id
        if action in ("pick", "drop"):
            position = _int(arg)
            if position is None or not 0 <= position < len(game.turn.roll):
                return Outcome.refuse("That die is not on the table.")
            chosen = (
                set(session.selection) | {position}
                if action == "pick"
                else set(session.selection) - {position}
            )
            if chosen == set(session.selection):  # a double tap: the die is already as the player wants it
                return Outcome(snapshot=session.snapshot())
            session.selection = tuple(sorted(chosen))
            return await self._commit(session, [])
        keep = session.selection
        if action == "roll":
            return await self._apply(session, lambda g: g.roll(player, keep if g.phase == "choosing" else ()))
        if action == "bank":
            return await self._apply(session, lambda g: g.bank(player, keep))
        return await self._apply(session, lambda g: g.piggyback(player))

    async def _rematch(
        self, session: Session | None, channel_id: int, game_id: str, user_id: int, name: str
    ) -> Outcome:
        if session is not None and session.stage == "lobby" and session.rematch_of == game_id:
            return await self._join(session, user_id, name, None)
        if session is None or session.game_id != game_id or session.stage != "over":
            return Outcome.refuse("This rematch is no longer available: start a game with `/farkle new`.")
        old = session.seat(user_id)
        if old is None:
            return Outcome.refuse("Only the players of this game can ask for a rematch.")
        rematch = Session(
            game_id=new_game_id(),
            guild_id=session.guild_id,
            channel_id=channel_id,
            host_id=user_id,
            rules=session.rules,
            table=session.table,
            seats=[Seat(user_id, name, team=old.team)]
            + [
                Seat(s.user_id, s.name, team=s.team, computer=s.computer) for s in session.seats if s.computer
            ],
            rematch_of=game_id,
        )
        self._sessions[channel_id] = rematch
        return _opened(await self._commit(rematch, [], replaces=session))  # on failure Rematch still works

    # ------------------------------------------------------------------ engine

    async def _apply(self, session: Session, act: Callable[[Game], list[Event]]) -> Outcome:
        """Run one engine action; its sentence becomes the refusal, and the state is left untouched."""
        game = session.game
        assert game is not None
        before = game.current_player
        try:
            events = act(game)
        except IllegalAction as refused:
            return Outcome.refuse(str(refused))
        session.selection = ()
        if game.result is not None:
            session.stage, session.ended_at = "over", self._clock.now()
        turn_for = None
        current = session.current_seat
        if game.current_player != before or any(e.kind == "turn_started" for e in events):
            session.reminded = False
            if current is not None and current.computer is None:
                turn_for = current.user_id
        return await self._commit(session, events, turn_for=turn_for)

    async def _commit(
        self,
        session: Session,
        events: list[Event],
        *,
        turn_for: int | None = None,
        replaces: Session | None = None,
    ) -> Outcome:
        """Bump the version, persist, re-arm the timer; on a storage failure put the last saved state back."""
        session.version += 1
        session.remember(events)
        session.deadline = self._deadline(session)
        try:
            if session.stage == "closed":
                await self._store.delete(session.channel_id)
            else:
                await self._save(session)
        except Exception:
            log.exception("Could not save the session in channel %s", session.channel_id)
            if replaces is not None:
                self._sessions[session.channel_id] = replaces
            elif session.saved is not None:
                self._sessions[session.channel_id] = Session.load(session.saved, session.shown_version)
            else:
                self._sessions.pop(session.channel_id, None)
            return Outcome.refuse("I couldn't save that, so nothing changed: please try again.")
        if session.stage == "closed":
            self._sessions.pop(session.channel_id, None)
        self._arm(session)
        self._wake_computer(session)
        return Outcome(snapshot=session.snapshot(), events=tuple(events), turn_for=turn_for)

    async def _save(self, session: Session) -> None:
        """One serialisation per change: it is both what is stored and what a failed change rolls back to."""
        state = session.dump()
        await self._store.save(session, state)
        session.saved = state

    def default_table(self) -> TableSettings:
        s = self._settings
        return TableSettings(s.turn_timeout, s.lobby_timeout, s.max_players)

    def _deadline(self, session: Session) -> float | None:
        if session.stage == "lobby":
            return self._clock.now() + session.table.lobby_timeout
        if session.stage == "playing":
            return self._clock.now() + session.table.turn_timeout
        return None

    @staticmethod
    def _is_active(session: Session, seat: Seat) -> bool:
        game = session.game
        return game is None or any(p.id == seat.player_id and p.active for p in game.players)

    # ------------------------------------------------------------------ time

    def _arm(self, session: Session) -> None:
        """Set the channel's next alarm: a half-time reminder, else the deadline itself."""
        self._alarms.pop(session.channel_id, None)
        if session.deadline is not None and session.stage in ("lobby", "playing"):
            remind_at = session.deadline - session.table.turn_timeout / 2
            current = session.current_seat
            reminder = (
                session.stage == "playing"
                and not session.reminded
                and current is not None
                and current.computer is None
                and self._clock.now() < remind_at  # a deadline missed while the bot was down: no reminder
            )
            kind: AlarmKind = "remind" if reminder else "expire"
            when = remind_at if reminder else session.deadline
            self._alarms[session.channel_id] = Alarm(when, kind, session.game_id, session.version)
        self._reschedule()

    def _reschedule(self) -> None:
        """Keep one task asleep until the earliest alarm; restart it only when an earlier one appears."""
        earliest = min((alarm.when for alarm in self._alarms.values()), default=None)
        running = self._scheduler is not None and not self._scheduler.done()
        if earliest is None or (running and self._wakes_at is not None and self._wakes_at <= earliest):
            return
        if self._scheduler is not None:
            self._scheduler.cancel()
        self._scheduler = asyncio.create_task(self._run_alarms(), name="farkle-alarms")

    async def _run_alarms(self) -> None:
        """One task for every channel's timer, so thousands of games cost one sleeping task."""
        while self._alarms:
            self._wakes_at = min(alarm.when for alarm in self._alarms.values())
            await self._clock.sleep_until(self._wakes_at)
            now = self._clock.now()
            for channel_id, alarm in [(c, a) for c, a in self._alarms.items() if a.when <= now]:
                del self._alarms[channel_id]
                ring = asyncio.create_task(self._ring(channel_id, alarm), name=f"farkle-alarm-{channel_id}")
                self._ringing.add(ring)
                ring.add_done_callback(self._ringing.discard)
        self._wakes_at = None

    async def _ring(self, channel_id: int, alarm: Alarm) -> None:
        async with self._locked(channel_id) as session:
            if session is None or session.game_id != alarm.game_id or session.version != alarm.version:
                return
            outcome = await (self._remind(session) if alarm.kind == "remind" else self._expire(session))
        await self._publish(outcome)

    async def _remind(self, session: Session) -> Outcome | None:
        current = session.current_seat
        if current is None:
            return None
        session.reminded = True
        self._arm(session)
        try:
            await self._save(session)
        except Exception:  # only the reminder flag is lost: the timeout alarm is already set
            log.exception("Could not save the reminder in channel %s", session.channel_id)
        return Outcome(snapshot=session.snapshot(), reminder_for=current.user_id)

    async def _expire(self, session: Session) -> Outcome | None:
        if session.stage == "lobby":
            return await self._close(session, "expired")
        current = session.current_seat
        if current is None:
            return None
        return await self._apply(session, lambda game: game.timeout(current.player_id))

    # ------------------------------------------------------------------ computer players

    def _wake_computer(self, session: Session) -> None:
        """A computer's turn plays itself, one visible step at a time, through the same door as a press."""
        current = session.current_seat
        if session.stage != "playing" or current is None or current.computer is None:
            return
        running = self._computers.get(session.channel_id)
        if running is not None and not running.done():
            return
        self._computers[session.channel_id] = asyncio.create_task(
            self._play_computer(session.channel_id, session.game_id), name=f"farkle-cpu-{session.channel_id}"
        )

    async def _play_computer(self, channel_id: int, game_id: str) -> None:
        while True:
            await self._clock.sleep_until(self._clock.now() + self._settings.computer_pause)
            async with self._locked(channel_id) as session:
                if session is None or session.game_id != game_id or session.game is None:
                    return
                current = session.current_seat
                if session.stage != "playing" or current is None or current.computer is None:
                    return
                await self._ensure_policies(session.rules)
                action = strategy_for(current.computer, session.rules).choose(session.game)
                outcome = await self._apply(session, partial(Game.apply, action=action))
            await self._publish(outcome)

    async def _ensure_policies(self, rules: Ruleset) -> None:
        """Solving takes a fraction of a second the first time: never on the event loop."""
        if self._policies is not None:
            await self._policies.ensure(rules)

    async def _publish(self, outcome: Outcome | None) -> None:
        if outcome is None or outcome.snapshot is None:
            return
        for listener in self._listeners:
            try:
                await listener(outcome)
            except Exception:
                log.exception("A session listener failed")


_CATCH_UP_ORDER = {"playing": 0, "lobby": 1, "over": 2, "closed": 3}


def _opened(outcome: Outcome) -> Outcome:
    return replace(outcome, opened=True) if outcome.snapshot is not None else outcome


def _int(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None
