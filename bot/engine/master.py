"""The `master` computer player and the Hint's winning chances: the two-player win tables in play.

Master plays to win the game, not the turn: every choice (which dice to keep, bank or roll on, piggyback)
is the one with the highest chance to win by `winprob`'s tables. Where the tables don't reach (more than
two sides, the final round and play-offs, an entry roll limit while off the board, rules without tables,
tables not solved yet, six 1s that win at once) it plays as `expert`, whose chase of a leader is already
the winning play of a last turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.engine.game import Action, Game
from bot.engine.messages import Message
from bot.engine.moves import keep_action, legal_keeps, may_bank, offered_points, turn_view
from bot.engine.rules import Ruleset
from bot.engine.scoring import wins_at_once
from bot.engine.strategies import Expert
from bot.engine.win.tables import WinTables, table_key, unsupported


@dataclass(frozen=True)
class WinChoice:
    """One thing the player to move can do, and the chance to win the game after it."""

    kind: Literal["roll", "bank", "piggyback"]
    keep: tuple[int, ...]  # faces set aside first (empty at turn start)
    turn_total: int  # after the keep (or inherited, for a piggyback)
    dice: int  # dice the roll throws (0 when banking)
    chance: float
    action: Action


@dataclass(frozen=True)
class WinAdvice:
    """Every choice, the best first."""

    choices: tuple[WinChoice, ...]

    @property
    def best(self) -> WinChoice:
        return self.choices[0]


def plays_as_expert(rules: Ruleset, sides: int) -> Message | None:
    """Why master would play as expert for a whole game of `sides` sides under `rules`, or None."""
    if rules.teams or sides > 2:
        return Message("🧠 Master plays as expert with more than two players.")
    reason = unsupported(rules)
    return Message("🧠 Master plays as expert under {reason}.", reason=reason) if reason else None


def modelled(game: Game, tables: WinTables) -> bool:
    """Whether the tables value this moment: two sides, before the final round, inside the table."""
    rules = game.rules
    if tables.key != table_key(rules) or game.phase == "over" or game.final_round or game.playoff:
        return False
    if rules.teams or len(game.sides) != 2:
        return False
    view = turn_view(game)
    if len(view.others) != 1:
        return False
    if rules.entry_roll_limit is not None and not view.me.on_board:
        return False
    if wins_at_once(view.turn.roll, rules):
        return False  # expert keeps them and wins
    return tables.covers(view.me.bank) and tables.covers(view.others[0].bank)


def win_chances(game: Game, tables: WinTables | None) -> WinAdvice | None:
    """The chance to win after each choice the player to move has, or None where the tables don't reach
    (or there are none yet)."""
    if tables is None or not modelled(game, tables):
        return None
    rules, view = game.rules, turn_view(game)
    mine, theirs = view.me.farkle_streak, view.others[0].farkle_streak
    bank, other = view.me.bank, view.others[0].bank
    t = view.turn
    choices: list[WinChoice] = []
    if game.phase == "turn_start":  # a fresh turn's chance is in the table: no turn to solve
        fresh = tables.value(bank, other, mine, theirs)
        choices.append(WinChoice("roll", (), 0, 6, fresh, Action("roll", view.player)))
        offer = t.piggyback_dice
        if offer is not None and any(a.kind == "piggyback" for a in game.legal_actions()):
            inherited = offered_points(game)
            chance = tables.turn(bank, other, mine, theirs).rolling(inherited, offer)
            choices.append(
                WinChoice("piggyback", (), inherited, offer, chance, Action("piggyback", view.player))
            )
    else:
        turn = tables.turn(bank, other, mine, theirs)
        for keep in legal_keeps(rules, view, per_count=True):
            if may_bank(rules, view, keep):
                action = keep_action(view, keep, True)
                choices.append(WinChoice("bank", keep.faces, keep.total, 0, turn.bank(keep.total), action))
            dice = keep.left or 6
            chance = turn.rolling(keep.total, dice)
            choices.append(
                WinChoice("roll", keep.faces, keep.total, dice, chance, keep_action(view, keep, False))
            )
    choices.sort(key=lambda choice: -choice.chance)  # stable: banking first on a tie
    return WinAdvice(tuple(choices))


def chance_to_win(game: Game, tables: WinTables | None) -> float | None:
    """The chance the player to move wins from this moment, playing on as well as possible (their best
    choice's chance), or None where the tables don't reach. A move's cost is this before it minus the
    chance of the choice made (`win_chances`)."""
    advice = win_chances(game, tables)
    return advice.best.chance if advice is not None else None


class Master:
    """The winning play by the tables; expert's where they don't reach."""

    def __init__(self, expert: Expert, tables: WinTables | None) -> None:
        self._expert = expert
        self._tables = tables

    def choose(self, game: Game) -> Action:
        advice = win_chances(game, self._tables) if self._tables is not None else None
        return advice.best.action if advice is not None else self._expert.choose(game)
