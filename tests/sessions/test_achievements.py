"""Every achievement's trigger, and awards that stay one row per member whatever repeats them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace

from bot.core.records import GameRecord
from bot.engine import Game, Ruleset, ScriptedDice
from bot.engine.daily import TURNS
from bot.engine.review import GameReview
from bot.sessions.achievements import (
    ACHIEVEMENTS,
    PERFECT_DECISIONS,
    WIN_TURNS,
    AchievementKeeper,
    daily_achievements,
    game_achievements,
    review_achievements,
)
from bot.sessions.daily.attempt import DailyAttempt
from bot.sessions.policies import PolicyCache
from bot.sessions.review import GameReviews, Played
from bot.sessions.stream import GameStream
from bot.sessions.stream_events import Awarded, DailyEnded, GameEnded, GameEvent, GameReviewed
from bot.sessions.win_tables import no_tables
from bot.storage import Database
from bot.storage.daily import SqlDailyStore
from tests.fakes import FakeClock, MemoryReviews, MemorySessions
from tests.records import player, synthetic
from tests.sessions.test_review import record as easy_against_expert
from tests.storage.test_daily import attempt as daily_row

ANA, BEN = 1, 2
SIX_ONES = (1, 1, 1, 1, 1, 1)


def played(rolls: Sequence[Sequence[int]], moves: Sequence[tuple[str, str, tuple[int, ...]]]) -> GameRecord:
    """A replayable box-rules game between ANA and BEN (ANA won unless told), from scripted dice."""
    rules = Ruleset.preset("box")
    dice = ScriptedDice(rolls)
    start = dice.state()
    game = Game.new(rules, [str(ANA), str(BEN)], dice)
    for kind, who, keep in moves:
        getattr(game, kind)(who, keep)
    record = synthetic("g1", player(ANA, won=True), player(BEN), ended_at=5.0, guild=1)
    return replace(
        record,
        rules_json=rules.model_dump_json(),
        dice_start_json=json.dumps(start),
        actions_json=json.dumps([action.to_dict() for action in game.history]),
    )


async def expert_scores_ten_thousand(day: int) -> int:
    return 10_000


def listened(store: SqlDailyStore) -> tuple[AchievementKeeper, list[Awarded]]:
    """A keeper (expert scores 10,000 on every daily) and the list of what it publishes on the stream."""
    published: list[Awarded] = []

    def publish(event: GameEvent) -> None:
        assert isinstance(event, Awarded), "the keeper publishes only what it handed out"
        published.append(event)

    return AchievementKeeper(store, FakeClock(), expert_scores_ten_thousand, publish), published


async def reviewed(seed: int) -> tuple[GameRecord, GameReview]:
    """A game of member 1 playing like `easy` and member 2 playing exactly like `expert`, reviewed in turn
    points (no win tables), where `expert`'s every decision is the best one."""
    game = easy_against_expert(seed)
    published: list[GameEvent] = []
    reviews = GameReviews(MemoryReviews(), published.append, PolicyCache(), no_tables)
    return game, await reviews.review(Played.of(game))


def test_the_table_holds_about_fifteen_achievements_with_unique_ids() -> None:
    assert 14 <= len(ACHIEVEMENTS) <= 18
    assert len({a.id for a in ACHIEVEMENTS}) == len(ACHIEVEMENTS)


def test_keeps_earn_a_straight_three_pairs_and_six_of_a_kind() -> None:
    all_six = (0, 1, 2, 3, 4, 5)
    record = played(
        [(6, 2), (1, 2, 3, 4, 5, 6), (2, 2, 3, 3, 4, 4), (5, 5, 5, 5, 5, 5)],
        [("roll", "1", ()), ("roll", "1", all_six), ("roll", "1", all_six), ("bank", "1", all_six)],
    )
    earned = game_achievements(record)
    assert {"straight", "three_pairs", "six_of_a_kind"} <= earned[ANA]
    assert not {"straight", "three_pairs", "six_of_a_kind"} & earned[BEN]


