"""Running a tournament's matches: the place the delivery side opened, the players' Ready, each game
opened through the session manager's public commands, and the forfeit when the Ready deadline rings.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.engine.messages import Message
from bot.engine.tournament import STAND_IN
from bot.sessions.manager import SessionManager
from bot.sessions.requests import Host, Press
from bot.sessions.session import TableSettings
from bot.sessions.tournament.book import NO_TOURNAMENT, Answer, Notice, TournamentBook
from bot.sessions.tournament.state import Tournament

log = logging.getLogger(__name__)


TableFor = Callable[[int], Awaitable[TableSettings]]  # a server's table settings, by guild id


class Matches:
    def __init__(self, book: TournamentBook, games: SessionManager, table_for: TableFor | None) -> None:
        self._book = book
        self._games = games
        self._table_for = table_for

    async def place_match(self, tournament_id: str, key: str, place: int, *, in_thread: bool) -> None:
        """The delivery side opened the match's place (a thread, or the tournament's channel)."""
        async with self._book.locked(tournament_id) as tournament:
            live = tournament.live.get(key) if tournament else None
            if tournament is None or live is None:
                return
            live.place, live.in_thread = place, in_thread
            await self._book.commit(tournament)
            if len(live.ready) == 2:  # else someone (the stand-in's opponent, say) still has to press Ready
                await self.open_game(tournament, key)

    async def ready(self, tournament_id: str, key: str, user_id: int) -> Answer:
        async with self._book.locked(tournament_id) as tournament:
            if tournament is None or tournament.bracket is None:
                return Answer.refuse(NO_TOURNAMENT)
            match = tournament.bracket.match(key)
            live = tournament.live.get(key)
            if match is None or live is None or match.decided:
                return Answer.refuse(Message("This match is over."))
            if user_id not in match.players:
                return Answer.refuse(Message("Only the two players of this match can press Ready."))
            if user_id in live.ready and (len(live.ready) < 2 or live.game_id is not None):
                return Answer.refuse(Message("You're ready: the game starts when your opponent is too."))
            if user_id not in live.ready:  # else both were ready and the game didn't open: try again
                live.ready.append(user_id)
                await self._book.commit(tournament)
            if len(live.ready) == len(match.players) == 2 and live.place is not None:
                await self.open_game(tournament, key)
            return Answer(tournament.view())

    async def open_game(self, tournament: Tournament, key: str) -> None:
        """One game of match `key` in its place, through the session manager's own commands."""
        assert tournament.bracket is not None
        match = tournament.bracket.match(key)
        live = tournament.live[key]
        assert match is not None and match.second is not None and live.place is not None
        table = await self._table_for(tournament.guild_id) if self._table_for else self._games.default_table()
        first, second = match.first, match.second
        if first == STAND_IN:
            first, second = second, first
        host = Host(tournament.guild_id, live.place, first, tournament.name_of(first))
        opened = await self._games.open_lobby(host, tournament.rules, table)
        if opened.snapshot is None:  # the place is busy with another game: tried again after it ends
            log.info("Match %s of tournament %s waits for its table", key, tournament.tournament_id)
            return
        if second == STAND_IN:
            snapshot = opened.snapshot
            await self._games.press(
                Press(live.place, snapshot.game_id, snapshot.seq, first, "", "cpu", tournament.stand_in_level)
            )
        else:
            await self._games.join(live.place, second, tournament.name_of(second))
        started = await self._games.start(live.place, first)
        if started.snapshot is None:
            log.warning(
                "Match %s of tournament %s could not start: %s",
                key,
                tournament.tournament_id,
                started.refusal,
            )
            return
        live.game_id = started.snapshot.game_id
        await self._book.commit(tournament)
        self._book.notify(Notice("game", tournament.view(), key, started.snapshot))

    async def start_waiting(self, tournament: Tournament) -> None:
        """Matches whose players are ready but whose place was busy (one game per channel) start now."""
        if tournament.bracket is None:
            return
        for key, live in list(tournament.live.items()):
            match = tournament.bracket.match(key)
            if (
                match is not None
                and not match.decided
                and live.game_id is None
                and len(live.ready) == 2
                and live.place
            ):
                await self.open_game(tournament, key)

    async def forfeit(self, tournament: Tournament, key: str, deadline: float) -> None:
        """Whoever hasn't pressed Ready by the deadline forfeits; if neither did, single elimination
        advances the better seed and Swiss counts the match lost for both (the caller holds the lock)."""
        live = tournament.live.get(key)
        bracket = tournament.bracket
        match = bracket.match(key) if bracket else None
        if live is None or bracket is None or match is None or match.decided or live.game_id is not None:
            return
        if live.deadline != deadline:
            return
        present = [p for p in match.players if p in live.ready]
        if len(present) == 1:
            winner: int | None = present[0]
        elif len(present) == 0 and bracket.format == "single":
            winner = min(match.players, key=bracket.seed_of)
        elif len(present) == 0:
            winner = None
        else:
            return
        bracket.decide(key, winner, "forfeit")
        await self._book.close_match(tournament, key)
