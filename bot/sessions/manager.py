"""The only door to a game: every change to a game under that game's lock, keyed by its id.

Commands, button presses, timers and computer players all call in here. The jobs behind the door each
have their own module: `registry` (the games by id, each channel's current one as an index), `commands`
(lobby and turn), `unit_of_work` (commit or roll back), `scheduler` (deadlines) and `computers` (computer
turns); this module locks, delegates, settles each game's alarm and computer after its change, and
publishes every change on the game-events stream (`stream`), the one place features watch games from.

A slash command names a channel: it reaches the channel's current game. Opening a lobby (or a rematch)
in a channel also holds the channel's opening lock, so two at once can't both find the channel free.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import weakref
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from functools import partial
from typing import Literal

from bot.core.clock import Clock
from bot.core.environment import GameSettings
from bot.engine import DiceSource, Game, Ruleset, SeededDice, advise
from bot.engine.master import win_chances
from bot.engine.messages import Message
from bot.engine.skilled import skill_of_level
from bot.engine.win.tables import WinTables
from bot.sessions.actions import ButtonAction
from bot.sessions.chances import LiveChances, Offload, none_estimated
from bot.sessions.commands import GAME_OVER, NO_GAME, NO_LOBBY, NOT_OF_THIS_GAME, GameCommands
from bot.sessions.computers import ComputerRunner
from bot.sessions.outcome import Hint, Outcome, Restored
from bot.sessions.policies import PolicyCache
from bot.sessions.registry import GameRegistry
from bot.sessions.requests import Host, Press
from bot.sessions.scheduler import DeadlineScheduler
from bot.sessions.session import Session, Snapshot, TableSettings
from bot.sessions.skill_levels import MemberSkill, computer_strategy, no_skill
from bot.sessions.stream import DRAIN_SECONDS, GameStream
from bot.sessions.stream_events import Cause, GameChanged, GameEnded, GamesRestored, Subscriber
from bot.sessions.unit_of_work import SessionStore, UnitOfWork
from bot.sessions.win_tables import WinTableKeeper, no_tables

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Alarm:
    """What a game's timer does when it rings, for which version of it (stale: ignored)."""

    kind: Literal["remind", "expire"]
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
        skills: MemberSkill = no_skill,
        offload: Offload | None = None,
    ) -> None:
        """`offload` runs the live chances of games of three or more off the event loop (a worker thread
        in the bot: `sessions/chances.py`); without it those boards show none."""
        self._store = store
        self._clock = clock
        self._policies = policies or PolicyCache()
        self._win_tables = win_tables
        chances = LiveChances(self._policies, offload) if offload is not None else None
        self._games = GameRegistry(
            win_tables.tables if win_tables is not None else no_tables,
            chances.estimated if chances is not None else none_estimated,
        )
        self._set_aside: dict[int, int] = {}  # unreadable rows' revisions, so a new game can replace them
        # A lock lives while a change holds or awaits it: games between moves (and games that ended) keep
        # none, and neither do channels where no lobby is being opened.
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._openings: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.events = GameStream(store)
        self._alarms = DeadlineScheduler[str, Alarm](clock, self._ring, "farkle-alarms")
        self._computers = ComputerRunner(clock, settings.computer_pause, self._computer_step)
        self._uow = UnitOfWork(store, self._games, clock)
        self._commands = GameCommands(
            self._uow,
            self._games,
            clock,
            dice or (lambda: SeededDice(secrets.randbits(63))),
            TableSettings(settings.turn_timeout, settings.lobby_timeout, settings.max_players),
            skills,
            chances,
        )

    # ------------------------------------------------------------------ reading

    def subscribe(self, subscriber: Subscriber) -> None:
        """Every event of the stream (`bot.sessions.stream_events`): a start-up's restored games, every
        change to a game and every game's end, whatever caused it, reviews, dailies and achievements."""
        self.events.subscribe(subscriber)

    def snapshot(self, channel_id: int) -> Snapshot | None:
        """The channel's current game."""
        session = self._games.in_channel(channel_id)
        return session.snapshot() if session else None

    def game(self, game_id: str) -> Snapshot | None:
        """The game as it is now; None once it left (closed, or replaced in its channel)."""
        session = self._games.get(game_id)
        return session.snapshot() if session else None

    def solve_next_roll(self, game_id: str) -> None:
        """A quiet moment after a turn passed: its first roll's live chances are solved now, not in the
        roll's answer (reads the game only: no lock needed)."""
        session = self._games.get(game_id)
        if session is not None:
            session.solve_next_roll()

    def snapshots(self) -> list[Snapshot]:
        return [session.snapshot() for session in self._games]

    def default_table(self) -> TableSettings:
        return self._commands.default_table

    # ------------------------------------------------------------------ lifecycle

    async def restore(self, owns: Callable[[int], bool] = lambda guild_id: True) -> Restored:
        """Load every saved session of the guilds this process `owns` (its shards), row by row, publish
        them (`GamesRestored`) and re-arm their timers (a deadline already past fires at once) once every
        subscriber has heard it: a timer's change handled before the views were read would find no board
        and post a second one, and so would a press.

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
            self._games.put(session)
        restored = Restored(sessions=tuple(self.snapshots()), unreadable=tuple(unreadable))
        self.events.publish(GamesRestored(restored))
        await self.events.delivered()
        for session in self._games:
            self._settle(session.game_id)
        for record in await self._store.unannounced():  # a crash came between the commit and the event
            if owns(_routed_by(record.guild_id, record.channel_id)):
                self.events.publish(GameEnded(record))
        return restored

    async def hint(self, channel_id: int, game_id: str, user_id: int) -> Hint | Message:
        """The expert's advice and the chances to win for the player to move, or why there are none."""
        session = self._games.get(game_id)
        if session is None:
            return GAME_OVER
        policies = await self._policies.ensure(session.rules)  # before the lock: a first solve takes a moment
        async with self._locked(game_id) as session:
            game = session.game if session is not None and session.channel_id == channel_id else None
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
            chances = win_chances(game, self._tables(session.rules))
            warming_up = False
            if chances is None and self._win_tables is not None and len(game.sides) == 2:
                warming_up = self._win_tables.want(session.rules)
            estimated = session.estimated(game).get(current.player_id)  # three or more players
            return Hint(advise(game, policies), chances, warming_up, estimated)

    async def close(self, drain: float = DRAIN_SECONDS) -> None:
        """Stop timers and computers, then let the stream's subscribers finish for `drain` seconds."""
        await self._computers.close()
        await self._alarms.close()
        await self.events.close(drain)
        if self._win_tables is not None:
            await self._win_tables.close()

    @asynccontextmanager
    async def _locked(self, game_id: str | None) -> AsyncIterator[Session | None]:
        """The game under its lock; None if it left the registry meanwhile (or there is none)."""
        if game_id is None:
            yield None
            return
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        async with lock:
            yield self._games.get(game_id)

    def _in_channel(self, channel_id: int) -> AbstractAsyncContextManager[Session | None]:
        """The channel's current game under its lock (a slash command names the channel, not the game)."""
        current = self._games.in_channel(channel_id)
        return self._locked(current.game_id if current is not None else None)

    @asynccontextmanager
    async def _opening(self, channel_id: int) -> AsyncIterator[Session | None]:
        """The channel's opening lock, then its current game's: a new lobby replaces at most one game."""
        lock = self._openings.get(channel_id)
        if lock is None:
            lock = self._openings[channel_id] = asyncio.Lock()
        async with lock, self._in_channel(channel_id) as existing:
            yield existing

    # ------------------------------------------------------------------ commands

    async def open_lobby(
        self, host: Host, rules: Ruleset, table: TableSettings | None = None, cause: Cause = Cause.COMMAND
    ) -> Outcome:
        channel_id = host.channel_id
        async with self._opening(channel_id) as existing:
            replacing = existing.revision if existing else self._set_aside.get(channel_id)
            outcome = await self._commands.open_lobby(existing, host, rules, table, replacing)
            if outcome.snapshot is not None:
                self._set_aside.pop(channel_id, None)
            return self._publish(outcome, cause, existing)

    async def join(self, channel_id: int, user_id: int, name: str, team: int | None = None) -> Outcome:
        async with self._in_channel(channel_id) as session:
            if session is None or session.stage != "lobby":
                return Outcome.refuse(NO_LOBBY)
            outcome = await self._commands.join(session, user_id, name, team)
            return self._publish(outcome, Cause.COMMAND, session)

    async def add_computer(self, channel_id: int, user_id: int, level: str) -> Outcome:
        """`/farkle computer`: a computer of a named level or at a chosen skill ("skill:72") in the lobby."""
        async with self._in_channel(channel_id) as session:
            if session is None or session.stage != "lobby":
                return Outcome.refuse(NO_LOBBY)
            return self._publish(await self._commands.add_computer(session, user_id, level), Cause.COMMAND)

    async def leave(self, channel_id: int, user_id: int) -> Outcome:
        async with self._in_channel(channel_id) as session:
            if session is None or session.stage not in ("lobby", "playing"):
                return Outcome.refuse(NO_GAME)
            return self._publish(await self._commands.leave(session, user_id), Cause.COMMAND, session)

    async def start(self, channel_id: int, user_id: int) -> Outcome:
        async with self._in_channel(channel_id) as session:
            if session is None or session.stage != "lobby":
                return Outcome.refuse(NO_LOBBY)
            return self._publish(await self._commands.start(session, user_id), Cause.COMMAND, session)

    async def cancel(self, channel_id: int, user_id: int, *, moderator: bool = False) -> Outcome:
        """The host (or a moderator) closes a lobby or abandons a game: nothing is recorded."""
        async with self._in_channel(channel_id) as session:
            if session is None or session.stage not in ("lobby", "playing"):
                return Outcome.refuse(NO_GAME)
            if user_id != session.host_id and not moderator:
                return Outcome.refuse(
                    Message("Only the host or a member with Manage Messages can end this game.")
                )
            return self._publish(await self._commands.close(session, "ended"), Cause.COMMAND, session)

    async def press(self, press: Press, cause: Cause = Cause.PRESS) -> Outcome:
        """A button on a lobby or board message, as its custom id named it. The Activity's moves come
        this way too (`cause`): the same lock, checks, commit and event."""
        action = ButtonAction.parse(press.action)
        if action is None or action is ButtonAction.HINT:
            return Outcome.refuse(NOT_OF_THIS_GAME)
        # A rematch opens a lobby in the channel (or joins the one its first press opened): its channel's
        # current game, under the opening lock. Any other press reaches the game it names.
        rematch = action is ButtonAction.REMATCH
        async with self._opening(press.channel_id) if rematch else self._locked(press.game_id) as session:
            if session is not None and session.channel_id != press.channel_id:
                session = None  # a custom id naming another channel's game
            outcome = await self._commands.press(session, press, action)
            return self._publish(outcome, cause, session)

    # ------------------------------------------------------------------ timers and computers

    def _settle(self, game_id: str) -> None:
        """Re-arm the game's timer for the game as it now is, and let a computer whose turn it is play; a
        game that left the registry (closed, replaced) keeps no alarm."""
        session = self._games.get(game_id)
        if session is None:
            self._alarms.cancel(game_id)
            return
        self._arm(session)
        current = session.current_seat
        if session.stage == "playing" and current is not None and current.computer is not None:
            self._computers.wake(game_id)

    def _arm(self, session: Session) -> None:
        """Set the game's next alarm: a half-time reminder, else the deadline itself."""
        if session.deadline is None or session.stage not in ("lobby", "playing"):
            self._alarms.cancel(session.game_id)
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
        alarm = Alarm("remind" if reminder else "expire", session.version)
        self._alarms.set(session.game_id, remind_at if reminder else session.deadline, alarm)

    async def _ring(self, game_id: str, alarm: Alarm) -> None:
        async with self._locked(game_id) as session:
            if session is None or session.version != alarm.version:
                return
            if alarm.kind == "remind":
                outcome = await self._remind(session)
            else:
                outcome = await self._commands.expire(session)
            if outcome is not None:
                self._publish(outcome, Cause.TIMER, session)

    async def _remind(self, session: Session) -> Outcome | None:
        current = session.current_seat
        if current is None:
            return None
        session.reminded = True
        self._arm(session)
        try:
            if (stored := await self._uow.save_or_reload(session)) is not session:
                self._settle(session.game_id)  # the game moved on elsewhere: its timer, not this one's
                if stored is not None and stored.game_id != session.game_id:
                    self._settle(stored.game_id)
                return None
        except Exception:  # only the reminder flag is lost: the timeout alarm is already set
            log.exception("Could not save the reminder in channel %s", session.channel_id)
        return Outcome(snapshot=session.snapshot(), reminder_for=current.user_id)

    async def _computer_step(self, game_id: str) -> bool:
        """One computer move through the same door as a press; False once it is no computer's turn."""
        async with self._locked(game_id) as session:
            if session is None or session.game is None:
                return False
            current = session.current_seat
            if session.stage != "playing" or current is None or current.computer is None:
                return False
            policies = await self._policies.ensure(session.rules)
            reads_tables = current.computer == "master" or skill_of_level(current.computer) is not None
            if reads_tables and self._win_tables is not None:
                self._win_tables.want(session.rules)  # they play by points until the tables exist
            strategy = computer_strategy(
                current.computer, session.rules, policies, self._tables(session.rules)
            )
            action = strategy.choose(session.game)
            outcome = await self._commands.apply(session, partial(Game.apply, action=action))
            self._publish(outcome, Cause.COMPUTER, session)
        return True

    def _tables(self, rules: Ruleset) -> WinTables | None:
        return self._win_tables.tables(rules) if self._win_tables is not None else None

    def _publish(self, outcome: Outcome, cause: Cause, before: Session | None = None) -> Outcome:
        """Once a command returns a game as committed (or as another process stored it): settle its timer
        and computer (and those of the game `before` it in the channel, which a new lobby replaced), put
        the change on the game-events stream, in commit order (the game's lock is held), and the game's
        end after it when this change archived the game. A change that was not saved settles nothing:
        its game keeps the timer it had, and a failing store is not retried hot."""
        if outcome.snapshot is not None:
            self._settle(outcome.snapshot.game_id)
            if before is not None and before.game_id != outcome.snapshot.game_id:
                self._settle(before.game_id)
            self.events.publish(GameChanged(outcome, cause))
        if outcome.finished is not None:
            self.events.publish(GameEnded(outcome.finished))
        return outcome


def _routed_by(guild_id: int, channel_id: int) -> int:
    """The guild id that decides which shard runs a game: a DM's or group DM's game (kept under its own
    channel id) is routed like guild 0, because Discord sends direct-message interactions to shard 0."""
    return 0 if guild_id == channel_id else guild_id
