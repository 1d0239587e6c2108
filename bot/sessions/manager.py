"""The only door to a game: one session per channel, every change under that channel's lock.

Commands, button presses, timers and computer players all call in here. The jobs behind the door each
have their own module: `commands` (lobby and turn), `unit_of_work` (commit or roll back), `scheduler`
(deadlines) and `computers` (computer turns); this module locks, delegates and publishes every change on
the game-events stream (`stream`), the one place features watch games from.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from typing import Literal

from bot.clock import Clock
from bot.engine import DiceSource, Game, Ruleset, SeededDice, advise, strategy_for
from bot.engine.master import win_chances
from bot.engine.messages import Message
from bot.sessions.actions import ButtonAction
from bot.sessions.commands import GAME_OVER, NO_GAME, NO_LOBBY, NOT_OF_THIS_GAME, GameCommands
from bot.sessions.computers import ComputerRunner
from bot.sessions.outcome import Hint, Outcome, Restored
from bot.sessions.policies import PolicyCache
from bot.sessions.scheduler import DeadlineScheduler
from bot.sessions.session import Session, Snapshot, TableSettings
from bot.sessions.stream import DRAIN_SECONDS, Cause, GameChanged, GameEnded, GameStream, Subscriber
from bot.sessions.unit_of_work import SessionStore, UnitOfWork
from bot.sessions.win_tables import WinTableKeeper
from bot.settings import GameSettings

log = logging.getLogger(__name__)

RestoreListener = Callable[[Restored], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Alarm:
    """What a channel's timer does when it rings, for which version of which game (stale: ignored)."""

    kind: Literal["remind", "expire"]
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
        win_tables: WinTableKeeper | None = None,
    ) -> None:
        self._store = store
        self._clock = clock
        self._policies = policies
        self._win_tables = win_tables
        self._sessions: dict[int, Session] = {}
        self._set_aside: dict[int, int] = {}  # unreadable rows' revisions, so a new game can replace them
        # A channel's lock lives while a change holds or awaits it: games between moves (and channels whose
        # games ended long ago) keep none.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._restore_listeners: list[RestoreListener] = []
        self.events = GameStream(store)
        self._alarms = DeadlineScheduler[int, Alarm](clock, self._ring, "farkle-alarms")
        self._computers = ComputerRunner(clock, settings.computer_pause, self._computer_step)
        self._uow = UnitOfWork(store, self._sessions, clock, self._after_commit)
        self._commands = GameCommands(
            self._uow,
            self._sessions,
            clock,
            dice or (lambda: SeededDice(secrets.randbits(63))),
            TableSettings(settings.turn_timeout, settings.lobby_timeout, settings.max_players),
        )

    # ------------------------------------------------------------------ reading

    def subscribe(self, subscriber: Subscriber) -> None:
        """Every change to a game, and every game's end, whatever caused it (`GameStream`)."""
        self.events.subscribe(subscriber)

    def on_restore(self, listener: RestoreListener) -> None:
        """After a start-up, the Discord layer redraws the boards that fell behind their game."""
        self._restore_listeners.append(listener)

    def snapshot(self, channel_id: int) -> Snapshot | None:
        session = self._sessions.get(channel_id)
        return session.snapshot() if session else None

    def solve_next_roll(self, channel_id: int) -> None:
        """A quiet moment after a turn passed: its first roll's live chances are solved now, not in the
        roll's answer (reads the game only: no lock needed)."""
        session = self._sessions.get(channel_id)
        if session is not None:
            session.solve_next_roll()

    def snapshots(self) -> list[Snapshot]:
        return [session.snapshot() for session in self._sessions.values()]

    def default_table(self) -> TableSettings:
        return self._commands.default_table

    # ------------------------------------------------------------------ lifecycle

    async def restore(self, owns: Callable[[int], bool] = lambda guild_id: True) -> Restored:
        """Load every saved session of the guilds this process `owns` (its shards), row by row, and re-arm
        its timer (a deadline already past fires at once) once the restore listeners have read what shows
        each game: a timer fired earlier would find no board and post a second one.

        A row that can't be read is logged and left aside (a new game may replace it); every other game
        comes back.
        """
        unreadable = []
        for stored in await self._store.load_all():
            if not owns(_routed_by(stored.guild_id, stored.channel_id)):
                continue
            try:
                session = Session.from_stored(stored)
            except Exception as damage:  # an operator's condition: one line, not a traceback
                log.warning(
                    "Could not restore the saved game in channel %s (%r); leaving it aside",
                    stored.channel_id,
                    damage,
                )
                if stored.guild_id != stored.channel_id:  # a conversation's game: only a press reaches it
                    unreadable.append(stored.channel_id)
                self._set_aside[stored.channel_id] = stored.revision
                continue
            self._sessions[session.channel_id] = session
        restored = Restored(sessions=tuple(self.snapshots()), unreadable=tuple(unreadable))
        for listener in self._restore_listeners:
            await listener(restored)
        for session in list(self._sessions.values()):
            self._after_commit(session)
        for record in await self._store.unannounced():  # a crash came between the commit and the event
            if owns(_routed_by(record.guild_id, record.channel_id)):
                self.events.publish(GameEnded(record))
        return restored

    async def hint(self, channel_id: int, game_id: str, user_id: int) -> Hint | Message:
        """The expert's advice and the chances to win for the player to move, or why there are none."""
        session = self._sessions.get(channel_id)
        if session is not None:
            await self._ensure_policies(session.rules)  # before the lock: a first solve takes a moment
        async with self._locked(channel_id) as session:
            game = session.game if session is not None and session.game_id == game_id else None
            if session is None or game is None or session.stage != "playing":
                return GAME_OVER
            if not session.table.hints:
                return Message("Hints are turned off on this server.")
            current = session.current_seat
            if current is None or current.user_id != user_id:
                return Message(
                    "Hints are for the player whose turn it is ({name}).",
                    name=current.name if current else "—",
                )
            chances = win_chances(game)
            warming_up = False
            if chances is None and self._win_tables is not None and len(game.sides) == 2:
                warming_up = self._win_tables.want(session.rules)
            return Hint(advise(game), chances, warming_up)

    async def close(self, drain: float = DRAIN_SECONDS) -> None:
        """Stop timers and computers, then let the stream's subscribers finish for `drain` seconds."""
        await self._computers.close()
        await self._alarms.close()
        await self.events.close(drain)
        if self._win_tables is not None:
            await self._win_tables.close()

    @asynccontextmanager
    async def _locked(self, channel_id: int) -> AsyncIterator[Session | None]:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        async with lock:
            yield self._sessions.get(channel_id)

    # ------------------------------------------------------------------ commands

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
            ids = (guild_id, channel_id, host_id)
            replacing = existing.revision if existing else self._set_aside.get(channel_id)
            outcome = await self._commands.open_lobby(existing, ids, host_name, rules, table, replacing)
            if outcome.snapshot is not None:
                self._set_aside.pop(channel_id, None)
            return self._publish(outcome, Cause.COMMAND)

    async def join(self, channel_id: int, user_id: int, name: str, team: int | None = None) -> Outcome:
        async with self._locked(channel_id) as session:
            if session is None or session.stage != "lobby":
                return Outcome.refuse(NO_LOBBY)
            return self._publish(await self._commands.join(session, user_id, name, team), Cause.COMMAND)

    async def leave(self, channel_id: int, user_id: int) -> Outcome:
        async with self._locked(channel_id) as session:
            if session is None or session.stage not in ("lobby", "playing"):
                return Outcome.refuse(NO_GAME)
            return self._publish(await self._commands.leave(session, user_id), Cause.COMMAND)

    async def start(self, channel_id: int, user_id: int) -> Outcome:
        async with self._locked(channel_id) as session:
            if session is None or session.stage != "lobby":
                return Outcome.refuse(NO_LOBBY)
            return self._publish(await self._commands.start(session, user_id), Cause.COMMAND)

    async def cancel(self, channel_id: int, user_id: int, *, moderator: bool = False) -> Outcome:
        """The host (or a moderator) closes a lobby or abandons a game: nothing is recorded."""
        async with self._locked(channel_id) as session:
            if session is None or session.stage not in ("lobby", "playing"):
                return Outcome.refuse(NO_GAME)
            if user_id != session.host_id and not moderator:
                return Outcome.refuse(
                    Message("Only the host or a member with Manage Messages can end this game.")
                )
            return self._publish(await self._commands.close(session, "ended"), Cause.COMMAND)

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
        pressed = ButtonAction.parse(action)
        if pressed is None or pressed is ButtonAction.HINT:
            return Outcome.refuse(NOT_OF_THIS_GAME)
        async with self._locked(channel_id) as session:
            outcome = await self._commands.press(
                session, channel_id, (game_id, seq), user_id, name, pressed, arg
            )
            return self._publish(outcome, Cause.PRESS)

    # ------------------------------------------------------------------ after a commit

    def _after_commit(self, session: Session) -> None:
        """Re-arm the channel's timer and let a computer whose turn it is play."""
        self._arm(session)
        current = session.current_seat
        if session.stage == "playing" and current is not None and current.computer is not None:
            self._computers.wake(session.channel_id, session.game_id)

    def _arm(self, session: Session) -> None:
        """Set the channel's next alarm: a half-time reminder, else the deadline itself."""
        if session.deadline is None or session.stage not in ("lobby", "playing"):
            self._alarms.cancel(session.channel_id)
            return
        remind_at = session.deadline - session.table.turn_timeout // 2  # whole seconds left, as it says
        current = session.current_seat
        reminder = (
            session.stage == "playing"
            and not session.reminded
            and current is not None
            and current.computer is None
            and self._clock.now() < remind_at  # a deadline missed while the bot was down: no reminder
        )
        alarm = Alarm("remind" if reminder else "expire", session.game_id, session.version)
        self._alarms.set(session.channel_id, remind_at if reminder else session.deadline, alarm)

    async def _ring(self, channel_id: int, alarm: Alarm) -> None:
        async with self._locked(channel_id) as session:
            if session is None or session.game_id != alarm.game_id or session.version != alarm.version:
                return
            if alarm.kind == "remind":
                outcome = await self._remind(session)
            else:
                outcome = await self._commands.expire(session)
            if outcome is not None:
                self._publish(outcome, Cause.TIMER)

    async def _remind(self, session: Session) -> Outcome | None:
        current = session.current_seat
        if current is None:
            return None
        session.reminded = True
        self._arm(session)
        try:
            if await self._uow.save_or_reload(session) is not session:
                return None  # the game moved on elsewhere: this reminder is stale
        except Exception:  # only the reminder flag is lost: the timeout alarm is already set
            log.exception("Could not save the reminder in channel %s", session.channel_id)
        return Outcome(snapshot=session.snapshot(), reminder_for=current.user_id)

    async def _computer_step(self, channel_id: int, game_id: str) -> bool:
        """One computer move through the same door as a press; False once it is no computer's turn."""
        async with self._locked(channel_id) as session:
            if session is None or session.game_id != game_id or session.game is None:
                return False
            current = session.current_seat
            if session.stage != "playing" or current is None or current.computer is None:
                return False
            await self._ensure_policies(session.rules)
            if current.computer == "master" and self._win_tables is not None:
                self._win_tables.want(session.rules)  # it plays as expert until they exist
            action = strategy_for(current.computer, session.rules).choose(session.game)
            self._publish(
                await self._commands.apply(session, partial(Game.apply, action=action)), Cause.COMPUTER
            )
        return True

    async def _ensure_policies(self, rules: Ruleset) -> None:
        """Solving takes a fraction of a second the first time: never on the event loop."""
        if self._policies is not None:
            await self._policies.ensure(rules)

    def _publish(self, outcome: Outcome, cause: Cause) -> Outcome:
        """Put a change on the game-events stream, in commit order (the channel's lock is held), and the
        game's end after it when this change archived the game."""
        if outcome.snapshot is not None:
            self.events.publish(GameChanged(outcome, cause))
        if outcome.finished is not None:
            self.events.publish(GameEnded(outcome.finished))
        return outcome


def _routed_by(guild_id: int, channel_id: int) -> int:
    """The guild id that decides which shard runs a game: a DM's or group DM's game (kept under its own
    channel id) is routed like guild 0, because Discord sends direct-message interactions to shard 0."""
    return 0 if guild_id == channel_id else guild_id
