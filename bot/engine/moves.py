"""The turn toolkit every computer level and the Hint share: what the player to move sees, the legal keeps
of the roll on the table, and the action that keeps them."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.game import Action, Game
from bot.engine.game.types import PlayerState, TurnState
from bot.engine.history import Banked
from bot.engine.rules import Ruleset
from bot.engine.scoring import scoring_tables


@dataclass(frozen=True, slots=True)
class Keep:
    """A candidate keep: sorted faces (empty when rolling hot dice), points, turn total after, dice left."""

    faces: tuple[int, ...]
    points: int
    total: int
    left: int  # 0 = hot dice: six fresh dice next


@dataclass(frozen=True, slots=True)
class TurnView:
    """What every level reads from the game for the player to move."""

    player: str
    me: PlayerState
    others: tuple[PlayerState, ...]  # active players of the other sides
    turn: TurnState
    bank_from: int  # smallest turn total this side may bank


def turn_view(game: Game) -> TurnView:
    """The view of the player to move; a `ValueError` once the game is over."""
    player = game.current_player
    if player is None or game.phase == "over":
        raise ValueError("The game is over: nobody has a move to make.")
    players = game.players
    me = next(p for p in players if p.id == player)
    side = me.team if me.team is not None else me.id
    others = tuple(p for p in players if p.active and (p.team if p.team is not None else p.id) != side)
    rules = game.rules
    bank_from = max(rules.bank_minimum, 0 if me.on_board else rules.entry_minimum)
    return TurnView(player, me, others, game.turn, bank_from)


def may_bank(rules: Ruleset, view: TurnView, keep: Keep) -> bool:
    """Whether banking right after this keep is allowed (minimums, forced hot dice)."""
    return keep.total >= view.bank_from and not (keep.left == 0 and rules.hot_dice == "forced")


def legal_keeps(rules: Ruleset, view: TurnView, per_count: bool = False) -> list[Keep]:
    """Legal keeps of the roll on the table, most points first (or the best per dice kept, fewest first).

    Hot dice (no roll on the table) give the single empty keep. On a limited entry roll, keeps short of
    the entry are refused by the game, so they are left out.
    """
    t = view.turn
    if not t.roll:
        return [Keep((), 0, t.total, 0)]
    limit = rules.entry_roll_limit
    short = limit is not None and t.rolls >= limit and not view.me.on_board
    keeps: list[Keep] = []
    counts: set[int] = set()
    for option in scoring_tables(rules).options[tuple(sorted(t.roll))]:
        total = t.total + option.points
        if (short and total < rules.entry_minimum) or (per_count and len(option.dice) in counts):
            continue
        counts.add(len(option.dice))
        keeps.append(Keep(option.dice, option.points, total, len(t.roll) - len(option.dice)))
    if per_count:
        keeps.sort(key=lambda k: len(k.faces))
    return keeps


def keep_action(view: TurnView, keep: Keep, bank: bool) -> Action:
    """The action keeping these faces: positions of the first free die showing each face."""
    free = list(range(len(view.turn.roll)))
    positions = []
    for face in keep.faces:
        position = next(p for p in free if view.turn.roll[p] == face)
        free.remove(position)
        positions.append(position)
    return Action("bank" if bank else "roll", view.player, tuple(positions))


def offered_points(game: Game) -> int:
    """Points a piggyback inherits: the bonus, or the previous turn's banked total (its "banked" event)."""
    if game.rules.piggyback == "bonus":
        return game.rules.piggyback_bonus
    return next(e.points for e in reversed(game.events) if isinstance(e, Banked))
