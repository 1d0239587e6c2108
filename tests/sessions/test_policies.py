"""Solved policies are stored once and loaded instead of solved again, on either backend."""

import pytest
from sqlalchemy import text

from bot.engine import Ruleset
from bot.sessions.policies import PolicyCache
from bot.storage import Database
from bot.storage.policies import SqlPolicyStore


async def test_policies_are_solved_once_then_loaded_from_storage(database: Database, monkeypatch) -> None:
    rules = Ruleset.preset("box")  # has an entry minimum: on- and off-board policies
    solved = await PolicyCache(SqlPolicyStore(database)).ensure(rules)
    query = text("SELECT rules_key, on_board FROM solver_cache ORDER BY on_board")
    rows = await database.read(lambda c: c.execute(query).all())
    assert [(r[0], r[1]) for r in rows] == [(rules.key(), 0), (rules.key(), 1)]
    expected = solved.on_board.expected_if_rolling(0, 6)

    def no_solving(*args: object) -> None:
        raise AssertionError("a stored policy must not be solved again")

    monkeypatch.setattr("bot.sessions.policies.solve_turn", no_solving)
    loaded = await PolicyCache(SqlPolicyStore(database)).ensure(rules)
    assert loaded.on_board.expected_if_rolling(0, 6) == pytest.approx(expected)


async def test_rulesets_that_play_the_same_turns_share_one_solve() -> None:
    """A handle per turn (`Ruleset.key`), not per ruleset: the target and the name play no part."""
    cache, doubling = PolicyCache(), Ruleset.preset("doubling")
    assert cache.ready(doubling) is None, "nothing is solved before it is asked for"
    solved = await cache.ensure(doubling)
    renamed = doubling.model_copy(update={"name": "renamed", "target": 20000})
    assert cache.ready(renamed) is solved and await cache.ensure(renamed) is solved
    assert solved.serve(renamed) is solved
    with pytest.raises(ValueError, match="not for the classic rules"):
        solved.serve(Ruleset.preset("classic"))