def test_winning_after_trailing_by_five_thousand_is_a_comeback() -> None:
    all_six = (0, 1, 2, 3, 4, 5)
    moves = [("roll", "2", ()), ("roll", "2", all_six), ("bank", "2", all_six)]  # ben banks 6,000
    record = played([(2, 6), SIX_ONES, SIX_ONES], moves)
    assert "comeback" in game_achievements(record)[ANA]
    not_behind = played([(2, 6), SIX_ONES], [*moves[:1], ("bank", "2", all_six)])  # 3,000 behind
    assert "comeback" not in game_achievements(not_behind)[ANA]


def test_numbers_of_a_game_earn_wins_hot_dice_big_turns_and_beating_computers() -> None:
    winner = replace(player(ANA, won=True, best=3000), hot_dice=1, farkles=0)
    master = replace(player(-1, placement=2), computer="master", user_id=-1)
    expert = replace(player(-2, placement=3), computer="expert", user_id=-2)
    loser = replace(player(BEN, best=2950), hot_dice=0)
    crowd = synthetic("g2", winner, master, expert, loser, ended_at=5.0, guild=1)  # not replayable
    earned = game_achievements(crowd)
    assert earned[ANA] == {
        "first_win",
        "hot_dice",
        "big_turn",
        "flawless",
        "crowd",
        "beat_master",
        "beat_expert",
    }
    assert earned[BEN] == set() and -1 not in earned
    pair = synthetic("g3", player(ANA, won=True), player(BEN), ended_at=5.0, guild=1)
    assert game_achievements(pair)[ANA] == {"first_win"}  # one Farkle: not flawless; two players


def test_a_win_earns_achievements_only_if_every_player_had_three_turns() -> None:
    """A member who left (or was removed) after a turn still loses, but hands the winner no achievement."""
    winner = replace(player(ANA, won=True, best=3000), farkles=0)
    left_early = synthetic("g4", winner, replace(player(BEN), turns=WIN_TURNS - 1), ended_at=5.0, guild=1)
    assert game_achievements(left_early)[ANA] == {"big_turn"}, "not a win's: first win, flawless"
    played_out = synthetic("g5", winner, replace(player(BEN), turns=WIN_TURNS), ended_at=5.0, guild=1)
    assert game_achievements(played_out)[ANA] == {"big_turn", "first_win", "flawless"}


async def test_a_perfect_review_counts_the_players_own_decisions() -> None:
    _, review = await reviewed(6)
    _, expert = review.players
    own = sum(1 for decision in review.decisions if decision.player == expert.player)
    assert expert.decisions == own < len(review.decisions), "the other player's decisions are not counted"


def daily(ends: str, points: Sequence[int], kept: Sequence[tuple[int, ...]] = ()) -> DailyAttempt:
    names = {"b": "banked", "f": "farkled", "h": "hot"}
    return DailyAttempt(
        user_id=ANA,
        name="ana",
        guild_id=1,
        day=20_000,
        score=sum(points),
        turn_number=TURNS,
        rolls=0,
        roll=(),
        selected=(),
        turn_total=0,
        dice_left=6,
        ends=tuple(names[e] for e in ends),  # type: ignore[misc]
        turn_points=tuple(points),
        kept=tuple(kept),
        finished=True,
    )


def test_a_daily_earns_by_its_turns_its_score_expert_and_the_streak() -> None:
    plain = daily("bbbbbbbbbf", [300] * 9 + [0])
    assert daily_achievements(plain, expert=5000, streak=1) == {"daily_first"}
    clean = daily("bbbbbbbbbh", [300] * 9 + [3300], kept=[(1, 2, 3, 4, 5, 6)])
    assert daily_achievements(clean, expert=5999, streak=7) == {
        "daily_first",
        "daily_clean",
        "daily_high",
        "daily_expert",
        "daily_streak",
        "hot_dice",
        "big_turn",
        "straight",
    }
    assert "daily_expert" not in daily_achievements(clean, expert=clean.score, streak=1)
    assert "daily_streak" not in daily_achievements(clean, expert=9999, streak=6)


