"""The calendar of the boards and seasons, in UTC."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.core.periods import Season, season_at, season_before, week_at


def at(*when: int) -> float:
    return datetime(*when, tzinfo=UTC).timestamp()  # type: ignore[misc]


def test_a_season_is_a_calendar_month_or_a_quarter() -> None:
    assert season_at(at(2026, 11, 27, 21, 40), "month") == Season(at(2026, 11, 1), at(2026, 12, 1), "2026-11")
    assert season_at(at(2026, 12, 31, 23, 59), "month") == Season(at(2026, 12, 1), at(2027, 1, 1), "2026-12")
    assert season_at(at(2026, 11, 27), "quarter") == Season(at(2026, 10, 1), at(2027, 1, 1), "2026-Q4")
    assert season_at(at(2026, 1, 1), "quarter") == Season(at(2026, 1, 1), at(2026, 4, 1), "2026-Q1")
    assert season_at(at(2026, 6, 30, 23, 59, 59), "quarter").key == "2026-Q2"


def test_the_season_before_crosses_the_year() -> None:
    assert season_before(season_at(at(2027, 1, 5), "month"), "month").key == "2026-12"
    assert season_before(season_at(at(2027, 2, 5), "quarter"), "quarter").key == "2026-Q4"


def test_a_week_starts_on_monday_at_midnight() -> None:
    sunday_night = at(2026, 11, 29, 23, 59)
    assert week_at(sunday_night).since == at(2026, 11, 23) and week_at(sunday_night).until == at(2026, 11, 30)
    assert week_at(at(2026, 11, 30)).since == at(2026, 11, 30)
