"""Achievements: the table, what earns each, and the game-events subscriber that awards them.

Awards come only from the stream: a finished game (`GameEnded`), its stored review (`GameReviewed`) or
a finished daily attempt (`DailyEnded`), and what they hand out goes back on it (`Awarded`). Storage
keeps one row per (member, achievement), so a replayed event or a crash between an award and its mark
adds nothing; a daily attempt's awards and its "awarded" mark share a transaction; a start-up awards
the perfect reviews whose event a crash lost (`restore`).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass

from bot.core.clock import Clock
from bot.core.records import Award, GameRecord, PlayerRecord
from bot.engine.daily import streaks
from bot.engine.history import Banked, Kept, Overflow, PenaltyRoll, ThreeFarkles
from bot.engine.messages import N_
from bot.engine.review import FLAWLESS_ACCURACY, GameReview
from bot.sessions.archive import replay
from bot.sessions.daily.attempt import DailyAttempt
from bot.sessions.daily.door import DailyStore
from bot.sessions.stream_events import Awarded, DailyEnded, GameEnded, GameEvent, GameReviewed, Publish

log = logging.getLogger(__name__)

BIG_TURN = 3000
COMEBACK = 5000
DAILY_HIGH = 5000
STREAK_DAYS = 7
CROWD = 4
PERFECT_DECISIONS = 10  # a perfect review needs a game of real choices, not two lucky banks
WIN_TURNS = 3  # a win earns achievements only if every player had this many turns: no forfeit farming


@dataclass(frozen=True)
class Achievement:
    id: str
    name: str  # message id (English), translated when drawn
    description: str


ACHIEVEMENTS: tuple[Achievement, ...] = (
    Achievement("first_win", N_("First win"), N_("Win a game.")),
    Achievement("hot_dice", N_("Hot dice"), N_("Score with all six dice and bank the turn.")),
    Achievement("six_of_a_kind", N_("Six of a kind"), N_("Keep six of a kind from one roll.")),
    Achievement("straight", N_("Straight"), N_("Keep a 1-2-3-4-5-6 straight.")),
    Achievement("three_pairs", N_("Three pairs"), N_("Keep three pairs from one roll.")),
    Achievement("big_turn", N_("Big turn"), N_("Bank 3,000 points in one turn.")),
    Achievement("comeback", N_("Comeback"), N_("Win a game after trailing by 5,000 points.")),
    Achievement("flawless", N_("Flawless"), N_("Win a game without a single Farkle.")),
    Achievement("crowd", N_("Crowd pleaser"), N_("Win a game of four or more players.")),
    Achievement("beat_expert", N_("Expert beaten"), N_("Win a game against the expert computer.")),
    Achievement("beat_master", N_("Master beaten"), N_("Win a game against the master computer.")),
    Achievement(
        "perfect_review",
        N_("Perfect review"),
        N_("Play a game the review calls flawless: 10 or more decisions, every one the best."),
    ),
    Achievement("daily_first", N_("Daily player"), N_("Finish a daily challenge.")),
    Achievement("daily_streak", N_("Week of dailies"), N_("Finish the daily 7 days in a row.")),
    Achievement("daily_expert", N_("Better than expert"), N_("Score more than expert on a daily.")),
    Achievement("daily_clean", N_("Clean sheet"), N_("Finish a daily without a Farkle.")),
    Achievement("daily_high", N_("High roller"), N_("Score 5,000 points in one daily.")),
    Achievement("champion", N_("Champion"), N_("Win a tournament.")),
)
BY_ID = {achievement.id: achievement for achievement in ACHIEVEMENTS}


def _keeps(kept: Iterable[tuple[int, ...]]) -> set[str]:
    """Achievements earned by the shape of one keep."""
    earned = set()
    for faces in kept:
        counts = sorted(Counter(faces).values())
        if len(faces) == 6 and counts == [6]:
            earned.add("six_of_a_kind")
        if tuple(sorted(faces)) == (1, 2, 3, 4, 5, 6):
            earned.add("straight")
        if len(faces) == 6 and counts == [2, 2, 2]:
            earned.add("three_pairs")
    return earned


def game_achievements(record: GameRecord) -> dict[int, set[str]]:
    """What each human of a finished game earned in it, by user id."""
    seats = sorted(record.players, key=lambda p: p.seat)
    seating = [(p.user_id, p.team) for p in seats]
    try:
        events = replay(record.rules_json, record.dice_start_json, record.actions_json, seating).events
    except Exception:  # an archive that does not replay still earns what its numbers show
        log.warning("Game %s does not replay: judging its achievements by its numbers", record.game_id)
        events = ()
    kept: dict[str, list[tuple[int, ...]]] = {}
    for event in events:
        if isinstance(event, Kept):
            kept.setdefault(event.player, []).append(tuple(sorted(event.dice)))
    trailed = _trailed(events, seats)
    computers = {p.computer for p in record.players if p.computer is not None}
    earned: dict[int, set[str]] = {}
    for player in record.humans:
        mine = _keeps(kept.get(str(player.user_id), []))
        if player.hot_dice:
            mine.add("hot_dice")
        if player.best_turn >= BIG_TURN:
            mine.add("big_turn")
        if player.won and played_out(record):
            mine |= _wins(player, record, computers, str(player.user_id) in trailed)
        earned[player.user_id] = mine
    return earned


def played_out(record: GameRecord) -> bool:
    """Every seat had `WIN_TURNS` turns: a win over someone who left (or was removed) after a turn or two
    still counts as their loss, but earns the winner no achievement."""
    return all(p.turns >= WIN_TURNS for p in record.players)


def _wins(player: PlayerRecord, record: GameRecord, computers: set[str], trailed: bool) -> set[str]:
    won = {"first_win"}
    if player.farkles == 0:
        won.add("flawless")
    if len(record.players) >= CROWD:
        won.add("crowd")
    if trailed:
        won.add("comeback")
    won |= {f"beat_{level}" for level in ("expert", "master") if level in computers}
    return won


def _trailed(events: Sequence[object], seats: Sequence[PlayerRecord]) -> set[str]:
    """Players whose side was ever `COMEBACK` points behind another side's bank."""
    side = {str(p.user_id): p.team if p.team is not None else p.seat for p in seats}
    banks = dict.fromkeys(side.values(), 0)
    behind: set[object] = set()
    for event in events:
        match event:
            case Banked(player=player, bank=bank) | ThreeFarkles(player=player, bank=bank):
                banks[side[player]] = bank
            case PenaltyRoll(player=player, bank=bank) | Overflow(recipient=player, bank=bank):
                banks[side[player]] = bank
            case _:
                continue
        top = max(banks.values())
        behind |= {s for s, bank in banks.items() if top - bank >= COMEBACK}
    return {player for player, s in side.items() if s in behind}


