"""The ruleset: every house rule in RULES.md as one frozen, validated, JSON-able value.

Validation speaks to server admins: every refusal is a `RulesError` whose message is a sentence
that can be shown as is.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from bot.engine.errors import UserFacingError
from bot.engine.messages import N_, Listing, Message, Param
from bot.engine.values import OFF_WORDS, number, switch, typed

PRESET_NAMES: tuple[str, ...] = ("classic", "box", "doubling", "last-loses", "family")

NOfAKind = Literal["none", "doubling", "multiples", "high_multiples", "fixed"]
Group = Literal["Scoring", "Turn", "End of game"]


class RulesError(UserFacingError):
    """A refused ruleset or option; the message is a sentence fit for a server admin."""


@dataclass(frozen=True)
class OptionSpec:
    """One settable rule, as the config commands list it."""

    name: str
    group: Group
    description: str  # a message id, translated where it is shown
    choices: tuple[str, ...] | None
    allowed: Param  # sentence tail: "<name> takes <allowed>."


_Kind = Literal["int", "optional_int", "bool", "choice"]
_CHECKS: dict[str, Callable[[Any], bool]] = {}
_KINDS: dict[str, _Kind] = {}
_OPTIONS: dict[str, OptionSpec] = {}
ON_OR_OFF = Listing(("on", "off"))


def _one_of(
    values: tuple[int, ...], optional: bool
) -> tuple[Callable[[Any], bool], Listing, tuple[str, ...]]:
    words = (("off",) if optional else ()) + tuple(str(v) for v in values)
    return (lambda v: (optional and v is None) or v in values), Listing(words), words


def _step(step: int, lo: int, hi: int, optional: bool = False) -> tuple[Callable[[Any], bool], Message]:
    def check(v: Any) -> bool:
        if v is None:
            return optional
        return isinstance(v, int) and lo <= v <= hi and v % step == 0

    if lo == 0:
        return check, Message("0 (off) or a multiple of {step} up to {most}", step=step, most=hi)
    if optional:
        text = N_("off or a multiple of {step} from {least} to {most}")
    else:
        text = N_("a multiple of {step} from {least} to {most}")
    return check, Message(text, step=step, least=lo, most=hi)


def _option(
    name: str,
    group: Group,
    description: str,
    kind: _Kind,
    check: Callable[[Any], bool],
    allowed: Param,
    choices: tuple[str, ...] | None = None,
) -> None:
    _OPTIONS[name] = OptionSpec(name, group, description, choices, allowed)
    _CHECKS[name] = check
    _KINDS[name] = kind


def _choice(name: str, group: Group, description: str, values: tuple[str, ...]) -> None:
    _option(name, group, description, "choice", lambda v: v in values, Listing(values), values)


def _flag(name: str, group: Group, description: str) -> None:
    _option(name, group, description, "bool", lambda v: isinstance(v, bool), ON_OR_OFF, ("on", "off"))


def _discrete(name: str, group: Group, description: str, values: tuple[int, ...], optional: bool) -> None:
    check, allowed, words = _one_of(values, optional)
    _option(name, group, description, "optional_int" if optional else "int", check, allowed, words)


def _ranged(
    name: str, group: Group, description: str, step: int, lo: int, hi: int, optional: bool = False
) -> None:
    check, allowed = _step(step, lo, hi, optional)
    _option(name, group, description, "optional_int" if optional else "int", check, allowed)


_ranged("single_one", "Scoring", N_("Points for a single 1."), 50, 50, 1000)
_ranged("single_five", "Scoring", N_("Points for a single 5."), 50, 50, 1000)
_discrete(
    "three_ones",
    "Scoring",
    N_("Points for three 1s (other triples are 100 times the face)."),
    (200, 300, 1000),
    False,
)
_choice(
    "n_of_a_kind",
    "Scoring",
    N_(
        "How four, five and six of a kind score: none (a triple plus singles), doubling (x2, x4, x8 the "
        "triple), multiples (x2, x3, x4), high_multiples (x4, x6, x8) or fixed (1,000 / 2,000 / 3,000)."
    ),
    ("none", "doubling", "multiples", "high_multiples", "fixed"),
)
_ranged("six_of_a_kind", "Scoring", N_("Fixed points for six of any face."), 500, 1000, 10000, optional=True)
_ranged("six_ones", "Scoring", N_("Fixed points for six 1s."), 500, 1000, 10000, optional=True)
_flag("six_ones_instant_win", "Scoring", N_("Keeping six 1s from one roll wins the game at once."))
_discrete(
    "straight", "Scoring", N_("Points for a straight 1-2-3-4-5-6."), (1000, 1500, 2000, 2500, 3000), True
)
_discrete("three_pairs", "Scoring", N_("Points for three pairs."), (300, 500, 600, 750, 1000, 1500), True)
_discrete("four_and_pair", "Scoring", N_("Points for four of a kind with a pair."), (1500,), True)
_discrete("two_triplets", "Scoring", N_("Points for two triplets."), (2000, 2500), True)
_ranged(
    "penalty_roll",
    "Scoring",
    N_("Points (negative) for rolling five 6s and a 1 with six dice; the turn ends."),
    500,
    -10000,
    -500,
    optional=True,
)
_ranged("entry_minimum", "Turn", N_("Points needed in one turn to get on the board."), 50, 0, 2000)
_ranged(
    "entry_roll_limit",
    "Turn",
    N_("Rolls of the turn within which the entry minimum must be reached."),
    1,
    1,
    10,
    True,
)
_ranged("bank_minimum", "Turn", N_("Smallest turn total that may be banked, on every turn."), 50, 0, 2000)
_choice(
    "hot_dice",
    "Turn",
    N_("After all six dice score: optional or forced re-roll of six dice."),
    ("optional", "forced"),
)
_choice(
    "three_farkles",
    "Turn",
    N_("Penalty for three Farkles in a row: none, minus_1000 or reset."),
    ("none", "minus_1000", "reset"),
)
_choice(
    "piggyback",
    "Turn",
    N_("Rolling the dice the previous player left: off, previous_points (inherit their turn) or bonus."),
    ("off", "previous_points", "bonus"),
)
_ranged(
    "piggyback_bonus",
    "Turn",
    N_("Points added by a scoring piggyback roll under the bonus rule."),
    50,
    50,
    5000,
)
_flag(
    "piggyback_needs_all_on_board",
    "Turn",
    N_("Piggybacking is allowed only once every player is on the board."),
)
_ranged("target", "End of game", N_("Score that ends the game."), 500, 1000, 100000)
_choice(
    "end_rule",
    "End of game",
    N_("highest (final round, highest wins), last_loses (the last to reach the target loses) or exact."),
    ("highest", "last_loses", "exact"),
)
_choice(
    "tie_rule", "End of game", N_("Ties at the top: playoff turns or share the win."), ("playoff", "share")
)
_option(
    "teams",
    "End of game",
    N_("Number of teams sharing a score (0 = everyone for themselves)."),
    "int",
    lambda v: v in (0, 2, 3, 4),
    Listing((Message("0 (no teams)"), "2", "3", "4")),
    ("0", "2", "3", "4"),
)
_ranged("min_players", "End of game", N_("Fewest players to start a game."), 1, 2, 8)
_ranged("max_players", "End of game", N_("Most players in one game."), 1, 2, 8)

OPTIONS: Mapping[str, OptionSpec] = _OPTIONS
_KEY_GROUPS: tuple[Group, ...] = ("Scoring", "Turn")


class Ruleset(BaseModel):
    """Every option of one server's game; frozen and hashable, so derived tables can hang off it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "custom"
    single_one: int = 100
    single_five: int = 50
    three_ones: int = 1000
    n_of_a_kind: NOfAKind = "none"
    six_of_a_kind: int | None = None
    six_ones: int | None = None
    six_ones_instant_win: bool = False
    straight: int | None = 1000
    three_pairs: int | None = None
    four_and_pair: int | None = None
    two_triplets: int | None = None
    penalty_roll: int | None = None
    target: int = 10000
    entry_minimum: int = 0
    entry_roll_limit: int | None = None
    bank_minimum: int = 0
    hot_dice: Literal["optional", "forced"] = "optional"
    three_farkles: Literal["none", "minus_1000", "reset"] = "none"
    piggyback: Literal["off", "previous_points", "bonus"] = "off"
    piggyback_bonus: int = 1000
    piggyback_needs_all_on_board: bool = False
    end_rule: Literal["highest", "last_loses", "exact"] = "highest"
    tie_rule: Literal["playoff", "share"] = "playoff"
    teams: int = 0
    min_players: int = 2
    max_players: int = 8

    def __init__(self, **data: Any) -> None:
        """Construct, turning pydantic's error report into the one admin-readable sentence."""
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise RulesError(_sentence(exc)) from None

    @model_validator(mode="after")
    def _check(self) -> Self:
        for field, check in _CHECKS.items():
            if not check(getattr(self, field)):
                raise _takes(field)
        problem = self._contradiction()
        if problem:
            raise RulesError(problem)
        return self

    def _contradiction(self) -> Message | None:
        if self.entry_roll_limit is not None and self.entry_minimum == 0:
            return Message("An entry roll limit needs an entry minimum: set entry_minimum first.")
        if self.piggyback_needs_all_on_board and self.piggyback == "off":
            return Message(
                "Piggybacking can't wait for everyone to be on the board while piggybacking is off."
            )
        if self.entry_minimum > self.target:
            return Message(
                "The entry minimum ({points}) can't be above the target ({target}).",
                points=self.entry_minimum,
                target=self.target,
            )
        if self.bank_minimum > self.target:
            return Message(
                "The bank minimum ({points}) can't be above the target ({target}).",
                points=self.bank_minimum,
                target=self.target,
            )
        if self.max_players < self.min_players:
            return Message(
                "The most players ({most}) can't be fewer than the fewest ({least}).",
                most=self.max_players,
                least=self.min_players,
            )
        if self.teams and self.end_rule == "last_loses":
            return Message("Teams can't play last-loses: turn teams off or choose another end rule.")
        if self.teams > self.max_players:
            return Message(
                "{teams} teams need room for at least {teams} players: raise max_players.", teams=self.teams
            )
        if self.six_ones_instant_win and self.end_rule == "last_loses":
            return Message("Six 1s can't win at once when the last player to reach the target loses.")
        return None

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """Copies are re-validated and rebuild their own tables (pydantic's copy would keep stale ones)."""
        return type(self)(**{**self.model_dump(), **(update or {})})

    @classmethod
    def preset(cls, name: str) -> Ruleset:
        """One of PRESET_NAMES; the same instance every time, so its tables are built once."""
        if name not in PRESET_NAMES:
            raise RulesError(
                Message(
                    "There is no rule set called '{name}': choose {presets}.",
                    name=name,
                    presets=Listing(PRESET_NAMES),
                )
            )
        return _preset(name)

    def with_option(self, name: str, raw: str) -> Ruleset:
        """This ruleset with one option set from user-typed text; a changed preset becomes "custom"."""
        field = name.strip().lower().replace("-", "_").replace(" ", "_")
        if field not in _OPTIONS:
            raise RulesError(
                Message(
                    "There is no rule called '{name}'. Rules: {rules}.", name=name, rules=", ".join(_OPTIONS)
                )
            )
        value = _parse(field, raw)
        update: dict[str, Any] = {field: value}
        if self.name in PRESET_NAMES and getattr(self, field) != value:
            update["name"] = "custom"
        return self.model_copy(update=update)

    def key(self) -> str:
        """sha256 of the scoring and turn options: equal keys play turns identically (solver cache key)."""
        return self._key

    @cached_property
    def _key(self) -> str:
        fields = {f: getattr(self, f) for f, spec in _OPTIONS.items() if spec.group in _KEY_GROUPS}
        canonical = json.dumps(fields, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()

    def summary_sections(self) -> list[tuple[str, list[Message]]]:
        """The rules in plain words, grouped as the bot shows them (group names are message ids)."""
        return [
            (N_("Scoring"), self._scoring_lines()),
            (N_("Turn"), self._turn_lines()),
            (N_("End of game"), self._end_lines()),
        ]

    def summary(self) -> list[Message]:
        return [line for _, lines in self.summary_sections() for line in lines]

    def _scoring_lines(self) -> list[Message]:
        lines = [
            Message("Single 1: {points}", points=self.single_one),
            Message("Single 5: {points}", points=self.single_five),
            Message("Three 1s: {points}", points=self.three_ones),
            Message("Three of a kind: 100 times the face (three 4s: 400)"),
        ]
        kinds = (
            (4, N_("Four of a kind: {score}")),
            (5, N_("Five of a kind: {score}")),
            (6, N_("Six of a kind: {score}")),
        )
        for n, line in kinds:
            if n == 6 and self.six_of_a_kind is not None:
                lines.append(Message(line, score=self.six_of_a_kind))
            elif self.n_of_a_kind != "none":
                lines.append(Message(line, score=_n_of_a_kind_score(self.n_of_a_kind, n)))
        if self.n_of_a_kind == "none":
            lines.append(Message("Four or more of a kind: a triple plus single 1s and 5s"))
        if self.six_ones is not None:
            lines.append(Message("Six 1s: {points}", points=self.six_ones))
        if self.six_ones_instant_win:
            lines.append(Message("Six 1s from one roll: win the game at once"))
        if self.straight:
            lines.append(Message("Straight 1-6: {points}", points=self.straight))
        else:
            lines.append(Message("Straight 1-6: no points"))
        combinations = (
            (N_("Three pairs: {points}"), self.three_pairs),
            (N_("Four of a kind with a pair: {points}"), self.four_and_pair),
            (N_("Two triplets: {points}"), self.two_triplets),
        )
        for line, points in combinations:
            if points is not None:
                lines.append(Message(line, points=points))
        # How the ambiguous rolls are read (the rule sheets ask house rules to say so): `scoring.py`.
        if self.three_pairs is not None:
            lines.append(Message("Four of a kind with a pair, and six of a kind, also count as three pairs"))
        if self.two_triplets is not None:
            lines.append(Message("Six of a kind also counts as two triplets"))
        if self.three_pairs is not None or self.two_triplets is not None:
            lines.append(Message("Dice that can be read several ways score their best reading"))
        if self.penalty_roll is not None:
            lines.append(
                Message(
                    "Five 6s and a 1 on six dice: {points} (score not below 0), turn over",
                    points=self.penalty_roll,
                )
            )
        return lines

    def _turn_lines(self) -> list[Message]:
        lines = []
        if self.entry_minimum and self.entry_roll_limit:
            lines.append(
                Message.plural(
                    "Get on the board with {points} in at most {count} roll",
                    "Get on the board with {points} in at most {count} rolls",
                    self.entry_roll_limit,
                    points=self.entry_minimum,
                )
            )
        elif self.entry_minimum:
            lines.append(Message("Get on the board with {points}", points=self.entry_minimum))
        else:
            lines.append(Message("No minimum to get on the board"))
        if self.bank_minimum:
            lines.append(Message("Bank only with at least {points} this turn", points=self.bank_minimum))
        if self.hot_dice == "forced":
            lines.append(Message("Hot dice: you must roll all six again"))
        else:
            lines.append(Message("Hot dice: you may roll all six again"))
        three_farkles = {
            "none": N_("Three Farkles in a row: no penalty"),
            "minus_1000": N_("Three Farkles in a row: lose 1,000"),
            "reset": N_("Three Farkles in a row: your score goes back to 0"),
        }
        lines.append(Message(three_farkles[self.three_farkles]))
        if self.piggyback == "off":
            lines.append(Message("No piggybacking"))
        else:
            gain: Param = (
                Message("their turn's points")
                if self.piggyback == "previous_points"
                else self.piggyback_bonus
            )
            if self.piggyback_needs_all_on_board:
                line = N_(
                    "Piggyback: roll the dice the last player left; if they score, add {gain} "
                    "(once everyone is on the board)"
                )
            else:
                line = N_("Piggyback: roll the dice the last player left; if they score, add {gain}")
            lines.append(Message(line, gain=gain))
        return lines

    def _end_lines(self) -> list[Message]:
        target = self.target
        if self.end_rule == "last_loses":
            lines = [Message("Last player to reach {target} loses", target=target)]
        else:
            if self.end_rule == "exact":
                lines = [
                    Message("Land exactly on {target}; points over it go to the lowest score", target=target)
                ]
            else:
                lines = [
                    Message("Reaching {target} starts the final round; the highest score wins", target=target)
                ]
            if self.tie_rule == "playoff":
                lines.append(Message("Ties at the top play off"))
            else:
                lines.append(Message("Ties at the top share the win"))
        if self.teams:
            lines.append(Message("{teams} teams; teammates share one score", teams=self.teams))
        lines.append(Message("{least} to {most} players", least=self.min_players, most=self.max_players))
        return lines


def triple_factor(mode: NOfAKind, n: int) -> int:
    """How many times the triple n (4-6) of a kind scores under a multiplying mode."""
    return {"doubling": 1 << (n - 3), "multiples": n - 2, "high_multiples": 2 * (n - 2)}[mode]


def _n_of_a_kind_score(mode: NOfAKind, n: int) -> Param:
    if mode == "fixed":
        return 1000 * (n - 3)
    factor = triple_factor(mode, n)
    if factor == 2:
        return Message("double the triple")
    return Message("{factor}x the triple", factor=factor)


def _takes(field: str) -> RulesError:
    return RulesError(Message("{option} takes {allowed}.", option=field, allowed=_OPTIONS[field].allowed))


def _sentence(exc: ValidationError) -> Message:
    error = exc.errors()[0]
    field = str(error["loc"][0]) if error["loc"] else ""
    cause = error.get("ctx", {}).get("error")
    if isinstance(cause, RulesError):  # raised by our own validator
        return cause.message
    if error["type"] == "extra_forbidden":
        return Message("There is no rule called '{name}'.", name=field)
    if field in _OPTIONS:
        return _takes(field).message
    return Message("{field} is not valid: {problem}.", field=field or "The rule set", problem=error["msg"])


def _parse(field: str, raw: str) -> Any:
    kind = _KINDS[field]
    refused = _takes(field)
    on = switch(raw)
    if kind == "bool":
        if on is None:
            raise refused
        return on
    if kind == "choice":
        choices = _OPTIONS[field].choices or ()
        word = typed(raw).replace("-", "_").replace(" ", "_")
        if on is False:  # "off", "none" and "no" mean the same to people
            word = next((c for c in choices if c in OFF_WORDS), word)
        if word in choices:
            return word
        raise refused
    if on is False:
        return None if kind == "optional_int" else 0
    value = number(raw)
    if value is None:
        raise refused
    return value


_PRESETS: dict[str, dict[str, Any]] = {
    "classic": {},
    "box": {
        "three_ones": 300,
        "n_of_a_kind": "fixed",
        "straight": 1500,
        "three_pairs": 1500,
        "four_and_pair": 1500,
        "two_triplets": 2500,
        "entry_minimum": 500,
    },
    "doubling": {
        "n_of_a_kind": "doubling",
        "three_pairs": 300,
        "entry_minimum": 500,
        "entry_roll_limit": 3,
        "tie_rule": "playoff",
        "piggyback": "previous_points",
        "piggyback_needs_all_on_board": True,
    },
    "last-loses": {
        "straight": 1500,
        "three_pairs": 500,
        "two_triplets": 2000,
        "piggyback": "previous_points",
        "three_farkles": "reset",
        "end_rule": "last_loses",
    },
    "family": {
        "n_of_a_kind": "multiples",
        "six_of_a_kind": 10000,
        "straight": 1500,
        "penalty_roll": -10000,
        "bank_minimum": 500,
        "hot_dice": "forced",
        "piggyback": "previous_points",
        "end_rule": "exact",
    },
}


@cache
def _preset(name: str) -> Ruleset:
    return Ruleset(name=name, **_PRESETS[name])
