"""The state of a game of Farkle: seats, sides, the turn in progress and the result, as one plain value,
and the JSON that saves and restores all of it.

Scores belong to *sides*: a side is one player, or one team whose members share a bank and take the
side's turns in rotation. `GameState` only holds; the functions of the modules above it read and change
it (`keeps`, `end`, `turn`), and `Game` (the package) owns one; the types it holds are in `types`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from bot.engine.dice import DiceSource
from bot.engine.game.types import Action, ActionKind, EndReason, GameResult, Phase, PlayerState, TurnState
from bot.engine.history import Event, event_row
from bot.engine.rules import Ruleset
from bot.engine.saved import JSON, json_int, json_list
from bot.engine.scoring import scoring_tables

JSON_VERSION = 1


@dataclass(slots=True)
class Side:
    """A scoring unit: one player, or a team sharing one bank."""

    members: tuple[int, ...]
    bank: int = 0
    on_board: bool = False
    farkle_streak: int = 0
    safe: bool = False
    active: bool = True
    up: int = 0  # index in members of the next to play


@lru_cache(maxsize=256)
def _interned(rules: Ruleset) -> Ruleset:
    """One instance per distinct ruleset, so a reloaded game reuses the scoring tables built for it."""
    return rules


class GameState:
    """Everything a game holds, as plain fields: `Game` owns one, and the functions of the game's modules
    (`keeps`, `end`, `turn`) read and change it. Seats and sides only at first: `Game.new` plays the
    roll-off and `restore` takes back the rest."""

    __slots__ = (
        "active",
        "dice",
        "entry_limit",
        "events",
        "final_round",
        "history",
        "ids",
        "legal",
        "offer_points",
        "pending",
        "phase",
        "pid",
        "playoff",
        "playoff_scores",
        "reached",
        "result",
        "rules",
        "seat",
        "seat_of",
        "side",
        "side_of",
        "sides",
        "strikes",
        "tables",
        "teams",
        "turn",
        "turn_number",
    )  # fmt: skip

    def __init__(self, rules: Ruleset, players: Sequence[str], teams: Sequence[int] | None, dice: DiceSource):
        self.rules = _interned(rules)
        self.tables = scoring_tables(self.rules)
        self.entry_limit = self.rules.entry_roll_limit
        self.ids = tuple(players)
        self.seat_of = {pid: seat for seat, pid in enumerate(self.ids)}
        self.teams = tuple(teams) if teams is not None else None
        self.side_of: tuple[int, ...] = tuple(range(len(self.ids))) if self.teams is None else self.teams
        count = max(self.side_of) + 1
        self.sides = [
            Side(tuple(s for s, side in enumerate(self.side_of) if side == index)) for index in range(count)
        ]
        for side in self.sides:
            side.on_board = self.rules.entry_minimum == 0
        self.strikes = [0] * len(self.ids)
        self.active = [True] * len(self.ids)
        self.dice = dice
        self.phase: Phase = "turn_start"
        self.side = 0
        self.seat: int | None = None
        self.pid = ""  # id of the seat to play, kept beside it for the hot path
        self.turn = TurnState()
        self.offer_points = 0
        self.final_round = False
        self.pending: list[int] | None = None  # sides still owed a turn (final round, playoff)
        self.reached: list[int] = []  # sides in the order they reached the target
        self.playoff: list[int] | None = None
        self.playoff_scores: dict[int, int] = {}
        self.result: GameResult | None = None
        self.turn_number = 0
        self.history: list[Action] = []
        self.legal: tuple[int, tuple[Action, ...]] | None = None  # the moves after that many actions
        self.events: list[Event] = []


def player_state(s: GameState, seat: int) -> PlayerState:
    """One seat as the board shows it."""
    side = s.sides[s.side_of[seat]]
    team = s.teams[seat] if s.teams is not None else None
    return PlayerState(
        s.ids[seat],
        side.bank,
        side.on_board,
        side.farkle_streak,
        s.strikes[seat],
        team,
        s.active[seat],
        side.safe,
    )


def member_ids(s: GameState, side: int) -> tuple[str, ...]:
    """The ids of a side's players still in the game, in seat order."""
    return tuple(s.ids[m] for m in s.sides[side].members if s.active[m])


