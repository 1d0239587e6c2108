"""The Farkle game state machine: every turn and end-of-game rule of a `Ruleset`, one action at a time.

`Game.apply` validates an action completely before changing anything, so a refused action (an
`IllegalAction` whose message can be shown to the player as is) leaves the game exactly as it was, and the
state never has to be copied. Rolls come from a `DiceSource` whose state is saved with the game: the same
seed and the same actions always replay to the same game.

`Game` puts the layers together and is the one class the rest of the bot uses: its state and JSON
(`gamestate`, its types in `gametypes`), the checks (`gamekeeps`), turn order and the end of the game
(`gameend`) and the turn's actions (`gameturn`). Here: a new game, its replay, restoring a saved one, and
dispatching an action.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from bot.engine.dice import DiceSource, dice_from_state
from bot.engine.game.state import JSON_VERSION
from bot.engine.game.turn import GameTurn
from bot.engine.game.types import GAME_OVER, Action, IllegalAction
from bot.engine.history import Event, RollOff, event_from_row
from bot.engine.messages import Message
from bot.engine.rules import Ruleset
from bot.engine.saved import JSON

__all__ = ["Action", "Game", "IllegalAction"]  # Action and IllegalAction: imported from here across the bot


class Game(GameTurn):
    """A game of Farkle under one ruleset; create with `Game.new`, restore with `Game.from_json`."""

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
        game._start_turn(game._roll_off(), None)
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

    def _roll_off(self) -> int:
        """Each side rolls one die; the highest starts, ties re-roll among the tied."""
        contenders = list(range(len(self._sides)))
        while True:
            faces = self._dice.roll(len(contenders))
            top = max(faces)
            leaders = [side for side, face in zip(contenders, faces, strict=True) if face == top]
            if len(leaders) == 1:
                break
            contenders = leaders
        self._events.append(RollOff(self._ids[self._sides[leaders[0]].members[0]], faces))
        return leaders[0]

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
        seat = self._actor(action)
        start = len(self._events)
        _HANDLERS[action.kind](self, seat, action.keep)
        self._history.append(action)
        return self._events[start:]

    def _actor(self, action: Action) -> int:
        """The acting seat, once the action is known to come from someone allowed to make it now."""
        if self._result is not None:
            raise IllegalAction(GAME_OVER)
        seat = self._seat_of.get(action.player)
        if seat is None or not self._active[seat]:
            raise IllegalAction(Message("You're not playing in this game."))
        if action.kind not in _HANDLERS:
            raise IllegalAction(Message("There is no '{move}' move.", move=action.kind))
        if action.kind != "leave" and seat != self._seat:
            raise IllegalAction(Message("It's not your turn."))
        if action.keep and action.kind not in ("roll", "bank"):
            raise IllegalAction(Message("Only rolling or banking keeps dice."))
        return seat

    # ------------------------------------------------------------------ restoring

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
        game._restore(data)
        if "events" in data:
            game._events = [event_from_row(row) for row in data["events"]]
        elif dice_start is None:
            raise ValueError("A game saved without its events needs the dice it started with.")
        else:
            game._events = list(
                cls.replay(rules, data["players"], dice_start, game._history, data["teams"]).events
            )
        return game


_HANDLERS: dict[str, Callable[[GameTurn, int, tuple[int, ...]], None]] = {
    "roll": GameTurn._do_roll,
    "bank": GameTurn._do_bank,
    "piggyback": GameTurn._do_piggyback,
    "leave": GameTurn._do_leave,
    "timeout": GameTurn._do_timeout,
}


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
