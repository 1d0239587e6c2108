"""The state of a game of Farkle: seats, sides, the turn in progress and the result, read-only views of
them for the board, and the JSON that saves and restores all of it.

Scores belong to *sides*: a side is one player, or one team whose members share a bank and take the
side's turns in rotation. `GameState` only holds and shows; the modules above it change it
(`gameend`, `gamekeeps`, `gameturn`, and `game`, which puts them together); the types it holds are
in `gametypes`.
"""

from __future__ import annotations

import json
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
class _Side:
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
    """A game's state under one ruleset, and what the board reads of it; `Game` plays it."""

    def __init__(self, rules: Ruleset, players: Sequence[str], teams: Sequence[int] | None, dice: DiceSource):
        """Seats and sides only; `new` plays the roll-off and `from_json` restores the rest."""
        self._rules = _interned(rules)
        self._tables = scoring_tables(self._rules)
        self._entry_limit = self._rules.entry_roll_limit
        self._ids = tuple(players)
        self._seat_of = {pid: seat for seat, pid in enumerate(self._ids)}
        self._teams = tuple(teams) if teams is not None else None
        if self._teams is None:
            self._side_of: tuple[int, ...] = tuple(range(len(self._ids)))
        else:
            self._side_of = self._teams
        count = max(self._side_of) + 1
        self._sides = [
            _Side(tuple(s for s, side in enumerate(self._side_of) if side == index)) for index in range(count)
        ]
        for side in self._sides:
            side.on_board = self._rules.entry_minimum == 0
        self._strikes = [0] * len(self._ids)
        self._active = [True] * len(self._ids)
        self._dice = dice
        self._phase: Phase = "turn_start"
        self._side = 0
        self._seat: int | None = None
        self._pid = ""  # id of the seat to play, kept beside it for the hot path
        self._turn = TurnState()
        self._offer_points = 0
        self._final_round = False
        self._pending: list[int] | None = None  # sides still owed a turn (final round, playoff)
        self._reached: list[int] = []  # sides in the order they reached the target
        self._playoff: list[int] | None = None
        self._playoff_scores: dict[int, int] = {}
        self._result: GameResult | None = None
        self._turn_number = 0
        self._history: list[Action] = []
        self._legal: tuple[int, tuple[Action, ...]] | None = None  # the moves after that many actions
        self._events: list[Event] = []

    # ------------------------------------------------------------------ read-only state

    @property
    def rules(self) -> Ruleset:
        return self._rules

    @property
    def players(self) -> tuple[PlayerState, ...]:
        return tuple(self._player_state(seat) for seat in range(len(self._ids)))

    def _player_state(self, seat: int) -> PlayerState:
        side = self._sides[self._side_of[seat]]
        team = self._teams[seat] if self._teams is not None else None
        return PlayerState(
            self._ids[seat],
            side.bank,
            side.on_board,
            side.farkle_streak,
            self._strikes[seat],
            team,
            self._active[seat],
            side.safe,
        )

    @property
    def sides(self) -> tuple[int, ...]:
        """Banks per team when playing in teams, else per player (in seat order)."""
        return tuple(side.bank for side in self._sides)

    @property
    def current_player(self) -> str | None:
        return None if self._seat is None else self._ids[self._seat]

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def turn(self) -> TurnState:
        t = self._turn  # a positional copy: dataclasses.replace is several times slower
        return TurnState(
            t.total, t.roll, t.set_aside, t.dice_left, t.rolls, t.hot_dice, t.piggyback_dice, t.piggybacked
        )

    @property
    def final_round(self) -> bool:
        return self._final_round

    @property
    def playoff(self) -> tuple[str, ...]:
        """Players of the sides in the current playoff, in playing order (empty when there is none)."""
        return tuple(pid for side in self._playoff or () for pid in self._member_ids(side))

    @property
    def result(self) -> GameResult | None:
        return self._result

    @property
    def history(self) -> tuple[Action, ...]:
        return tuple(self._history)

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event since the roll-off, in order."""
        return tuple(self._events)

    @property
    def turn_number(self) -> int:
        return self._turn_number

    @property
    def turn_rolls(self) -> int:
        """Rolls so far this turn (what `turn.rolls` says, without copying the turn)."""
        return self._turn.rolls

    def _member_ids(self, s: int) -> tuple[str, ...]:
        return tuple(self._ids[m] for m in self._sides[s].members if self._active[m])

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> str:
        """The whole game, dice state included; `Game.from_json` restores it exactly."""
        return json.dumps(self.state(), separators=(",", ":"))

    def state(self, *, events: bool = True) -> dict[str, JSON]:
        """The game as plain JSON values. Without `events` it is a third of the size: the event log is
        the same game replayed, so `from_state` rebuilds it from the dice the game started with."""
        t = self._turn
        state: dict[str, JSON] = {
            "version": JSON_VERSION,
            "rules": self._rules.model_dump(mode="json"),
            "players": list(self._ids),
            "teams": None if self._teams is None else list(self._teams),
            "sides": [
                [side.bank, side.on_board, side.farkle_streak, side.safe, side.active, side.up]
                for side in self._sides
            ],
            "strikes": list(self._strikes),
            "active": list(self._active),
            "dice": self._dice.state(),
            "phase": self._phase,
            "side": self._side,
            "seat": self._seat,
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
            "offer_points": self._offer_points,
            "final_round": self._final_round,
            "pending": None if self._pending is None else list(self._pending),
            "reached": list(self._reached),
            "playoff": None if self._playoff is None else list(self._playoff),
            "playoff_scores": [[s, score] for s, score in self._playoff_scores.items()],
            "result": None if self._result is None else _result_to_json(self._result),
            "turn_number": self._turn_number,
            # Rows rather than dicts: the log is most of a saved game, and it is saved after every move.
            "history": [[a.kind, a.player, list(a.keep)] for a in self._history],
        }
        if events:
            state["events"] = [event_row(e) for e in self._events]
        return state

    def _restore(self, data: dict[str, Any]) -> None:
        """Take back everything `state()` saved but the seats, rules, dice and events (set by `Game`)."""
        self._sides = [
            _Side(side.members, *saved) for side, saved in zip(self._sides, data["sides"], strict=True)
        ]
        self._strikes = list(data["strikes"])
        self._active = list(data["active"])
        self._phase = data["phase"]
        self._side = data["side"]
        self._seat = data["seat"]
        self._pid = "" if self._seat is None else self._ids[self._seat]
        total, roll, set_aside, *rest = data["turn"]
        self._turn = TurnState(total, tuple(roll), tuple(set_aside), *rest)
        self._offer_points = data["offer_points"]
        self._final_round = data["final_round"]
        self._pending = data["pending"]
        self._reached = data["reached"]
        self._playoff = data["playoff"]
        self._playoff_scores = {s: score for s, score in data["playoff_scores"]}
        self._result = None if data["result"] is None else _result_from_json(data["result"])
        self._turn_number = data["turn_number"]
        # Interned: the actions of a game read back share their players' ids and kinds, as a live game's
        # do, rather than hold a copy each (120 bytes an action, for the life of the game).
        self._history = [
            Action(cast(ActionKind, sys.intern(kind)), sys.intern(player), tuple(keep))
            for kind, player, keep in data["history"]
        ]
        self._legal = None


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
