"""Game reviews, computed once per game: off the event loop, kept in memory, stored for good.

Every finished game is reviewed in the background when the game-events stream announces its end
(`GameEnded`): a review costs milliseconds of CPU (one turn solve per turn under the win tables), so
the Review button is answered from the store. The review holds the split of luck and skill (one replay);
its chance-to-win chart is drawn off the event loop when first asked for and kept in memory beside it.
A game reviewed before, or asked for while its review is running, is not reviewed again. A stored review is
published on the stream (`GameReviewed`) for the features that judge play (achievements); a start-up reviews
the games a crash left unreviewed. The measure is chosen when the review is made (chance to win if the
ruleset's win tables are loaded by then, else turn points) and stored with it, so a review reads the same
after a restart.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.core.records import GameRecord, ReviewedDecision, ReviewedSeat, ReviewRow
from bot.engine import Ruleset, TurnPolicies
from bot.engine.review import GameReview, review
from bot.engine.win.tables import WinTables
from bot.sessions.archive import archived
from bot.sessions.policies import PolicyCache
from bot.sessions.stream_events import GameEnded, GameEvent, GameReviewed
from bot.sessions.win_tables import TablesOf

log = logging.getLogger(__name__)

CACHED_REVIEWS = 256
CACHED_CHARTS = 32  # tens of kilobytes each: the charts of the reviews asked for last


class ReviewStore(Protocol):
    async def load(self, game_id: str) -> str | None: ...

    async def save(self, row: ReviewRow) -> None: ...

    async def unreviewed(self, since: float) -> list[GameRecord]: ...


@dataclass(frozen=True)
class Played:
    """What a review reads of an archived game: its columns and seats (user id, team), in seat order."""

    game_id: str
    guild_id: int
    ended_at: float
    rules_json: str
    dice_start_json: str
    actions_json: str
    seats: tuple[tuple[int, int | None], ...]

    @classmethod
    def of(cls, record: GameRecord) -> Played:
        seats = tuple((p.user_id, p.team) for p in sorted(record.players, key=lambda p: p.seat))
        return cls(
            record.game_id,
            record.guild_id,
            record.ended_at,
            record.rules_json,
            record.dice_start_json,
            record.actions_json,
            seats,
        )


def _computed(played: Played, policies: TurnPolicies, tables: WinTables | None) -> GameReview:
    """The review itself: pure CPU, run in a worker thread."""
    game = archived(played.rules_json, played.dice_start_json, played.actions_json, played.seats)
    return review(game.rules, game.players, game.dice_start, game.actions, policies, tables, game.teams)


def _row(played: Played, result: GameReview) -> ReviewRow:
    seats = []
    for seat, (user_id, _) in enumerate(played.seats):
        player = result.of(str(user_id))
        if player is not None:
            seats.append(
                ReviewedSeat(seat, user_id, user_id < 0, player.accuracy, player.decisions, player.mistakes)
            )
    seat_of = {str(user_id): seat for seat, (user_id, _) in enumerate(played.seats) if user_id >= 0}
    decisions = tuple(  # members' decisions, for the skill rating (computers have negative ids)
        ReviewedDecision(index, seat_of[d.player], int(d.player), d.loss)
        for index, d in enumerate(result.decisions)
        if d.player in seat_of
    )
    return ReviewRow(
        played.game_id,
        played.guild_id,
        played.ended_at,
        result.measure,
        result.to_json(),
        tuple(seats),
        decisions,
    )


class GameReviews:
    def __init__(
        self,
        store: ReviewStore,
        publish: Callable[[GameEvent], None],
        policies: PolicyCache,
        win_tables: TablesOf,
    ) -> None:
        """`policies` and `win_tables`: the bot's solved turns and win tables, which reviews judge by."""
        self._store = store
        self._publish = publish
        self._policies = policies
        self._win_tables = win_tables
        self._done: OrderedDict[str, GameReview] = OrderedDict()
        self._running: dict[str, asyncio.Task[GameReview]] = {}
        self._charts: OrderedDict[str, bytes | None] = OrderedDict()

    async def on_event(self, event: GameEvent) -> None:
        """Review each game as it ends, in the background: the stream's other subscribers don't wait."""
        if isinstance(event, GameEnded):
            self._start(Played.of(event.record), event.record)

    async def restore(self, since: float) -> int:
        """Review the games that ended since `since` and have no review (a crash came first); how many."""
        missed = await self._store.unreviewed(since)
        for record in missed:
            self._start(Played.of(record), record)
        return len(missed)

    async def review(self, played: Played) -> GameReview:
        """The game's review: remembered, else stored, else computed now (once, however many ask)."""
        done = self._done.get(played.game_id)
        if done is not None:
            self._done.move_to_end(played.game_id)
            return done
        return await asyncio.shield(self._start(played))

    async def chart(self, played: Played, draw: Callable[[GameReview], bytes | None]) -> bytes | None:
        """The review's chart (PNG bytes, None where it has none): drawn by `draw` (the render layer's) in a
        worker thread the first time, then kept with the review."""
        if played.game_id in self._charts:
            self._charts.move_to_end(played.game_id)
            return self._charts[played.game_id]
        drawn = await asyncio.to_thread(draw, await self.review(played))
        self._charts[played.game_id] = drawn
        while len(self._charts) > CACHED_CHARTS:
            self._charts.popitem(last=False)
        return drawn

    def _start(self, played: Played, record: GameRecord | None = None) -> asyncio.Task[GameReview]:
        running = self._running.get(played.game_id)
        if running is None:
            running = asyncio.create_task(self._make(played, record), name=f"farkle-review-{played.game_id}")
            self._running[played.game_id] = running
            running.add_done_callback(lambda task: self._finished(played.game_id, task))
        return running

    def _finished(self, game_id: str, task: asyncio.Task[GameReview]) -> None:
        self._running.pop(game_id, None)
        if not task.cancelled() and task.exception() is not None:
            log.warning("Could not review game %s: %s", game_id, task.exception())

    async def _make(self, played: Played, record: GameRecord | None) -> GameReview:
        """Load or compute the review; a computed one is stored, then published when its game is known
        (a Review button asking first for a game a crash left unreviewed: the start-up publishes it)."""
        players = [str(user_id) for user_id, _ in played.seats]
        stored = await self._store.load(played.game_id)
        result = None
        if stored is not None:
            try:
                result = GameReview.from_json(stored, players)
            except ValueError:
                log.warning("Game %s has a review from another version: reviewing it again", played.game_id)
        if result is None:
            rules = Ruleset.model_validate_json(played.rules_json)
            policies = await self._policies.ensure(rules)
            result = await asyncio.to_thread(_computed, played, policies, self._win_tables(rules))
            await self._store.save(_row(played, result))
            if record is not None:
                self._publish(GameReviewed(record, result))
        self._remember(played.game_id, result)
        return result

    def _remember(self, game_id: str, result: GameReview) -> None:
        self._done[game_id] = result
        while len(self._done) > CACHED_REVIEWS:
            self._done.popitem(last=False)

    async def close(self, wait: float) -> None:
        """Let running reviews finish (they are short) for at most `wait` seconds, so they are stored;
        one left unfinished is made again when asked for."""
        running: Sequence[asyncio.Task[GameReview]] = list(self._running.values())
        if running and wait > 0:
            await asyncio.wait(running, timeout=wait)
        for task in running:
            task.cancel()
