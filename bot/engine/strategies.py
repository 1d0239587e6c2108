"""Computer players and the Hint button's advice, as pure functions of a `Game`.

Levels, weakest first:
- easy: keeps every scoring die (the highest-scoring keep) and banks once the turn total is 300 or more.
- normal: banks by a fixed threshold per dice left (`NORMAL_BANK_FROM`); keeps the highest-scoring dice,
  but when it rolls on anyway it keeps fewer to roll three or more dice if that costs at most 100 points;
  piggybacks by a threshold per offered dice (`NORMAL_PIGGYBACK_FROM`).
- master (two players): the winning play by the solved win-probability tables (`master.py`,
  `winprob.py`); expert's play where the tables don't reach.
- expert: the exact turn policy of the solver, handed in (`TurnPolicies`; the off-board one, which plays
  for the entry, until its side is on the board), made game-aware:
  - when it must beat a leader (its final-round turn, or a playoff turn after someone posted a score) it
    maximises the chance of banking enough to pass them instead of the expected points: it never banks
    short. A tie is enough under the "share" tie rule, and under an exact target (nobody can pass it);
  - with an exact target, points past the target only go to the lowest opponent: once a bank reaches the
    target it banks at once, with the smallest keep that does (outside playoffs, which score turn totals);
  - it takes a piggyback offer when rolling the offered dice at the inherited total is worth more (by the
    same measure: expected points, or the chance to pass the leader) than a fresh turn.

Every move returned is legal: keeps reach the entry on a limited entry roll, and banks respect the entry
minimum, the bank minimum and forced hot dice. Easy never piggybacks.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, Protocol

from bot.engine.game import Action, Game
from bot.engine.history import Banked, Playoff
from bot.engine.moves import (
    Keep,
    TurnView,
    keep_action,
    legal_keeps,
    may_bank,
    offered_points,
    turn_view,
)
from bot.engine.policies import TurnPolicies
from bot.engine.reach import ReachTable
from bot.engine.rules import Ruleset
from bot.engine.scoring import farkle_chance, score_dice
from bot.engine.solver import TurnPolicy

EASY_BANK_FROM = 300
# Normal banks a turn total at or above this, by the dice it would roll next (6 = hot dice: always rolls).
# Close to the optimal policy's own thresholds under classic rules (250, 250, 400, 1000, 2900, ~10,000)
# but rounded and more cautious with five dice: its weakness is meant to be its keeps and blindness to
# the game, not wild banking.
NORMAL_BANK_FROM: dict[int, int | None] = {1: 300, 2: 300, 3: 400, 4: 1000, 5: 2000, 6: None}
NORMAL_KEEP_MORE_DICE_COST = 100
# Normal takes a piggyback offer of this many dice when it inherits at least these points (about where
# the solver's value of the piggyback passes a fresh turn under the presets).
NORMAL_PIGGYBACK_FROM: dict[int, int] = {1: 1000, 2: 750, 3: 600, 4: 450, 5: 350}


class Strategy(Protocol):
    """A computer player: the next move of `game.current_player` ("turn_start" or "choosing")."""

    def choose(self, game: Game) -> Action: ...


class Easy:
    """Keeps every scoring die; banks at 300 or more (or the minimum it needs); never piggybacks."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules

    def choose(self, game: Game) -> Action:
        view = turn_view(game)
        if game.phase == "turn_start":
            return Action("roll", view.player)
        keep = legal_keeps(self.rules, view)[0]
        return keep_action(view, keep, keep.total >= EASY_BANK_FROM and may_bank(self.rules, view, keep))


