"""Numbers that agree, computed two ways: members play real games (wins, losses, forfeits, games against
computers, reviews) through the archive, then every number `/farkle stats` and every leaderboard row
shows is recomputed from the stored games alone (replayed move by move, ratings re-run in order, reviews
read back) and must be the same. On SQLite and on PostgreSQL."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import text

from bot.core.records import METRICS, SKILL_DECISIONS, SKILL_MINIMUM, Metric, Period, Rating
from bot.engine import Game, Ruleset, SeededDice
from bot.engine.history import TurnStarted
from bot.engine.levels import strategy_for
from bot.engine.review import GameReview
from bot.render.language import Translator
from bot.render.stats import leaderboard_embed, stats_embed
from bot.services.ratings import rate_game
from bot.services.stats import StatsService
from bot.sessions.archive import record_of, replay
from bot.sessions.numbers import numbers_of
from bot.sessions.policies import PolicyCache
from bot.sessions.review import GameReviews, Played
from bot.sessions.session import Seat, Session
from bot.sessions.win_tables import no_tables, shipped_tables
from bot.storage import Database
from bot.storage.reviews import RECENT_REVIEWS, SqlReviewStore
from bot.storage.sessions import SqlSessionStore
from tests.fakes import FakeClock
from tests.solved import policies_for
from tests.storage.test_results import over

GUILD = 1
DAY = 24 * 3600
NOW = 1_750_000_000.0
MIN_GAMES = 3
ANA, BEN, CY = 101, 102, 103
NAMES = {ANA: "ana", BEN: "ben", CY: "cy", -1: "Computer 1 (easy)"}
JUNE = (datetime(2025, 6, 1, tzinfo=UTC).timestamp(), datetime(2025, 7, 1, tzinfo=UTC).timestamp())
WINDOWS: dict[Period, tuple[float, float]] = {  # NOW is Sunday 15 June 2025, 15:06 UTC
    "all": (-1.0, 1e18),
    "30d": (NOW - 30 * DAY, 1e18),
    "week": (datetime(2025, 6, 9, tzinfo=UTC).timestamp(), datetime(2025, 6, 16, tzinfo=UTC).timestamp()),
    "month": JUNE,
    "season": JUNE,  # a calendar month by default
}

# (days ago, seats, the member who forfeits after their first turn, reviewed)
HISTORY: tuple[tuple[float, tuple[int, ...], int | None, bool], ...] = (
    (45, (ANA, BEN), None, True),
    (40, (ANA, BEN), BEN, False),  # ben leaves after one turn: his loss, ana's win
    (33, (ANA, -1), None, True),  # against a computer: reviewed, not rated
    (29, (ANA, BEN, CY), None, True),
    (20, (CY, ANA), ANA, True),  # ana forfeits
    (12, (ANA, -1), None, True),
    (9, (BEN, -1, ANA), None, True),  # two members and a computer: rated for the members
    (5, (BEN, CY), None, False),
    (3, (CY, ANA), None, True),
    (2, (ANA, BEN), None, False),
    (1, (BEN, ANA), None, True),
    (0.5, (ANA, CY, BEN), BEN, True),  # ben leaves a three-player game
)


def played(index: int, days_ago: float, seated: tuple[int, ...], forfeit: int | None) -> Session:
    """A real classic game, every move chosen by the easy computer; `forfeit` leaves after one turn."""
    rules = Ruleset.preset("classic")
    dice = SeededDice(1000 + index)
    dice_start = dice.state()
    seats = [Seat(user, NAMES[user], computer="easy" if user < 0 else None) for user in seated]
    players = [seat.player_id for seat in seats]
    game = Game.new(rules, players, dice)
    easy = strategy_for("easy", rules, policies_for(rules), None)
    leaver = str(forfeit) if forfeit in seated else None
    while game.result is None:
        turns = sum(1 for e in game.events if isinstance(e, TurnStarted) and e.player == leaver)
        if leaver is not None and turns >= 1 and game.current_player != leaver:
            game.leave(leaver)
            leaver = None
            continue
        game.apply(easy.choose(game))
    return over(
        f"g{index:02d}",
        game,
        seats,
        dice_start,
        guild=GUILD,
        channel=10 + index,
        ended_at=NOW - days_ago * DAY,
    )


@pytest.fixture
async def history(database: Database) -> AsyncIterator[Database]:
    """The games above, archived as the session layer archives them, the reviewed ones reviewed (two-player
    games in chances to win, from the shipped classic tables, so the skill board has decisions)."""
    classic = shipped_tables(Ruleset.preset("classic"))
    assert classic is not None
    store = SqlSessionStore(database, rate_game)
    reviewer = GameReviews(SqlReviewStore(database), lambda event: None, PolicyCache(), lambda rules: classic)
    for index, (days_ago, seated, forfeit, reviewed) in enumerate(HISTORY):
        session = played(index, days_ago, seated, forfeit)
        record = record_of(session)
        assert record is not None
        await store.save(session.row(session.dump()), record)
        if reviewed:
            await reviewer.review(Played.of(record))
    yield database


# ---------------------------------------------------------------------- the second way


@dataclass
class Totals:
    name: str = ""
    games: int = 0
    wins: int = 0
    points: int = 0
    turns: int = 0
    best_turn: int = 0
    best_game: int = 0
    farkles: int = 0
    hot_dice: int = 0
    rating: float = 0.0
    accuracies: list[tuple[float, float]] = field(default_factory=list)  # (ended at, accuracy)
    # (ended at, game id, decision number, chance given away) of each decision in a rated game
    decisions: list[tuple[float, str, int, float]] = field(default_factory=list)

    def latest_decisions(self) -> list[float]:
        return [loss for *_, loss in sorted(self.decisions, reverse=True)[:SKILL_DECISIONS]]

    def value(self, metric: Metric) -> float:
        if metric == "win_rate":
            return self.wins / self.games
        if metric == "accuracy":
            return sum(a for _, a in self.accuracies) / len(self.accuracies)
        if metric == "skill":
            return sum(self.latest_decisions()) / len(self.latest_decisions())
        return float(getattr(self, metric))

    def counted(self, metric: Metric) -> int:
        if metric == "skill":
            return len(self.latest_decisions())
        return len(self.accuracies) if metric == "accuracy" else self.games


async def rows(db: Database, sql: str) -> list[Any]:
    return await db.read(lambda connection: list(connection.execute(text(sql)).mappings()))


async def recomputed(db: Database, since: float, until: float) -> dict[int, Totals]:
    """Every member's numbers from the stored games ending in [`since`, `until`): each game replayed from its
    rules, starting dice and moves; ratings re-run over every rated game in order; accuracy from the
    stored reviews."""
    games = await rows(
        db, "SELECT game_id, rules, dice_start, actions, ended_at FROM games ORDER BY ended_at"
    )
    seats: dict[str, list[Any]] = defaultdict(list)
    for seat in await rows(
        db, "SELECT game_id, user_id, name, computer, team FROM game_players ORDER BY seat"
    ):
        seats[seat["game_id"]].append(seat)
    stored_reviews = {
        r["game_id"]: r["review"] for r in await rows(db, "SELECT game_id, review FROM game_reviews")
    }
    totals: dict[int, Totals] = defaultdict(Totals)
    ratings: dict[int, Rating] = {}
    for game in games:
        seated = seats[game["game_id"]]
        users = [int(s["user_id"]) for s in seated]
        replayed = replay(
            game["rules"],
            game["dice_start"],
            game["actions"],
            [(u, s["team"]) for u, s in zip(users, seated, strict=True)],
        )
        result = replayed.result
        assert result is not None
        humans = [s for s in seated if s["computer"] is None]
        recent = since <= game["ended_at"] < until
        review = stored_reviews.get(game["game_id"])
        if review is not None and recent:
            judged = GameReview.from_json(review, [str(u) for u in users])
            for human in humans:
                mine = judged.of(str(human["user_id"]))
                if mine is not None and mine.accuracy is not None:
                    totals[int(human["user_id"])].accuracies.append((game["ended_at"], mine.accuracy))
        if len(humans) < 2:
            continue  # against computers: not rated
        if review is not None and recent and judged.measure == "win":
            for number, decision in enumerate(judged.decisions):
                if int(decision.player) in {int(h["user_id"]) for h in humans}:
                    totals[int(decision.player)].decisions.append(
                        (game["ended_at"], game["game_id"], number, decision.loss)
                    )
        placement = {p: place for place, group in enumerate(result.placements, start=1) for p in group}
        ids = sorted(int(h["user_id"]) for h in humans)
        after = rate_game([ratings.get(u) for u in ids], [placement[str(u)] for u in ids])
        ratings.update(zip(ids, after, strict=True))
        if not recent:
            continue
        for user in ids:
            numbers = numbers_of(replayed.events, str(user))
            mine_total = totals[user]
            mine_total.name = NAMES[user]
            mine_total.games += 1
            mine_total.wins += str(user) in result.winners
            mine_total.points += numbers.points
            mine_total.turns += numbers.turns
            mine_total.best_turn = max(mine_total.best_turn, numbers.best_turn)
            mine_total.best_game = max(mine_total.best_game, result.banks[str(user)])
            mine_total.farkles += numbers.farkles
            mine_total.hot_dice += numbers.hot_dice
    for user, total in totals.items():
        total.name = NAMES[user]
        total.rating = ratings[user].shown if user in ratings else 0.0
    return dict(totals)


def minimum_of(metric: Metric) -> int:
    if metric == "skill":
        return SKILL_MINIMUM
    return MIN_GAMES if metric in ("win_rate", "accuracy") else 1


def expected_board(totals: dict[int, Totals], metric: Metric) -> list[tuple[int, int, float]]:
    """(rank, member, value): members with the board's minimum, ranked one more than those strictly ahead
    (on the skill board, ahead is less chance given away)."""
    ranked = {user: t.value(metric) for user, t in totals.items() if t.counted(metric) >= minimum_of(metric)}
    sign = -1 if metric == "skill" else 1
    lines = [
        (1 + sum(1 for v in ranked.values() if sign * (v - value) > 1e-9), user, value)
        for user, value in ranked.items()
    ]
    return sorted(lines, key=lambda line: (line[0], NAMES[line[1]]))


def shown_value(metric: Metric, row: Any) -> float:
    if metric == "skill":
        return float(row.given_away)
    return float(
        row.accuracy
        if metric == "accuracy"
        else row.win_rate
        if metric == "win_rate"
        else getattr(row, metric)
    )


# ---------------------------------------------------------------------- the test


async def test_every_number_on_stats_and_the_boards_agrees_with_the_stored_games(history: Database) -> None:
    reviews = GameReviews(SqlReviewStore(history), lambda e: None, PolicyCache(), no_tables)
    service = StatsService(history, FakeClock(NOW), MIN_GAMES, reviews)
    everything = await recomputed(history, *WINDOWS["all"])
    ranked = [t for t in everything.values() if t.counted("skill") >= SKILL_MINIMUM]
    assert ranked, "the skill board ranks someone"

    # forfeits are losses, counted and rated like any other
    seats = await rows(
        history,
        "SELECT game_id, user_id, won, placement FROM game_players WHERE game_id IN ('g01', 'g04', 'g11')",
    )
    leavers = {(s["game_id"], int(s["user_id"])): (s["won"], s["placement"]) for s in seats}
    assert leavers[("g01", BEN)] == (0, 2) and leavers[("g01", ANA)][0] == 1
    assert leavers[("g04", ANA)] == (0, 2)
    assert leavers[("g11", BEN)] == (0, 3), "the leaver of three comes last"

    tr = Translator("en")
    for user, expected in everything.items():
        member = await service.member(GUILD, user)
        assert member.row is not None
        row = member.row
        assert (row.games, row.wins, row.points, row.turns) == (
            expected.games,
            expected.wins,
            expected.points,
            expected.turns,
        )
        assert (row.best_turn, row.best_game, row.farkles, row.hot_dice) == (
            expected.best_turn,
            expected.best_game,
            expected.farkles,
            expected.hot_dice,
        )
        assert row.rating == pytest.approx(expected.rating)
        last = sorted(expected.accuracies, reverse=True)[:RECENT_REVIEWS]
        assert member.accuracy is not None
        assert member.accuracy[1] == len(last)
        assert member.accuracy[0] == pytest.approx(sum(a for _, a in last) / len(last))
        decisions = expected.latest_decisions()
        assert member.skill == (
            (pytest.approx(sum(decisions) / len(decisions)), len(decisions)) if decisions else None
        )
        card = {f.name: f.value for f in stats_embed(NAMES[user], row, tr, member.accuracy).fields}
        assert card["Rated games"] == str(expected.games)
        assert card["Rating"] == f"{round(expected.rating):,}"
        assert card["Review accuracy"].endswith(f"(last {len(last)} reviewed games)")

    for period, window in WINDOWS.items():
        totals = await recomputed(history, *window)
        for metric in METRICS:
            expected = expected_board(totals, metric)
            for user in (ANA, BEN, CY):
                shown = await service.leaderboard(GUILD, user, metric, period, 0)
                got = [(r.rank, r.row.user_id, shown_value(metric, r.row)) for r in shown.rows]
                assert [(rank, who) for rank, who, _ in got] == [(rank, who) for rank, who, _ in expected], (
                    metric,
                    period,
                )
                assert [v for *_, v in got] == pytest.approx([v for *_, v in expected]), (metric, period)
                assert shown.total == len(expected)
                mine = next((line for line in expected if line[1] == user), None)
                assert (shown.mine.rank if shown.mine else None) == (mine[0] if mine else None), (
                    metric,
                    period,
                )
                counted = totals[user].counted(metric) if user in totals else 0
                assert shown.counted == counted and shown.minimum == minimum_of(metric)
                embed = leaderboard_embed(
                    metric,
                    period,
                    0,
                    shown.rows,
                    shown.total,
                    shown.mine,
                    tr,
                    minimum=shown.minimum,
                    counted=shown.counted,
                )
                assert f"with {shown.minimum} " in (embed.description or ""), "every board states its minimum"
