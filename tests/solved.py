"""Solved turns for tests: each ruleset's `TurnPolicies` solved once per test run (a tenth of a second
each), as the bot's `PolicyCache` keeps them."""

from __future__ import annotations

from functools import cache

from bot.engine import Ruleset, TurnPolicies, TurnPolicy
from bot.sessions.policies import PolicyCache


@cache
def policies_for(rules: Ruleset) -> TurnPolicies:
    return TurnPolicies.solve(rules)


def policy_for(rules: Ruleset, on_board: bool = True) -> TurnPolicy:
    return policies_for(rules).policy(on_board)


def solved_cache(*rules: Ruleset) -> PolicyCache:
    """A bot's policy cache with these rules' turns solved already (classic when none are named): its
    computers move at once, with no solve in a thread to wait for."""
    return PolicyCache(solved=[policies_for(each) for each in rules or (Ruleset.preset("classic"),)])
