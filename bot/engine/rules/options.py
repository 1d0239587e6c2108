"""The option catalogue: every settable rule once, with its group, its description for the config
commands, the values it takes (as a check and as words for admins), and how text typed for it is read.

Validation speaks to server admins: every refusal is a `RulesError` whose message is a sentence that can be
shown as is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from bot.engine.errors import UserFacingError
from bot.engine.messages import N_, Listing, Message, Param
from bot.engine.values import OFF_WORDS, number, switch, typed

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


def unfit_option(rules: object) -> str | None:
    """The first option (in catalogue order) whose value on these rules its check refuses, or None."""
    return next((name for name, check in _CHECKS.items() if not check(getattr(rules, name))), None)


def refusal(field: str) -> RulesError:
    """The sentence that tells an admin what this option takes."""
    return RulesError(Message("{option} takes {allowed}.", option=field, allowed=_OPTIONS[field].allowed))


def parse_option(field: str, raw: str) -> Any:
    """The value of this option an admin typed as text ("off", "1,000", "last-loses"), or its refusal."""
    kind = _KINDS[field]
    refused = refusal(field)
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
