"""The only door to a tournament: sign-up, start, check-ins, results, deadlines and the host's controls.

Every change runs under the tournament's lock and is committed before anyone hears of it. Each match is
a two-player game opened through the session manager's public commands (lobby, join, start) in the
match's own place (a thread the delivery side made), once both players pressed Ready; its result comes
from the game-events stream's `GameEnded`, folded into the bracket in the transaction that stores the
game's id, so a replayed end counts once. A player who hasn't pressed Ready by the match's deadline
forfeits. What the Discord side must show (the card, a match to open, a game's board, the podium) goes
out as `Notice`s, in order, from one task.

The door is composed of one job each: `SignUp` (`tournament_signup.py`: sign-up, start, the host's
controls), `Matches` (`tournament_matches.py`: places, Ready, games, forfeits) and `Results`
(`tournament_results.py`: counting games, a start-up's recovery), over the `TournamentBook` they share
(`tournament_book.py`: locks, writes, notices, deadlines, rounds and the champion's award).
"""

from __future__ import annotations

from bot.core.clock import Clock
from bot.sessions.manager import SessionManager
from bot.sessions.tournament.book import Award, Deadline, TournamentBook
from bot.sessions.tournament.matches import Matches, TableFor
from bot.sessions.tournament.results import Results
from bot.sessions.tournament.signup import SignUp
from bot.sessions.tournament.state import Tournament, TournamentView
from bot.sessions.tournament.store import TournamentStore


class Tournaments:
    """`award(user id, achievement, source)` stores a champion's achievement: awaited, so a tournament
    is marked crowned only once it is stored. `table_for(guild id)` is a match's table (default: the
    session manager's)."""

    def __init__(
        self,
        store: TournamentStore,
        clock: Clock,
        games: SessionManager,
        award: Award,
        table_for: TableFor | None = None,
    ) -> None:
        self._book = TournamentBook(store, clock, award, self._ring)
        self._signup = SignUp(self._book)
        self._matches = Matches(self._book, games, table_for)
        self._results = Results(self._book, self._matches)
        # Sign-up, start and the host's controls.
        self.create = self._signup.create
        self.join = self._signup.join
        self.leave = self._signup.leave
        self.start = self._signup.start
        self.cancel = self._signup.cancel
        self.advance = self._signup.advance
        self.disqualify = self._signup.disqualify
        # The matches: the place the delivery side opened, and Ready.
        self.place_match = self._matches.place_match
        self.ready = self._matches.ready
        # Results, and a start-up's recovery.
        self.on_game_event = self._results.on_game_event
        self.restore = self._results.restore
        self.reconcile = self._results.reconcile
        # What the delivery side hears, and a clean stop.
        self.listen = self._book.listen
        self.settled = self._book.settled
        self.close = self._book.close

    def view(self, tournament_id: str) -> TournamentView | None:
        tournament = self._book.running.get(tournament_id)
        return tournament.view() if tournament else None

    def running_in(self, guild_id: int) -> list[TournamentView]:
        return [t.view() for t in self._book.running.values() if t.guild_id == guild_id]

    async def of_guild(self, guild_id: int) -> list[TournamentView]:
        """A server's tournaments, newest first: running ones as they are now, the rest as stored."""
        views = []
        for row, entrants in await self._book.store.of_guild(guild_id):
            running = self._book.running.get(row.tournament_id)
            views.append((running or Tournament.from_row(row, entrants)).view())
        return views

    async def forget(self, user_id: int, name: str) -> None:
        """Forget-me: the member's name in running tournaments (storage rewrote the stored ones)."""
        for tournament in self._book.running.values():
            tournament.forget(user_id, name)

    async def _ring(self, where: Deadline, deadline: float) -> None:
        """A deadline rang: the sign-up's closes it, a match's forfeits whoever wasn't Ready."""
        tournament_id, key = where
        async with self._book.locked(tournament_id) as tournament:
            if tournament is None:
                return
            if not key:
                if tournament.stage == "signup":
                    await self._signup.close_signup(tournament)
                return
            await self._matches.forfeit(tournament, key, deadline)
