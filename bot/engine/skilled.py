"""A computer at any skill from 20 to 100: master's choices, erring as people do, by a calibrated amount.

How it errs: every choice the player to move has (the best keep for each number of dice kept, then bank
or roll on; roll or take a piggyback offer) is valued as master values it, by the chance to win from the
win tables. People's mistakes lean one way: they bank too early with three or more dice to roll, push on
with one or two, and keep every scoring die. So each choice's appeal is its value plus `LEAN` × the
temperature × how much people lean to it (`_human`, 0..1), and one is drawn with probability
∝ exp((appeal − best appeal) / temperature): a softmax that swaps near-equal choices often and costly ones
rarely, tilted towards the human slips the review sees most. A choice giving away more than `ABSURD` of a
chance to win is never drawn, and every choice is legal (master's own list). Temperature 0 is master.

The scale's floor: even leaning all the way (always banking with three dice or more, always rolling one
or two) gives away about 1.9 % a decision, skill 21 (uniform random choices give away less: most
decisions are near-even), so skill below 20 would need absurd play, and the chosen skill starts at 20.

Where the tables don't value a moment (more than two sides, an entry roll limit while off the board, rules
without tables) the same softmax runs over the turn solver's expected points, each point worth
`POINT_WORTH / target` of a chance (the classic tables' slope near an even start: 1,000 points ≈ 15 %). A
last chance to pass a leader, an exact target within reach and six 1s that win at once are played as
expert plays them: their right move is plain, and no person misses it on purpose.

The draw is a pure function of the game: a hash of its dice source's state and its number of events, so
a seeded game replays to the same moves, and the dice themselves are never touched (a review replays the
game from its dice and actions alone).

Which temperature plays at which skill is measured (`scripts/level_skill.py --skills`, the table
`bot/assets/skill_calibration.json`, read by the session layer): `Calibration.temperature` interpolates it.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.game import Action, Game
from bot.engine.master import win_chances
from bot.engine.moves import keep_action, legal_keeps, may_bank, offered_points, turn_view
from bot.engine.policies import TurnPolicies
from bot.engine.rules import Ruleset
from bot.engine.scoring import wins_at_once
from bot.engine.strategies import Expert, points_to_beat
from bot.engine.win.tables import WinTables

LOWEST_SKILL, HIGHEST_SKILL = 20, 100
ABSURD = 0.15  # a choice giving away more of a chance to win than this is never drawn
POINT_WORTH = 1.5  # a turn point is worth about this / target of a chance to win (classic tables)
LEAN = 10.0  # how far people's leanings (`_human`) tilt a choice, in temperatures
SKILL_PREFIX = "skill:"  # a computer's level at a chosen skill: "skill:72"


def skill_level(skill: int) -> str:
    """The level name of a computer playing at `skill` (10-100): what a seat stores."""
    if not LOWEST_SKILL <= skill <= HIGHEST_SKILL:
        raise ValueError(f"A computer's skill is from {LOWEST_SKILL} to {HIGHEST_SKILL}, not {skill}.")
    return f"{SKILL_PREFIX}{skill}"


def skill_of_level(level: str) -> int | None:
    """The skill a level name plays at ("skill:72" → 72), None for a named level or a malformed one."""
    digits = level.removeprefix(SKILL_PREFIX)
    if digits == level or not digits.isdigit() or len(digits) > 3:
        return None
    skill = int(digits)
    return skill if LOWEST_SKILL <= skill <= HIGHEST_SKILL else None


@dataclass(frozen=True)
class Calibration:
    """Measured (skill, temperature) points, any order; 100 is master (temperature 0)."""

    points: tuple[tuple[float, float], ...]

    def temperature(self, skill: float) -> float:
        """The temperature that plays at `skill`: log-linear between the measured points (the measure
        falls about exponentially with the temperature), clamped to the lowest point below it."""
        if skill >= HIGHEST_SKILL or not self.points:
            return 0.0
        ordered = sorted(p for p in self.points if p[1] > 0)
        if skill <= ordered[0][0]:
            return ordered[0][1]
        for (low, cold), (high, hot) in zip(
            ordered, [*ordered[1:], (float(HIGHEST_SKILL), 0.0)], strict=True
        ):
            if low <= skill <= high:
                if hot <= 0:  # towards master: linear to 0
                    return cold * (high - skill) / (high - low)
                share = (skill - low) / (high - low)
                return math.exp(math.log(cold) + share * (math.log(hot) - math.log(cold)))
        return 0.0


class Skilled:
    """Master's choices drawn by a softmax at `temperature` (in chances to win)."""

    def __init__(
        self, rules: Ruleset, temperature: float, policies: TurnPolicies, tables: WinTables | None
    ) -> None:
        self.rules = rules
        self.temperature = temperature
        self._tables = tables
        self._expert = Expert(rules, policies)

    def choose(self, game: Game) -> Action:
        valued = self._valued(game)
        if valued is None:
            return self._expert.choose(game)
        roll = game.turn.roll
        tempting = [(v, v + LEAN * self.temperature * _human(a, roll), a) for v, a in valued]
        return drawn(tempting, self.temperature, _uniform(game))

    def _valued(self, game: Game) -> list[tuple[float, Action]] | None:
        """Each choice and its value in chances to win (points scaled), or None: play as expert."""
        advice = win_chances(game, self._tables) if self._tables is not None else None
        if advice is not None:
            return [(choice.chance, choice.action) for choice in advice.choices]
        view = turn_view(game)
        rules, t = self.rules, view.turn
        if points_to_beat(game, view) is not None or wins_at_once(t.roll, rules):
            return None
        if rules.end_rule == "exact" and not game.playoff:
            return None  # reaching the target exactly is not about points
        policy = self._expert.policy(view.me.on_board)
        worth = POINT_WORTH / rules.target
        if game.phase == "turn_start":
            choices = [(policy.expected_if_rolling(0, 6) * worth, Action("roll", view.player))]
            offer = t.piggyback_dice
            if offer is not None and any(a.kind == "piggyback" for a in game.legal_actions()):
                value = policy.expected_if_rolling(offered_points(game), offer)
                choices.append((value * worth, Action("piggyback", view.player)))
            return choices
        choices = []
        for keep in legal_keeps(rules, view, per_count=True):
            if may_bank(rules, view, keep):
                choices.append((keep.total * worth, keep_action(view, keep, True)))
            rolling = policy.expected_if_rolling(keep.total, keep.left or 6, t.rolls)
            choices.append((rolling * worth, keep_action(view, keep, False)))
        return choices