async def test_a_flawless_review_of_ten_decisions_or_more_earns_a_perfect_review() -> None:
    game, review = await reviewed(6)
    easy, expert = review.players
    assert expert.flawless and expert.decisions >= PERFECT_DECISIONS and not easy.flawless
    assert review_achievements(game, review) == {2: {"perfect_review"}}

    short = replace(expert, decisions=PERFECT_DECISIONS - 1)
    assert review_achievements(game, replace(review, players=(easy, short))) == {}, "too short to count"
    played_by_computer = replace(game, players=(game.players[0], replace(game.players[1], computer="expert")))
    assert review_achievements(played_by_computer, review) == {}, "computers earn nothing"


async def test_a_replayed_review_awards_a_perfect_review_once(database: Database) -> None:
    store = SqlDailyStore(database)
    keeper, heard = listened(store)
    game, review = await reviewed(6)
    await keeper(GameReviewed(game, review))
    await keeper(GameReviewed(game, review))  # a start-up publishing it again: nothing new to say
    assert [([a.achievement for a in h.awards], h.game) for h in heard] == [(["perfect_review"], game)]
    assert [(a.achievement, a.source) for a in await store.achievements(2)] == [
        ("perfect_review", game.game_id)
    ]


async def test_a_replayed_game_end_or_daily_end_awards_nothing_twice(database: Database) -> None:
    store = SqlDailyStore(database)
    keeper, heard = listened(store)
    record = synthetic("g9", player(ANA, won=True, best=3500), player(BEN), ended_at=5.0, guild=1)
    await keeper(GameEnded(record))
    await keeper(GameEnded(record))  # a crash between the delivery and the mark: announced again
    await store.save(daily_row(ANA, 20_000, score=900), None)
    finished = daily("bbbbbbbbbf", [100] * 9 + [0])
    await keeper(DailyEnded(finished))
    await keeper(DailyEnded(finished))
    assert [([a.achievement for a in h.awards], h.daily) for h in heard] == [
        (["big_turn", "first_win"], None),
        (["daily_first"], finished),
        ([], finished),  # nothing new, still said: the press that finished the daily lets go of it
    ]
    rows = await store.achievements(ANA)
    assert sorted((a.achievement, a.source) for a in rows) == [
        ("big_turn", "g9"),
        ("daily_first", "daily:20000"),
        ("first_win", "g9"),
    ]
    assert await store.unawarded() == []


async def test_the_seventh_daily_in_a_row_earns_the_streak(database: Database) -> None:
    store = SqlDailyStore(database)
    keeper, _ = listened(store)
    days = {ANA: range(19_994, 20_001), BEN: [19_993, *range(19_995, 20_001)]}  # ben missed a day
    for user_id, played_days in days.items():
        for day in played_days:
            await store.save(daily_row(user_id, day, score=500), None)
        await keeper(DailyEnded(replace(daily("bbbbbbbbbf", [50] * 9 + [0]), user_id=user_id)))
    assert "daily_streak" in {a.achievement for a in await store.achievements(ANA)}
    assert "daily_streak" not in {a.achievement for a in await store.achievements(BEN)}


async def test_awards_of_a_game_and_of_a_daily_reach_every_subscriber_through_the_stream(
    database: Database,
) -> None:
    store = SqlDailyStore(database)
    stream = GameStream(MemorySessions())
    keeper = AchievementKeeper(store, FakeClock(), expert_scores_ten_thousand, stream.publish)
    heard: list[GameEvent] = []

    async def listen(event: GameEvent) -> None:
        heard.append(event)

    stream.subscribe(keeper)
    stream.subscribe(listen)
    record = synthetic("g7", player(ANA, won=True, best=3500), player(BEN), ended_at=5.0, guild=1)
    await store.save(daily_row(BEN, 20_000, score=900), None)
    finished = replace(daily("bbbbbbbbbf", [100] * 9 + [0]), user_id=BEN)
    stream.publish(GameEnded(record))
    stream.publish(DailyEnded(finished))
    await stream.delivered()

    assert heard[:2] == [GameEnded(record), DailyEnded(finished)]
    awarded = [event for event in heard if isinstance(event, Awarded)]
    assert [([a.achievement for a in e.awards], e.game, e.daily) for e in awarded] == [
        (["big_turn", "first_win"], record, None),
        (["daily_first"], None, finished),
    ]
    await stream.close()
