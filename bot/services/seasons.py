"""Season rollover: when a season ends, each server's final standings are kept and posted once.

The keeper wakes at every month's start on the bot's clock (one `DeadlineScheduler` alarm; a quarter ends
at a month's start too) and at start-up. It closes, oldest first, every season that ended since the last
close (after a long downtime, several) for every server (storage makes that idempotent, so every shard
process may try), then posts the standings of the servers this process owns whose season has a channel:
the post is claimed in the database first, so two processes or a restart never post it twice. A process
that dies between its claim and its post leaves the claim to run out (`POST_LEASE`), and the next wake
posts it."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial

from bot.core.clock import Clock
from bot.core.periods import SEASON_LENGTHS, Season, SeasonLength, season_at, season_before
from bot.core.records import SeasonStanding
from bot.sessions.scheduler import DeadlineScheduler
from bot.storage import Database, DatabaseBusy, seasons

log = logging.getLogger(__name__)

POST_LEASE = 300.0  # seconds a claimed post waits for its poster before another process may post it


@dataclass(frozen=True)
class SeasonEnded:
    """A season's final standings to post in a server's chosen channel."""

    guild_id: int
    channel_id: int
    season: str
    standings: list[SeasonStanding]


# Sends the post and returns its message id (None: it could not be sent).
Poster = Callable[[SeasonEnded], Awaitable[int | None]]


class SeasonKeeper:
    def __init__(self, db: Database, clock: Clock, owns: Callable[[int], bool]) -> None:
        self._db = db
        self._clock = clock
        self._owns = owns
        self._poster: Poster | None = None
        self._alarm: DeadlineScheduler[str, None] = DeadlineScheduler(clock, self._ring, "farkle-seasons")

    def post_with(self, poster: Poster) -> None:
        self._poster = poster

    async def start(self) -> None:
        """Close and post what ended while the bot was away, then wait for the next season's end."""
        await self.roll()

    async def close(self) -> None:
        await self._alarm.close()

    async def _ring(self, key: str, alarm: None) -> None:
        await self.roll()

    async def roll(self) -> None:
        """Close the seasons that just ended, post what this process owns, and set the next alarm."""
        now = self._clock.now()
        try:
            for length in SEASON_LENGTHS:
                for ended in await self._missed(now, length):
                    closed = await self._db.write(
                        partial(seasons.close, season=ended, length=length, now=now)
                    )
                    if closed:
                        log.info("Season %s closed in %d servers", ended.key, len(closed))
            wake = await self._post_owned(now)
        except DatabaseBusy:
            log.warning("Season rollover postponed: the database is busy")
            wake = now + POST_LEASE
        self._alarm.set("rollover", min(wake, season_at(now, "month").until), None)

    async def _missed(self, now: float, length: SeasonLength) -> list[Season]:
        """The seasons of this length that ended since the last close, oldest first (after a long
        downtime, more than one); the season just ended when none was ever closed."""
        ended = season_before(season_at(now, length), length)
        last_closed = await self._db.read(partial(seasons.last_closed, length=length))
        first = season_at(last_closed, length) if last_closed is not None else ended
        missed = []
        while ended.since >= first.since:
            missed.append(ended)
            ended = season_before(ended, length)
        return missed[::-1]

    async def _post_owned(self, now: float) -> float:
        """Post every unposted season this process owns; when to look again for a claim left running."""
        wake = float("inf")
        for due in await self._db.read(seasons.unposted):
            if not self._owns(due.guild_id) or self._poster is None:
                continue
            if not await self._db.write(
                partial(seasons.claim, guild_id=due.guild_id, season=due.season, now=now, lease=POST_LEASE)
            ):
                wake = min(wake, (due.claimed_at or now) + POST_LEASE)  # another poster is at it
                continue
            standings = await self._db.read(
                partial(seasons.final_standings, guild_id=due.guild_id, season=due.season)
            )
            try:
                message_id = await self._poster(
                    SeasonEnded(due.guild_id, due.channel_id, due.season, standings)
                )
            except Exception:  # a bug or a lost connection: the claim runs out and the post is tried again
                log.exception("Season %s of guild %s: the post failed", due.season, due.guild_id)
                wake = min(wake, now + POST_LEASE)
                continue
            await self._db.write(
                partial(
                    seasons.mark_posted,
                    guild_id=due.guild_id,
                    season=due.season,
                    now=self._clock.now(),
                    message_id=message_id,
                )
            )
        return wake
