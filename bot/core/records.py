"""Plain rows handed from the session layer to storage: a session's state and a finished game.

They live below both layers so that storage never imports the session layer or the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol


@dataclass(frozen=True)
class SessionRow:
    """One channel's session as stored: the columns storage indexes, and the session's JSON text.

    `revision` is the stored row's revision the writer last saw (None: it knows of no row): a write
    succeeds only if the row is still at that revision, and moves it on by one.
    """

    channel_id: int
    guild_id: int
    game_id: str
    stage: str
    version: int
    deadline: float | None
    state: str
    revision: int | None


@dataclass(frozen=True)
class StoredSession:
    """A session row as read back: its JSON text and its revision."""

    channel_id: int
    guild_id: int
    state: str
    revision: int


class DatabaseBusy(RuntimeError):
    """Another writer held the database for longer than an answer can wait; nothing was changed. An
    operator's condition (a stuck process, a long backup), not a bug: logged as one warning line."""


class SessionConflict(Exception):
    """The stored row moved on since this process read it (another process wrote the game): nothing was
    written, and the writer must reload before answering."""


@dataclass(frozen=True)
class PlayerRecord:
    seat: int
    user_id: int
    name: str
    computer: str | None
    team: int | None
    placement: int
    won: bool
    final_bank: int
    turns: int
    points: int
    best_turn: int
    farkles: int
    hot_dice: int

    def totals(self) -> dict[str, int]:
        """What one game adds to a member's running totals (all-time and 30-day alike)."""
        return {
            "won": int(self.won),
            "points": self.points,
            "turns": self.turns,
            "best_turn": self.best_turn,
            "bank": self.final_bank,
            "farkles": self.farkles,
            "hot": self.hot_dice,
        }


@dataclass(frozen=True)
class GameRecord:
    """A finished game as archived: enough to replay it, plus each player's numbers for statistics."""

    game_id: str
    guild_id: int
    channel_id: int
    rules_json: str
    dice_start_json: str
    actions_json: str
    started_at: float
    ended_at: float
    end_reason: str
    players: tuple[PlayerRecord, ...]

    @property
    def counted(self) -> bool:
        """Only games between at least two people feed leaderboards: no farming wins off computers."""
        return sum(1 for p in self.players if p.computer is None) >= 2

    @property
    def humans(self) -> tuple[PlayerRecord, ...]:
        return tuple(p for p in self.players if p.computer is None)


@dataclass(frozen=True)
class Rating:
    """A member's skill estimate and the number leaderboards sort by."""

    mu: float
    sigma: float
    shown: float


class Rater(Protocol):
    """New ratings after one game, from the stored ones (None: a first game) and the placements.

    Storage reads and writes ratings inside the recording transaction (no lost update), but the rating
    model itself is handed in from outside.
    """

    def __call__(self, before: Sequence[Rating | None], placements: Sequence[int]) -> list[Rating]: ...


# ---------------------------------------------------------------------- results, as read back

Metric = Literal["rating", "wins", "win_rate", "best_turn", "points", "accuracy", "skill"]
Period = Literal["all", "30d", "week", "month", "season"]  # the last three: the calendar's current one
PERIODS: tuple[Period, ...] = ("all", "30d", "week", "month", "season")
METRICS: tuple[Metric, ...] = ("rating", "wins", "win_rate", "best_turn", "points", "accuracy", "skill")


@dataclass(frozen=True)
class StatsRow:
    user_id: int
    name: str
    games: int
    wins: int
    points: int
    turns: int
    best_turn: int
    best_game: int
    farkles: int
    hot_dice: int
    rating: float
    accuracy: float = 0.0  # the accuracy board's average review accuracy (0..1); 0 elsewhere
    given_away: float = 0.0  # the skill board's mean chance to win given away per decision; 0 elsewhere

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def average_turn(self) -> float:
        return self.points / self.turns if self.turns else 0.0


@dataclass(frozen=True)
class Ranked:
    rank: int
    row: StatsRow


@dataclass(frozen=True)
class SeasonStanding:
    """One line of a season's final standings, as kept."""

    rank: int
    user_id: int
    name: str
    games: int
    wins: int
    rating: float


@dataclass(frozen=True)
class SeasonPlace:
    """A season a member placed in: its key, their rank and how many members were ranked."""

    season: str
    rank: int
    ranked: int


@dataclass(frozen=True)
class GameSummary:
    game_id: str
    channel_id: int
    ended_at: float
    rules_name: str
    players: tuple[tuple[str, int, bool], ...]  # name, final bank, won


# ---------------------------------------------------------------------- game reviews


@dataclass(frozen=True)
class ReviewedSeat:
    """One seat's numbers from a game's review, as stored for statistics."""

    seat: int
    user_id: int
    computer: bool
    accuracy: float | None  # 0..1; None: no decision that mattered
    decisions: int
    mistakes: int


SKILL_DECISIONS = 50  # the skill rating averages a member's last this many reviewed decisions
SKILL_MINIMUM = 20  # with fewer, there is no skill rating yet (the stats card says how many)


@dataclass(frozen=True)
class ReviewedDecision:
    """One member's decision in a reviewed game, for the skill rating: what it gave away (the measure's)."""

    index: int  # the decision's place in the game's review
    seat: int
    user_id: int
    loss: float


@dataclass(frozen=True)
class ReviewRow:
    """A game's review as stored: its JSON, its measure, each seat's numbers and members' decisions."""

    game_id: str
    guild_id: int
    ended_at: float
    measure: str
    review_json: str
    seats: tuple[ReviewedSeat, ...]
    decisions: tuple[ReviewedDecision, ...] = ()


# ---------------------------------------------------------------------- the daily challenge, achievements


@dataclass(frozen=True)
class DailyRow:
    """One member's daily attempt as stored: the game's JSON and, once finished, its score and turn line
    (one letter a turn: b banked, f farkled, h banked after hot dice)."""

    user_id: int
    day: int
    guild_id: int | None  # where it was last played (None: a DM); ranks it on that server's board
    name: str
    state: str
    finished: bool
    score: int
    line: str
    started_at: float
    ended_at: float | None


@dataclass(frozen=True)
class DailyStanding:
    rank: int
    user_id: int
    name: str
    score: int


@dataclass(frozen=True)
class Award:
    """An achievement a member earned, when, and from what (a game id or `daily:<day>`)."""

    user_id: int
    achievement: str
    earned_at: float
    source: str


@dataclass(frozen=True)
class TournamentRow:
    """A tournament as stored: its settings, stage and `state` (the bracket and open matches, JSON)."""

    tournament_id: str
    guild_id: int
    channel_id: int
    host_id: int
    name: str
    format: str
    rounds: int
    best_of: int
    rules: str
    match_deadline: int
    signup_until: float | None
    stage: str
    state: str
    created_at: float
    ended_at: float | None
    revision: int
    crowned_at: float | None = None  # when the champion's achievement was handed out


@dataclass(frozen=True)
class EntrantRow:
    tournament_id: str
    user_id: int
    name: str
    joined_at: float
