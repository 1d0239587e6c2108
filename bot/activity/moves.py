"""A member's move from the Activity, played through the same session commands as a button press: the
same game lock, checks, commit and stream event (`Cause.ACTIVITY`, so the board edge redraws the chat
board, which no interaction answers).

The table the member last saw is the contract: its `version` must still be the game's (else 409, the
table as it is now), and the move must be one of its `moves` for them (a turn's move by someone whose
turn it is not: 403). What the game itself refuses comes back as its one line (422).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from bot.activity.discord_api import Instance, Member
from bot.engine.messages import Message
from bot.render.activity import moves, table
from bot.render.help import hint_text
from bot.render.language import Translator
from bot.services.i18n import language_of
from bot.services.server_settings import ConfigService
from bot.sessions.actions import TURN_ACTIONS, ButtonAction
from bot.sessions.commands import GAME_OVER, NOT_OF_THIS_GAME
from bot.sessions.manager import SessionManager
from bot.sessions.outcome import Outcome
from bot.sessions.requests import Host, Press
from bot.sessions.session import Snapshot
from bot.sessions.stream_events import Cause

# The API's actions, as the session layer names its buttons ("bank_all" is Bank with nothing picked).
PRESSES = {
    "roll": ButtonAction.ROLL,
    "bank": ButtonAction.BANK,
    "bank_all": ButtonAction.BANK,
    "pick": ButtonAction.PICK,
    "drop": ButtonAction.DROP,
    "piggyback": ButtonAction.PIGGYBACK,
    "join": ButtonAction.JOIN,
    "leave": ButtonAction.LEAVE,
    "start": ButtonAction.START,
    "rematch": ButtonAction.REMATCH,
}
ACTIONS = frozenset({*PRESSES, "hint", "new"})
STALE = Message("This table is out of date: here it is as it is now.")
WATCHING = Message("You are watching this game.")
GAME_RUNNING = Message("A game is already open in this channel.")


@dataclass(frozen=True)
class Reply:
    """An answer to the page: its status, the table for the member, and a refusal's line or a hint."""

    status: int
    table: dict[str, Any]
    said: str | None = None

    def body(self) -> dict[str, Any]:
        found: dict[str, Any] = {"table": self.table}
        if self.said is not None:
            found["error" if self.status >= 400 else "hint"] = self.said
        return found


class Moves:
    def __init__(self, manager: SessionManager, config: ConfigService) -> None:
        self.manager = manager
        self.config = config

    def table_for(self, member: Member, instance: Instance, tr: Translator) -> dict[str, Any]:
        return table(self.manager.snapshot(instance.channel_id), member.id, tr)

    async def play(
        self, member: Member, instance: Instance, tr: Translator, action: str, arg: object, version: object
    ) -> Reply:
        snapshot = self.manager.snapshot(instance.channel_id)
        if action not in ACTIONS:
            return Reply(400, table(snapshot, member.id, tr), tr.say(NOT_OF_THIS_GAME))
        if action == "new":
            return await self._open(member, instance, tr, snapshot)
        if snapshot is None or snapshot.version != version:
            return self._refused(409, member, instance, tr, STALE)
        if action not in moves(snapshot, member.id):
            return self._not_theirs(member, instance, tr, snapshot, action)
        if action == "hint":
            return await self._hint(member, instance, tr, snapshot)
        press = Press(
            instance.channel_id,
            snapshot.game_id,
            snapshot.seq,
            member.id,
            member.name,
            PRESSES[action],
            None if arg is None else str(arg),
        )
        outcome = await self.manager.press(press, cause=Cause.ACTIVITY)
        return self._answer(member, instance, tr, outcome)

    def _not_theirs(
        self, member: Member, instance: Instance, tr: Translator, snapshot: Snapshot, action: str
    ) -> Reply:
        """A turn's move by a member whose turn it is not is forbidden; anything else the table they saw
        did not offer is a move on an older table."""
        current = snapshot.current_seat
        turn_move = PRESSES.get(action) in TURN_ACTIONS | {None}  # the Hint too
        if snapshot.stage == "playing" and turn_move and current is not None and current.user_id != member.id:
            seated = any(seat.user_id == member.id for seat in snapshot.seats)
            reason = Message("It's {name}'s turn.", name=current.name) if seated else WATCHING
            return self._refused(403, member, instance, tr, reason)
        return self._refused(409, member, instance, tr, STALE)

    async def _hint(self, member: Member, instance: Instance, tr: Translator, snapshot: Snapshot) -> Reply:
        advice = await self.manager.hint(instance.channel_id, snapshot.game_id, member.id)
        if isinstance(advice, Message):
            return self._refused(422, member, instance, tr, advice)
        return Reply(200, self.table_for(member, instance, tr), hint_text(advice, snapshot, tr))

    async def _open(
        self, member: Member, instance: Instance, tr: Translator, snapshot: Snapshot | None
    ) -> Reply:
        """A new lobby in the instance's channel, with the server's rules (a DM's own, in a DM)."""
        if snapshot is not None and snapshot.stage in ("lobby", "playing"):
            return self._refused(409, member, instance, tr, GAME_RUNNING)
        scope = instance.guild_id or instance.channel_id
        config = await self.config.get(scope)
        settings = config.table
        if settings.language is None and instance.guild_id is None:  # no server's language in a DM
            settings = replace(settings, language=language_of(member.locale))
        host = Host(scope, instance.channel_id, member.id, member.name)
        outcome = await self.manager.open_lobby(host, config.ruleset, settings, cause=Cause.ACTIVITY)
        return self._answer(member, instance, tr, outcome)

    def _answer(self, member: Member, instance: Instance, tr: Translator, outcome: Outcome) -> Reply:
        if outcome.refusal is not None:
            status = 409 if outcome.outdated else 422
            return self._refused(status, member, instance, tr, outcome.refusal)
        if outcome.snapshot is None:
            return self._refused(422, member, instance, tr, GAME_OVER)
        return Reply(200, table(outcome.snapshot, member.id, tr))

    def _refused(
        self, status: int, member: Member, instance: Instance, tr: Translator, why: Message
    ) -> Reply:
        return Reply(status, self.table_for(member, instance, tr), tr.say(why))
