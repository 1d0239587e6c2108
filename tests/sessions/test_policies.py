"""Solved policies are stored once and loaded instead of solved again, on either backend."""

import pytest
from sqlalchemy import text

import bot.engine.solver as solver
from bot.engine import Ruleset
from bot.sessions.policies import PolicyCache
from bot.storage import Database
from bot.storage.policies import SqlPolicyStore


async def test_policies_are_solved_once_then_loaded_from_storage(database: Database, monkeypatch) -> None:
    rules = Ruleset.preset("box")  # has an entry minimum: on- and off-board policies
    monkeypatch.setattr(solver, "_SOLVED", {})
    await PolicyCache(SqlPolicyStore(database)).ensure(rules)
    query = text("SELECT rules_key, on_board FROM solver_cache ORDER BY on_board")
    rows = await database.read(lambda c: c.execute(query).all())
    assert [(r[0], r[1]) for r in rows] == [(rules.key(), 0), (rules.key(), 1)]
    expected = solver.turn_expected_value(rules)

    monkeypatch.setattr(solver, "_SOLVED", {})

    def no_solving(*args: object) -> None:
        raise AssertionError("a stored policy must not be solved again")

    monkeypatch.setattr("bot.sessions.policies.solve", no_solving)
    await PolicyCache(SqlPolicyStore(database)).ensure(rules)
    assert solver.turn_expected_value(rules) == pytest.approx(expected)
