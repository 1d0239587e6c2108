"""The Farkle game state machine: every turn and end-of-game rule of a `Ruleset`, one action at a time.

`Game.apply` validates an action completely before changing anything, so a refused action (an
`IllegalAction` whose message can be shown to the player as is) leaves the game exactly as it was, and the
state never has to be copied. Rolls come from a `DiceSource` whose state is saved with the game: the same
seed and the same actions always replay to the same game.

`Game` is the one class the rest of the bot uses, built by composition: it owns a `GameState` (`state`:
the plain value, and its JSON; its types in `types`) and hands it to plain functions: the turn's actions
(`turn`), the checks and legal moves (`keeps`), turn order and the end of the game (`end`). Here: a new
game, its replay, restoring a saved one, dispatching an action, and what the board reads.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.engine.dice import DiceSource, dice_from_state
from bot.engine.game import keeps
from bot.engine.game.end import start_turn
from bot.engine.game.keeps import KeepPreview
from bot.engine.game.state import JSON_VERSION, GameState, member_ids, player_state, restore, saved
from bot.engine.game.turn import HANDLERS
from bot.engine.game.types import GAME_OVER, Action, GameResult, IllegalAction, Phase, PlayerState, TurnState
from bot.engine.history import Event, RollOff, event_from_row
from bot.engine.messages import Message
from bot.engine.rules import Ruleset
from bot.engine.saved import JSON

__all__ = ["Action", "Game", "IllegalAction"]  # Action and IllegalAction: imported from here across the bot


class Game:
    """A game of Farkle under one ruleset; create with `Game.new`, restore with `Game.from_json`.

    It owns its state (`GameState`) and hands it to the functions of the game's modules: the turn's
    actions (`turn.HANDLERS`), the checks and the legal moves (`keeps`), turn order and the end (`end`)."""

    __slots__ = ("_state",)

    def __init__(self, rules: Ruleset, players: Sequence[str], teams: Sequence[int] | None, dice: DiceSource):
        """Seats and sides only: `new` plays the roll-off and `from_state` restores the rest."""
        self._state = GameState(rules, players, teams, dice)

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(
        cls, rules: Ruleset, players: Sequence[str], dice: DiceSource, teams: Sequence[int] | None = None
    ) -> Game:
        """A new game: seats in the given order, then the roll-off picks who starts."""
        _check_seating(rules, players, teams)
        if rules.teams and teams is None:
            teams = [seat % rules.teams for seat in range(len(players))]  # teammates sit apart
        game = cls(rules, players, teams, dice)
        start_turn(game._state, _roll_off(game._state), None)
        return game

    @classmethod
    def replay(
        cls,
        rules: Ruleset,
        players: Sequence[str],
        dice_state: dict[str, JSON],
        actions: Sequence[Action],
        teams: Sequence[int] | None = None,
    ) -> Game:
        """The game these actions produce from this dice state (taken before `new`)."""
        game = cls.new(rules, players, dice_from_state(dice_state), teams)
        for action in actions:
            game.apply(action)
        return game

    # ------------------------------------------------------------------ actions

    def roll(self, player: str, keep: Sequence[int] = ()) -> list[Event]:
        return self.apply(Action("roll", player, tuple(keep)))

    def bank(self, player: str, keep: Sequence[int] = ()) -> list[Event]:
        return self.apply(Action("bank", player, tuple(keep)))

    def piggyback(self, player: str) -> list[Event]:
        return self.apply(Action("piggyback", player))

    def leave(self, player: str) -> list[Event]:
        return self.apply(Action("leave", player))

    def timeout(self, player: str) -> list[Event]:
        return self.apply(Action("timeout", player))

    def apply(self, action: Action) -> list[Event]:
        """Play one action and return its events; refused actions raise `IllegalAction` and change nothing."""
        state = self._state
        seat = _actor(state, action)
        start = len(state.events)
        HANDLERS[action.kind](state, seat, action.keep)
        state.history.append(action)
        return state.events[start:]

    # ------------------------------------------------------------------ what the player to move may do

    def preview(self, keep: Sequence[int]) -> KeepPreview:
        """What keeping these positions would mean, for enabling and labelling the buttons."""
        return keeps.preview(self._state, keep)

    def legal_actions(self) -> tuple[Action, ...]:
        """The current player's moves, one keep per distinct scoring selection (leave/timeout not listed),
        kept until the next action."""
        return keeps.legal_actions(self._state)

    def points_of(self, faces: tuple[int, ...]) -> int:
        """The points of keeping these sorted faces, known to score (a legal move's keep); none kept: 0."""
        return keeps.points_of(self._state, faces)

    def best_bank(self) -> tuple[tuple[int, ...], int] | None:
        """The bank that banks the most now and its turn total: what "Bank all" and a timed-out turn bank."""
        return keeps.best_bank(self._state)

    # ------------------------------------------------------------------ read-only state

    @property
    def rules(self) -> Ruleset:
        return self._state.rules

    @property
    def players(self) -> tuple[PlayerState, ...]:
        state = self._state
        return tuple(player_state(state, seat) for seat in range(len(state.ids)))

    @property
    def sides(self) -> tuple[int, ...]:
        """Banks per team when playing in teams, else per player (in seat order)."""
        return tuple(side.bank for side in self._state.sides)

    @property
    def current_player(self) -> str | None:
        state = self._state
        return None if state.seat is None else state.ids[state.seat]

    @property
    def phase(self) -> Phase:
        return self._state.phase

    @property
    def turn(self) -> TurnState:
        t = self._state.turn  # a positional copy: dataclasses.replace is several times slower
        return TurnState(
            t.total, t.roll, t.set_aside, t.dice_left, t.rolls, t.hot_dice, t.piggyback_dice, t.piggybacked
        )

    @property
    def final_round(self) -> bool:
        return self._state.final_round

    @property
    def playoff(self) -> tuple[str, ...]:
        """Players of the sides in the current playoff, in playing order (empty when there is none)."""
        state = self._state
        return tuple(pid for side in state.playoff or () for pid in member_ids(state, side))

    @property
    def result(self) -> GameResult | None:
        return self._state.result

    @property
    def history(self) -> tuple[Action, ...]:
        return tuple(self._state.history)

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event since the roll-off, in order."""
        return tuple(self._state.events)

    @property
    def turn_number(self) -> int:
        return self._state.turn_number

    @property
    def turn_rolls(self) -> int:
        """Rolls so far this turn (what `turn.rolls` says, without copying the turn)."""
        return self._state.turn.rolls

    def dice_state(self) -> dict[str, JSON]:
        """Where the game's dice stand (what a saved game keeps of them): computers at a chosen skill draw
        their choices from it, so a seeded game plays alike without touching the dice."""
        return self._state.dice.state()

    # ------------------------------------------------------------------ saving and restoring

    def to_json(self) -> str:
        """The whole game, dice state included; `Game.from_json` restores it exactly."""
        return json.dumps(self.state(), separators=(",", ":"))

    def state(self, *, events: bool = True) -> dict[str, JSON]:
        """The game as plain JSON values. Without `events` it is a third of the size: the event log is
        the same game replayed, so `from_state` rebuilds it from the dice the game started with."""
        return saved(self._state, events=events)

    @classmethod
    def from_json(cls, text: str) -> Game:
        return cls.from_state(json.loads(text))

    @classmethod
    def from_state(cls, data: dict[str, Any], dice_start: dict[str, JSON] | None = None) -> Game:
        """The game `state()` described; a state saved without its events needs `dice_start` (the dice
        source's state before `new`) to replay them."""
        if data.get("version") != JSON_VERSION:
            raise ValueError(f"Unknown saved game version {data.get('version')!r}.")
        rules = Ruleset.model_validate(data["rules"])
        game = cls(rules, data["players"], data["teams"], dice_from_state(data["dice"]))
        state = game._state
        restore(state, data)
        if "events" in data:
            state.events = [event_from_row(row) for row in data["events"]]
        elif dice_start is None:
            raise ValueError("A game saved without its events needs the dice it started with.")
        else:
            state.events = list(
                cls.replay(rules, data["players"], dice_start, state.history, data["teams"]).events
            )
        return game


def _roll_off(state: GameState) -> int:
    """Each side rolls one die; the highest starts, ties re-roll among the tied."""
    contenders = list(range(len(state.sides)))
    while True:
        faces = state.dice.roll(len(contenders))
        top = max(faces)
        leaders = [side for side, face in zip(contenders, faces, strict=True) if face == top]
        if len(leaders) == 1:
            break
        contenders = leaders
    state.events.append(RollOff(state.ids[state.sides[leaders[0]].members[0]], faces))
    return leaders[0]


def _actor(state: GameState, action: Action) -> int:
    """The acting seat, once the action is known to come from someone allowed to make it now."""
    if state.result is not None:
        raise IllegalAction(GAME_OVER)
    seat = state.seat_of.get(action.player)
    if seat is None or not state.active[seat]:
        raise IllegalAction(Message("You're not playing in this game."))
    if action.kind not in HANDLERS:
        raise IllegalAction(Message("There is no '{move}' move.", move=action.kind))
    if action.kind != "leave" and seat != state.seat:
        raise IllegalAction(Message("It's not your turn."))
    if action.keep and action.kind not in ("roll", "bank"):
        raise IllegalAction(Message("Only rolling or banking keeps dice."))
    return seat


def _check_seating(rules: Ruleset, players: Sequence[str], teams: Sequence[int] | None) -> None:
    """Refuse a table the rules can't seat, in words for the players."""
    if not rules.min_players <= len(players) <= rules.max_players:
        raise IllegalAction(
            Message(
                "This game takes {least} to {most} players.", least=rules.min_players, most=rules.max_players
            )
        )
    if len(set(players)) != len(players):
        raise IllegalAction(Message("Each player can take only one seat."))
    if teams is None:
        if rules.teams and len(players) < rules.teams:
            raise IllegalAction(Message("{teams} teams need at least {teams} players.", teams=rules.teams))
        return
    if not rules.teams:
        raise IllegalAction(Message("These rules don't play in teams."))
    if len(teams) != len(players) or set(teams) != set(range(rules.teams)):
        raise IllegalAction(
            Message(
                "Put every player in one of the {teams} teams, and every team needs a player.",
                teams=rules.teams,
            )
        )
