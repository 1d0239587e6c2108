"""The ruleset: every house rule in RULES.md as one frozen, validated, JSON-able value.

Validation speaks to server admins: every refusal is a `RulesError` whose message is a sentence
that can be shown as is. The fields are declared in `rulefields`, the summary in `rulewords`, the option
catalogue in `ruleoptions` and the presets in `rulepresets`; here they become one `Ruleset`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from functools import cache, cached_property
from typing import Any, Self

from pydantic import ValidationError, model_validator

from bot.engine.messages import Listing, Message
from bot.engine.rules.options import OPTIONS, Group, RulesError, parse_option, refusal, unfit_option
from bot.engine.rules.presets import PRESET_NAMES, PRESETS
from bot.engine.rules.words import RuleWords

__all__ = ["OPTIONS", "PRESET_NAMES", "RulesError", "Ruleset"]  # the names imported from here across the bot

_KEY_GROUPS: tuple[Group, ...] = ("Scoring", "Turn")


class Ruleset(RuleWords):
    """Every option of one server's game, validated whole at construction: each option's values, then
    the rules that contradict each other. Frozen and hashable, so derived tables can hang off it."""

    def __init__(self, **data: Any) -> None:
        """Construct, turning pydantic's error report into the one admin-readable sentence."""
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise RulesError(_sentence(exc)) from None

    @model_validator(mode="after")
    def _check(self) -> Self:
        field = unfit_option(self)
        if field is not None:
            raise refusal(field)
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
        if field not in OPTIONS:
            raise RulesError(
                Message(
                    "There is no rule called '{name}'. Rules: {rules}.", name=name, rules=", ".join(OPTIONS)
                )
            )
        value = parse_option(field, raw)
        update: dict[str, Any] = {field: value}
        if self.name in PRESET_NAMES and getattr(self, field) != value:
            update["name"] = "custom"
        return self.model_copy(update=update)

    def key(self) -> str:
        """sha256 of the scoring and turn options: equal keys play turns identically (solver cache key)."""
        return self._key

    @cached_property
    def _key(self) -> str:
        fields = {f: getattr(self, f) for f, spec in OPTIONS.items() if spec.group in _KEY_GROUPS}
        canonical = json.dumps(fields, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()


def _sentence(exc: ValidationError) -> Message:
    error = exc.errors()[0]
    field = str(error["loc"][0]) if error["loc"] else ""
    cause = error.get("ctx", {}).get("error")
    if isinstance(cause, RulesError):  # raised by our own validator
        return cause.message
    if error["type"] == "extra_forbidden":
        return Message("There is no rule called '{name}'.", name=field)
    if field in OPTIONS:
        return refusal(field).message
    return Message("{field} is not valid: {problem}.", field=field or "The rule set", problem=error["msg"])


@cache
def _preset(name: str) -> Ruleset:
    return Ruleset(name=name, **PRESETS[name])
