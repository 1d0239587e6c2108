"""Daily attempts, standings and achievements in storage, on SQLite and PostgreSQL."""

import json
from dataclasses import replace

from bot.core.records import Award, DailyRow
from bot.storage import Database
from bot.storage.daily import SqlDailyStore
from bot.storage.results import forget_member

DAY = 20_000


def attempt(
    user_id: int, day: int = DAY, *, score: int = 0, guild: int | None = 1, done: bool = True
) -> DailyRow:
    return DailyRow(
        user_id=user_id,
        day=day,
        guild_id=guild,
        name=f"member{user_id}",
        state=json.dumps({"day": day, "actions": []}),
        finished=done,
        score=score,
        line="b" * 10 if done else "",
        started_at=day * 86_400.0,
        ended_at=day * 86_400.0 + 60 if done else None,
    )


async def test_an_attempt_is_written_only_over_the_state_its_writer_read(database: Database) -> None:
    store = SqlDailyStore(database)
    assert await store.load(1, DAY) is None
    begun = attempt(1, done=False)
    assert await store.save(begun, None)
    assert not await store.save(replace(begun, name="other process"), None)  # began it at the same time
    assert await store.load(1, DAY) == begun
    moved = replace(begun, state=json.dumps({"day": DAY, "actions": [["roll", []]]}))
    assert await store.save(moved, begun.state)
    assert not await store.save(replace(begun, name="stale"), begun.state)  # read before that move
    assert await store.save(replace(moved, finished=True, score=900), moved.state)
    assert not await store.save(replace(moved, finished=True, score=5000), moved.state)  # a second finish
    stored = await store.load(1, DAY)
    assert stored is not None and stored.finished and stored.score == 900


async def test_awarding_twice_leaves_one_row_and_marks_the_attempt(database: Database) -> None:
    store = SqlDailyStore(database)
    await store.save(attempt(1, score=900), None)
    assert [row.user_id for row in await store.unawarded()] == [1]
    awards = [Award(1, "daily_first", 5.0, f"daily:{DAY}"), Award(1, "hot_dice", 5.0, f"daily:{DAY}")]
    assert await store.award_daily(awards, 1, DAY) == awards
    assert await store.award_daily(awards, 1, DAY) == []
    assert await store.award_game([Award(1, "hot_dice", 9.0, "abc")]) == []
    assert await store.unawarded() == []
    assert [a.achievement for a in await store.achievements(1)] == ["daily_first", "hot_dice"]


async def test_standings_rank_a_day_or_a_week_on_a_server_or_everywhere(database: Database) -> None:
    store = SqlDailyStore(database)
    for row in (
        attempt(1, score=900),
        attempt(2, score=1500),
        attempt(3, score=1500, guild=2),
        attempt(4, score=9000, done=False),  # unfinished: not ranked
        attempt(1, DAY - 1, score=2000),
        attempt(5, DAY - 9, score=9999),  # another week
    ):
        await store.save(row, None)
    today = await store.standings(DAY, DAY, None)
    assert [(s.rank, s.user_id, s.score) for s in today] == [(1, 2, 1500), (1, 3, 1500), (3, 1, 900)]
    assert [s.user_id for s in await store.standings(DAY, DAY, 1)] == [2, 1]
    week = await store.standings(DAY - 6, DAY, 1)
    assert [(s.user_id, s.score) for s in week] == [(1, 2900), (2, 1500)]
    assert await store.days_played(1) == [DAY - 1, DAY]


async def test_forget_me_deletes_attempts_and_achievements(database: Database) -> None:
    store = SqlDailyStore(database)
    await store.save(attempt(1, score=900), None)
    await store.save(attempt(2, score=800), None)
    await store.award_game([Award(1, "first_win", 1.0, "g1"), Award(2, "first_win", 1.0, "g1")])
    await database.write(lambda connection: forget_member(connection, 1))
    assert await store.load(1, DAY) is None and await store.achievements(1) == []
    assert await store.load(2, DAY) is not None and len(await store.achievements(2)) == 1