class Normal:
    """Fixed bank thresholds per dice left; prefers rolling three or more dice when that is cheap."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules

    def _banks(self, view: TurnView, keep: Keep) -> bool:
        threshold = NORMAL_BANK_FROM[keep.left or 6]
        return threshold is not None and keep.total >= threshold and may_bank(self.rules, view, keep)

    def choose(self, game: Game) -> Action:
        view = turn_view(game)
        t = view.turn
        if game.phase == "turn_start":
            offer = t.piggyback_dice
            if offer is not None and offered_points(game) >= NORMAL_PIGGYBACK_FROM[offer]:
                return Action("piggyback", view.player)
            return Action("roll", view.player)
        keeps = legal_keeps(self.rules, view)
        best = keeps[0]
        if self._banks(view, best):
            return keep_action(view, best, True)
        if 0 < best.left < 3:
            more = next((k for k in keeps if k.left == 0 or k.left >= 3), None)
            if more is not None and best.points - more.points <= NORMAL_KEEP_MORE_DICE_COST:
                return keep_action(view, more, self._banks(view, more))
        return keep_action(view, best, False)


class _Judge(Protocol):
    """Values of turn states; `TurnPolicy` (expected points) and `Chase` (chance to pass) both are one."""

    def expected_if_rolling(self, turn_total: int, dice_left: int, rolls: int = 0) -> float: ...

    def after_keep(self, turn_total: int, dice_left: int, rolls: int = 0) -> tuple[float, bool]: ...


class Chase:
    """A judge valuing states by the chance of banking at least `goal` this turn (banking only then)."""

    def __init__(self, table: ReachTable, goal: int, forced: bool) -> None:
        self.goal = goal
        self._table = table
        self._units = -(-goal // table.unit)  # in units, rounded up: totals are whole units
        self._forced = forced

    def expected_if_rolling(self, turn_total: int, dice_left: int, rolls: int = 0) -> float:
        return self._table.rolling(self._units - turn_total // self._table.unit, dice_left or 6)

    def after_keep(self, turn_total: int, dice_left: int, rolls: int = 0) -> tuple[float, bool]:
        gap = self._units - turn_total // self._table.unit
        if gap <= 0 and (dice_left or not self._forced):
            return 1.0, True
        return self._table.after(gap, dice_left), False


def points_to_beat(game: Game, view: TurnView) -> int | None:
    """Turn total needed to pass the leader when this turn is the last chance to, else None.

    In a playoff the turn totals posted in this playoff round count; in the final round the banks.
    Public because the expert plays such a turn for this goal and the game review leaves it out of the
    expected-points measure: both must agree on which turns are last chances.
    """
    rules = game.rules
    if game.playoff:
        events = game.events
        start = max(i for i, e in enumerate(events) if isinstance(e, Playoff))
        posted = [e.points for e in events[start:] if isinstance(e, Banked)]
        return max(posted) + 1 if posted else None
    if not game.final_round or not view.others:
        return None
    goal = max(p.bank for p in view.others) + (0 if rules.tie_rule == "share" else 1)
    if rules.end_rule == "exact":
        goal = min(goal, rules.target)
    need = goal - view.me.bank
    return need if need > 0 else None


def last_chance(game: Game, view: TurnView, reach: ReachTable) -> Chase | None:
    """The chance-to-pass judge of a last chance to pass the leader (`points_to_beat`), else None.

    Its goal is at least what a bank needs now (the entry or bank minimum). Public because the expert
    plays such a turn by it and the game review values those decisions by it: one measure for both.
    """
    need = points_to_beat(game, view)
    if need is None:
        return None
    rules = game.rules
    return Chase(reach, max(need, view.bank_from), rules.hot_dice == "forced")


class Expert:
    """The solver's policy, game-aware in final rounds, playoffs, exact targets and piggyback offers."""

    def __init__(self, rules: Ruleset, policies: TurnPolicies) -> None:
        self.rules = rules
        self._policies = policies.serve(rules)

    def policy(self, on_board: bool) -> TurnPolicy:
        return self._policies.policy(on_board)

    def _judge(self, game: Game, view: TurnView) -> _Judge:
        return last_chance(game, view, self._policies.reach) or self.policy(view.me.on_board)

    def choose(self, game: Game) -> Action:
        view = turn_view(game)
        t = view.turn
        judge = self._judge(game, view)
        if game.phase == "turn_start":
            offer = t.piggyback_dice
            if offer is not None and judge.expected_if_rolling(offered_points(game), offer) > (
                judge.expected_if_rolling(0, 6)
            ):
                return Action("piggyback", view.player)
            return Action("roll", view.player)
        if self.rules.six_ones_instant_win and t.roll == (1,) * 6:
            return keep_action(view, Keep(t.roll, 0, t.total, 0), True)  # wins the game at once
        keeps = legal_keeps(self.rules, view, per_count=True)
        if self.rules.end_rule == "exact" and not game.playoff:
            to_target = self.rules.target - view.me.bank
            reaching = [k for k in keeps if k.total >= to_target and may_bank(self.rules, view, k)]
            if reaching:
                return keep_action(view, min(reaching, key=lambda k: (k.points, len(k.faces))), True)
        best, best_value, bank = keeps[0], float("-inf"), False
        for keep in keeps:  # fewest dice first: ties keep fewer, as the solver does
            value, banks = judge.after_keep(keep.total, keep.left, t.rolls)
            if value > best_value:
                best, best_value, bank = keep, value, banks
        return keep_action(view, best, bank)


@dataclass(frozen=True)
class Advice:
    """The Hint button's answer for the player to move: the expert's move and the turn's odds.

    `keep` holds positions in the roll on the table (empty at turn start). The numbers are the
    turn's expected points (the solver's), even when the recommendation is game-aware (chasing a leader
    in the final round); `bank_points` is None when banking is not allowed now.
    """

    keep: tuple[int, ...]
    keep_points: int
    turn_total: int  # after the keep
    dice_to_roll: int  # by the next roll: dice left, 6 for hot dice or a fresh turn, or the offered dice
    expected_if_rolling: float  # expected final turn total when rolling on after the keep
    bank_points: int | None
    recommendation: Literal["roll", "bank", "piggyback"]
    farkle_chance: Fraction  # exact chance the next roll (`dice_to_roll` dice) scores nothing


def advise(game: Game, policies: TurnPolicies) -> Advice:
    """What the expert would do now, with the expected values and Farkle chance behind it."""
    expert = Expert(game.rules, policies)
    action = expert.choose(game)
    view = turn_view(game)
    policy = expert.policy(view.me.on_board)
    t = view.turn
    rules = game.rules
    if game.phase == "turn_start":
        if action.kind == "piggyback" and t.piggyback_dice is not None:
            n, inherited = t.piggyback_dice, offered_points(game)
            expected = policy.expected_if_rolling(inherited, n)
            return Advice((), 0, 0, n, expected, None, "piggyback", farkle_chance(n, rules))
        return Advice((), 0, 0, 6, policy.expected_if_rolling(0, 6), None, "roll", farkle_chance(6, rules))
    faces = tuple(sorted(t.roll[p] for p in action.keep))
    points = score_dice(faces, rules) or 0
    keep = Keep(faces, points, t.total + points, len(t.roll) - len(faces))
    n = keep.left or 6
    return Advice(
        action.keep,
        points,
        keep.total,
        n,
        policy.expected_if_rolling(keep.total, n, t.rolls),
        keep.total if may_bank(rules, view, keep) else None,
        "bank" if action.kind == "bank" else "roll",
        farkle_chance(n, rules),
    )