def _human(action: Action, roll: tuple[int, ...]) -> float:
    """How much people lean to a choice (0..1): banking with three or more dice to roll, rolling one or
    two, and keeping every scoring die rather than fewer."""
    left = (len(roll) - len(action.keep)) or 6
    if action.kind == "bank":
        return float(left >= 3)
    if action.kind != "roll" or not roll:
        return 0.0
    return 0.5 * (left <= 2) + 0.5 * len(action.keep) / len(roll)


def drawn(valued: Sequence[tuple[float, float, Action]], temperature: float, uniform: float) -> Action:
    """The choice the softmax over (value, appeal, action) draws at `uniform` (0..1) by appeal: the best by
    value (the first of equals) at temperature 0; never one giving away more than `ABSURD` of value."""
    best = max(value for value, _, _ in valued)
    if temperature <= 0:
        return next(action for value, _, action in valued if value == best)
    sane = [(appeal, action) for value, appeal, action in valued if best - value <= ABSURD]
    top = max(appeal for appeal, _ in sane)
    weights = [(math.exp((appeal - top) / temperature), action) for appeal, action in sane]
    point = uniform * sum(weight for weight, _ in weights)
    for weight, action in weights:
        point -= weight
        if point < 0:
            return action
    return weights[-1][1]


def _uniform(game: Game) -> float:
    """A number in [0, 1) fixed by the game's dice state and its moment: seeded games draw alike."""
    moment = json.dumps([game.dice_state(), len(game.events)], sort_keys=True)
    digest = hashlib.blake2b(moment.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64
