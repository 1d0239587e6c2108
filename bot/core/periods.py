"""The calendar of leaderboards and seasons, in UTC: a week starts on Monday, a season is a calendar
month (the default) or a quarter. Pure date maths: the clock's `now()` goes in, epoch seconds come out."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

SeasonLength = Literal["month", "quarter"]
SEASON_LENGTHS: tuple[SeasonLength, ...] = ("month", "quarter")
DEFAULT_SEASON: SeasonLength = "month"


@dataclass(frozen=True)
class Window:
    """Games that ended at `since` or later and before `until` (epoch seconds)."""

    since: float
    until: float


@dataclass(frozen=True)
class Season(Window):
    """One season: its key (`2026-11`, `2026-Q4`) is what storage keeps and boards show."""

    key: str


def _month_start(year: int, month: int) -> datetime:
    return datetime(year + (month - 1) // 12, (month - 1) % 12 + 1, 1, tzinfo=UTC)


def season_at(when: float, length: SeasonLength) -> Season:
    """The season `when` falls in."""
    day = datetime.fromtimestamp(when, UTC)
    span = 3 if length == "quarter" else 1
    first = (day.month - 1) // span * span + 1
    start, end = _month_start(day.year, first), _month_start(day.year, first + span)
    key = f"{day.year}-Q{(first - 1) // 3 + 1}" if length == "quarter" else f"{day.year}-{first:02d}"
    return Season(start.timestamp(), end.timestamp(), key)


def season_before(season: Season, length: SeasonLength) -> Season:
    return season_at(season.since - 1, length)


def week_at(when: float) -> Window:
    """The week (Monday 00:00 UTC to the next Monday) `when` falls in."""
    day = datetime.fromtimestamp(when, UTC)
    start = datetime(day.year, day.month, day.day, tzinfo=UTC) - timedelta(days=day.weekday())
    return Window(start.timestamp(), (start + timedelta(days=7)).timestamp())