# ---------------------------------------------------------------------- JSON


def saved(s: GameState, *, events: bool = True) -> dict[str, JSON]:
    """The game as plain JSON values. Without `events` it is a third of the size: the event log is the
    same game replayed, so `Game.from_state` rebuilds it from the dice the game started with."""
    t = s.turn
    state: dict[str, JSON] = {
        "version": JSON_VERSION,
        "rules": s.rules.model_dump(mode="json"),
        "players": list(s.ids),
        "teams": None if s.teams is None else list(s.teams),
        "sides": [
            [side.bank, side.on_board, side.farkle_streak, side.safe, side.active, side.up]
            for side in s.sides
        ],
        "strikes": list(s.strikes),
        "active": list(s.active),
        "dice": s.dice.state(),
        "phase": s.phase,
        "side": s.side,
        "seat": s.seat,
        "turn": [
            t.total,
            list(t.roll),
            list(t.set_aside),
            t.dice_left,
            t.rolls,
            t.hot_dice,
            t.piggyback_dice,
            t.piggybacked,
        ],
        "offer_points": s.offer_points,
        "final_round": s.final_round,
        "pending": None if s.pending is None else list(s.pending),
        "reached": list(s.reached),
        "playoff": None if s.playoff is None else list(s.playoff),
        "playoff_scores": [[side, score] for side, score in s.playoff_scores.items()],
        "result": None if s.result is None else _result_to_json(s.result),
        "turn_number": s.turn_number,
        # Rows rather than dicts: the log is most of a saved game, and it is saved after every move.
        "history": [[a.kind, a.player, list(a.keep)] for a in s.history],
    }
    if events:
        state["events"] = [event_row(e) for e in s.events]
    return state


def restore(s: GameState, data: dict[str, Any]) -> None:
    """Take back everything `saved` wrote but the seats, rules, dice and events (set by `Game`)."""
    s.sides = [Side(side.members, *kept) for side, kept in zip(s.sides, data["sides"], strict=True)]
    s.strikes = list(data["strikes"])
    s.active = list(data["active"])
    s.phase = data["phase"]
    s.side = data["side"]
    s.seat = data["seat"]
    s.pid = "" if s.seat is None else s.ids[s.seat]
    total, roll, set_aside, *rest = data["turn"]
    s.turn = TurnState(total, tuple(roll), tuple(set_aside), *rest)
    s.offer_points = data["offer_points"]
    s.final_round = data["final_round"]
    s.pending = data["pending"]
    s.reached = data["reached"]
    s.playoff = data["playoff"]
    s.playoff_scores = {side: score for side, score in data["playoff_scores"]}
    s.result = None if data["result"] is None else _result_from_json(data["result"])
    s.turn_number = data["turn_number"]
    # Interned: the actions of a game read back share their players' ids and kinds, as a live game's do,
    # rather than hold a copy each (120 bytes an action, for the life of the game).
    s.history = [
        Action(cast(ActionKind, sys.intern(kind)), sys.intern(player), tuple(keep))
        for kind, player, keep in data["history"]
    ]
    s.legal = None


def _result_to_json(result: GameResult) -> JSON:
    return {
        "winners": list(result.winners),
        "placements": [list(group) for group in result.placements],
        "banks": dict(result.banks),
        "reason": result.reason,
    }


def _result_from_json(data: dict[str, JSON]) -> GameResult:
    placements = tuple(tuple(str(p) for p in json_list(group)) for group in json_list(data["placements"]))
    banks = {str(pid): json_int(bank) for pid, bank in cast(dict[str, JSON], data["banks"]).items()}
    winners = tuple(str(p) for p in json_list(data["winners"]))
    return GameResult(winners, placements, banks, cast(EndReason, data["reason"]))