def review_achievements(record: GameRecord, review: GameReview) -> dict[int, set[str]]:
    """What each human of a reviewed game earned by how they played."""
    earned: dict[int, set[str]] = {}
    for player in record.humans:
        reviewed = review.of(str(player.user_id))
        if reviewed is not None and reviewed.flawless and reviewed.decisions >= PERFECT_DECISIONS:
            earned[player.user_id] = {"perfect_review"}
    return earned


def daily_achievements(attempt: DailyAttempt, expert: int, streak: int) -> set[str]:
    """What a finished daily attempt earned: its keeps, its turns and how it compares."""
    earned = _keeps(attempt.kept) | {"daily_first"}
    if "hot" in attempt.ends:
        earned.add("hot_dice")
    if any(points >= BIG_TURN for points in attempt.turn_points):
        earned.add("big_turn")
    if "farkled" not in attempt.ends:
        earned.add("daily_clean")
    if attempt.score >= DAILY_HIGH:
        earned.add("daily_high")
    if attempt.score > expert:
        earned.add("daily_expert")
    if streak >= STREAK_DAYS:
        earned.add("daily_streak")
    return earned


class AchievementKeeper:
    """The game-events subscriber that hands out achievements, then publishes what is new (`Awarded`)."""

    def __init__(
        self,
        store: DailyStore,
        clock: Clock,
        expert: Callable[[int], Awaitable[int]],
        publish: Publish,
    ) -> None:
        self._store = store
        self._clock = clock
        self._expert = expert
        self._publish = publish

    async def __call__(self, event: GameEvent) -> None:
        match event:
            case GameEnded(record=record):
                awarded = await self._award_game(game_achievements(record), record)
            case GameReviewed(record=record, review=review):
                awarded = await self._award_game(review_achievements(record, review), record)
            case DailyEnded(attempt=attempt):
                days = await self._store.days_played(attempt.user_id)
                streak, _ = streaks([day for day in days if day <= attempt.day], attempt.day)
                earned = {
                    attempt.user_id: daily_achievements(attempt, await self._expert(attempt.day), streak)
                }
                awards = self._awards(earned, self._clock.now(), f"daily:{attempt.day}")
                new = await self._store.award_daily(awards, attempt.user_id, attempt.day)
                awarded = Awarded(tuple(new), daily=attempt)
            case _:
                return
        if awarded.awards or awarded.daily is not None:  # a finished daily always: its press lets go
            self._publish(awarded)

    async def award_champion(self, user_id: int, achievement: str, source: str) -> None:
        """A tournament's champion (`bot.sessions.tournament.door`): one row per member, however often."""
        await self._store.award_game([Award(user_id, achievement, self._clock.now(), source)])

    async def restore(self) -> list[Award]:
        """Award, without announcing, the perfect reviews a crash left unawarded (the review was stored,
        its event lost): the achievement is one row per member, so only members without it are looked at."""
        return await self._store.award_flawless_reviews(
            "perfect_review", FLAWLESS_ACCURACY, PERFECT_DECISIONS
        )

    async def _award_game(self, earned: dict[int, set[str]], record: GameRecord) -> Awarded:
        awards = self._awards(earned, record.ended_at, record.game_id)
        return Awarded(tuple(await self._store.award_game(awards)) if awards else (), game=record)

    @staticmethod
    def _awards(earned: dict[int, set[str]], when: float, source: str) -> list[Award]:
        return [
            Award(user_id, achievement, when, source)
            for user_id, ids in earned.items()
            for achievement in sorted(ids)
        ]
