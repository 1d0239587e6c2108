"""A tournament's results and its recovery after a restart.

A match's result comes from the game-events stream's `GameEnded`, folded into the bracket in the
transaction that stores the game's id, so a replayed end counts once; a start-up brings back the running
tournaments, counts the games that ended uncounted and crowns the champions a crash left unawarded.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bot.core.records import GameRecord
from bot.engine.tournament import STAND_IN, Match
from bot.sessions.stream_events import GameEnded, GameEvent
from bot.sessions.tournament.book import Notice, TournamentBook
from bot.sessions.tournament.matches import Matches
from bot.sessions.tournament.state import Tournament

log = logging.getLogger(__name__)


class Results:
    def __init__(self, book: TournamentBook, matches: Matches) -> None:
        self._book = book
        self._matches = matches
        self._uncounted: dict[str, GameRecord] = {}  # finished games whose count has not been written
        self._counting = asyncio.Lock()
        self._failing: set[str] = set()  # uncounted games whose failure was logged

    async def restore(self, owns: Callable[[int], bool] = lambda guild_id: True) -> int:
        """Bring back every tournament signing up or running, re-arm its deadlines, and open the places
        of matches a crash left without one; crown the champions a crash left unawarded."""
        book = self._book
        for row in await book.store.running():
            if not owns(row.guild_id):
                continue
            tournament = Tournament.from_row(row, await book.store.entrants(row.tournament_id))
            book.running[tournament.tournament_id] = tournament
            book.arm(tournament)
            for key, live in tournament.live.items():
                if live.place is None:
                    book.notify(Notice("match", tournament.view(), key))
        for row in await book.store.uncrowned():
            if owns(row.guild_id):
                await book.crown(Tournament.from_row(row, []))
        return len(book.running)

    async def reconcile(self) -> None:
        """After the games are restored: count the running matches' games that ended while their
        result was never counted (its write failed, or the process died first), by game id, once."""
        running = self._book.running.values()
        playing = [live.game_id for t in running for live in t.live.values() if live.game_id]
        for record in await self._book.store.ended_games(playing):
            self._uncounted.setdefault(record.game_id, record)
        await self._count_uncounted()

    async def on_game_event(self, event: GameEvent) -> None:
        """A finished game in a match's place counts for that match, once (by its game id); one whose
        count could not be written is tried again on every event until it is."""
        if isinstance(event, GameEnded):
            self._uncounted[event.record.game_id] = event.record
        if self._uncounted:
            await self._count_uncounted()

    async def _count_uncounted(self) -> None:
        """One pass at a time (a game's count may open the next game, whose events come back here); a
        game whose count fails waits for the next event or start-up, without holding up the others, and
        is logged once."""
        async with self._counting:
            tried: set[str] = set()
            while waiting := [r for game_id, r in self._uncounted.items() if game_id not in tried]:
                record = waiting[0]
                tried.add(record.game_id)
                try:
                    await self._count_ended(record)
                except Exception as error:  # the database is away, most likely
                    if record.game_id not in self._failing:
                        self._failing.add(record.game_id)
                        log.warning("Game %s not counted for its tournament yet: %r", record.game_id, error)
                    continue
                self._uncounted.pop(record.game_id, None)
                self._failing.discard(record.game_id)

    async def _count_ended(self, record: GameRecord) -> None:
        book = self._book
        for tournament_id in [
            t.tournament_id for t in book.running.values() if t.guild_id == record.guild_id
        ]:
            async with book.locked(tournament_id) as tournament:
                if tournament is not None and tournament.bracket is not None:
                    found = _match_of_game(tournament, record)
                    if found is not None:
                        await self._count(tournament, found, record)
                        return

    async def _count(self, tournament: Tournament, match: Match, record: GameRecord) -> None:
        book = self._book
        assert tournament.bracket is not None
        winner = _winner(record)
        if winner is None:  # nobody won (the game was abandoned): the host advances the match
            return
        before = tournament.view()
        decided = tournament.bracket.record_game(match.key, winner)
        opened: list[str] = []
        if decided:
            tournament.live.pop(match.key, None)
            opened = book.advance_rounds(tournament)
        else:
            tournament.live[match.key].game_id = None
        counted = {
            "game_id": record.game_id,
            "match_key": match.key,
            "winner_id": winner,
            "counted_at": book.clock.now(),
        }
        try:
            written = await book.store.count_game(tournament.row(), counted)
        except Exception:  # nothing was written: the tournament is as it was before this game
            book.running[tournament.tournament_id] = before
            raise
        if not written:  # counted before (a replayed end), or moved on: the stored state is the truth
            book.running[tournament.tournament_id] = before  # were the reload to fail too
            await book.reload(tournament.tournament_id)
            return
        tournament.revision += 1
        if decided:
            await book.announce(tournament, match.key, record.channel_id, opened)
        else:
            book.notify(Notice("card", tournament.view()))
            await self._matches.open_game(tournament, match.key)  # the next game of a best of three
        await self._matches.start_waiting(tournament)


def _match_of_game(tournament: Tournament, record: GameRecord) -> Match | None:
    """The open match played in the game's place by the game's players."""
    assert tournament.bracket is not None
    humans = {p.user_id for p in record.humans}
    for key, live in tournament.live.items():
        match = tournament.bracket.match(key)
        if match is None or live.place != record.channel_id:
            continue
        if humans == {p for p in match.players if p != STAND_IN}:
            return match
    return None


def _winner(record: GameRecord) -> int | None:
    """Who won the game, as a bracket id (a computer is the stand-in); None if nobody did."""
    winners = [p for p in record.players if p.won]
    if len(winners) != 1:
        return None
    return STAND_IN if winners[0].computer is not None else winners[0].user_id
