"""Reviews in the session layer: every game reviewed once when it ends, however many ask at once, a
stored review read back instead of reviewing again, each new review published on the stream, and the
games a crash left unreviewed reviewed at start-up."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import replace

from bot.core.records import GameRecord, PlayerRecord, ReviewRow
from bot.engine.review import GameReview
from bot.engine.rules import Ruleset
from bot.sessions.policies import PolicyCache
from bot.sessions.review import GameReviews, Played
from bot.sessions.stream_events import GameEnded, GameEvent, GameReviewed
from bot.sessions.win_tables import no_tables
from tests.engine.test_review import play
from tests.fakes import MemoryReviews

RULES = Ruleset.preset("classic")


def record(seed: int) -> GameRecord:
    game, start = play(RULES, ("easy", "expert"), seed)
    seats = tuple(
        PlayerRecord(seat, int(p.id), f"p{p.id}", None, None, 1, False, 0, 0, 0, 0, 0, 0)
        for seat, p in enumerate(game.players)
    )
    return GameRecord(
        f"g{seed}", 1, 2, RULES.model_dump_json(), json.dumps(start),
        json.dumps([a.to_dict() for a in game.history]), 0.0, 1.0, "target", seats,
    )  # fmt: skip


def played(game: GameRecord) -> Played:
    seats = tuple((p.user_id, p.team) for p in game.players)
    return Played(game.game_id, 1, 1.0, game.rules_json, game.dice_start_json, game.actions_json, seats)


def reviews_of(store: MemoryReviews, publish: Callable[[GameEvent], None]) -> GameReviews:
    """The reviews of a bot without win tables: every review in turn points."""
    return GameReviews(store, publish, PolicyCache(), no_tables)


def unheard(event: GameEvent) -> None:
    raise AssertionError(f"nothing new to publish, yet {event} was")


async def test_a_game_that_ends_is_reviewed_once_however_many_ask() -> None:
    store = MemoryReviews()
    published: list[GameEvent] = []
    reviews = reviews_of(store, published.append)
    game = record(1)
    await reviews.on_event(GameEnded(game))
    first, second = await asyncio.gather(reviews.review(played(game)), reviews.review(played(game)))
    assert first is second and store.saves == 1
    assert published == [GameReviewed(game, first)], "the stored review is published once, with its game"
    stored = store.rows[game.game_id]
    assert [seat.user_id for seat in stored.seats] == [1, 2]
    expert = next(seat for seat in stored.seats if seat.user_id == 2)
    assert expert.accuracy == 1.0 and expert.mistakes == 0 and not expert.computer


async def test_a_stored_review_is_read_back_not_made_again() -> None:
    store = MemoryReviews()
    game = record(2)
    made = await reviews_of(store, unheard).review(played(game))  # asked for: no game record to publish
    again = await reviews_of(store, unheard).review(played(game))  # a restart: nothing in memory
    assert again == made and store.saves == 1
    assert GameReview.from_json(store.rows[game.game_id].review_json, ["1", "2"]) == made


async def test_a_review_from_another_version_is_made_again() -> None:
    store = MemoryReviews()
    game = record(3)
    made = await reviews_of(store, unheard).review(played(game))
    old = store.rows[game.game_id]
    store.rows[game.game_id] = ReviewRow(
        old.game_id, old.guild_id, old.ended_at, old.measure, '{"version": 0}', old.seats
    )
    assert await reviews_of(store, unheard).review(played(game)) == made


async def test_a_start_up_reviews_and_publishes_the_games_a_crash_left_unreviewed() -> None:
    lost, older = record(4), replace(record(5), ended_at=-100.0)
    store = MemoryReviews(lost, older)
    published: list[GameEvent] = []
    reviews = reviews_of(store, published.append)
    assert await reviews.restore(since=0.0) == 1
    made = await reviews.review(played(lost))
    assert published == [GameReviewed(lost, made)] and list(store.rows) == [lost.game_id]
    assert await reviews_of(store, unheard).restore(since=0.0) == 0, "a second start-up finds nothing"
