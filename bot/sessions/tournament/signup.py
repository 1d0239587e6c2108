"""A tournament's sign-up and start, and the host's controls (cancel, advance a match, disqualify).

Each runs under the tournament's lock (`TournamentBook.locked`) and is written before anyone hears of it.
"""

from __future__ import annotations

from bot.core.records import EntrantRow
from bot.engine import Ruleset
from bot.engine.messages import Message
from bot.engine.tournament import FEWEST_ENTRANTS, MOST_ENTRANTS, STAND_IN, Bracket, Format
from bot.sessions.tournament.book import HOST_ONLY, NO_TOURNAMENT, Answer, Notice, TournamentBook
from bot.sessions.tournament.state import STAND_IN_LEVEL, STAND_IN_NAME, Tournament, new_tournament_id

MOST_NAME = 100
DEFAULT_MATCH_DEADLINE = 600
FEWEST_MATCH_DEADLINE = 60

NOT_SIGNING_UP = Message("Sign-up for this tournament is closed.")
ALREADY_SIGNED_UP = Message("You're already signed up for this tournament.")
ALREADY_SIGNING_UP = Message(
    "A tournament is already signing up in this channel: start or cancel it first "
    "(`/farkle tournament show`)."
)


class SignUp:
    def __init__(self, book: TournamentBook) -> None:
        self._book = book

    async def create(
        self,
        ids: tuple[int, int, int],
        name: str,
        format: Format,
        rules: Ruleset,
        *,
        best_of: int = 1,
        rounds: int | None = None,
        match_deadline: int = DEFAULT_MATCH_DEADLINE,
        signup_until: float | None = None,
        stand_in_level: str = STAND_IN_LEVEL,
    ) -> Answer:
        """A new tournament signing up in channel `ids` = (guild, channel, host); a bye's computer plays
        at `stand_in_level` (a level, or "skill:NN")."""
        book = self._book
        guild_id, channel_id, host_id = ids
        name = " ".join(name.split())
        if not name or len(name) > MOST_NAME:
            return Answer.refuse(
                Message("A tournament's name is 1 to {most} characters long.", most=MOST_NAME)
            )
        if match_deadline < FEWEST_MATCH_DEADLINE:
            return Answer.refuse(Message("A match deadline is at least 1 minute."))
        if signup_until is not None and signup_until <= book.clock.now():
            return Answer.refuse(Message("The sign-up deadline is in the past: choose a time to come."))
        if rounds is not None and not 1 <= rounds <= 10:
            return Answer.refuse(Message("A Swiss tournament plays 1 to 10 rounds."))
        if book.signing_up_in(channel_id) is not None:
            return Answer.refuse(ALREADY_SIGNING_UP)
        tournament = Tournament(
            tournament_id=new_tournament_id(),
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            name=name,
            format=format,
            rounds=rounds or 0,
            best_of=best_of,
            rules=rules,
            match_deadline=match_deadline,
            signup_until=signup_until,
            created_at=book.clock.now(),
            stand_in_level=stand_in_level,
        )
        if not await book.store.create(tournament.row()):
            return Answer.refuse(ALREADY_SIGNING_UP)
        book.running[tournament.tournament_id] = tournament
        book.arm(tournament)
        return Answer(tournament.view())

    async def join(self, tournament_id: str, user_id: int, name: str) -> Answer:
        book = self._book
        async with book.locked(tournament_id) as tournament:
            if tournament is None:
                return Answer.refuse(NO_TOURNAMENT)
            if tournament.stage != "signup":
                return Answer.refuse(NOT_SIGNING_UP)
            if user_id in tournament.entrants:
                return Answer.refuse(ALREADY_SIGNED_UP)
            if len(tournament.entrants) >= MOST_ENTRANTS:
                return Answer.refuse(
                    Message("This tournament is full ({count} players).", count=MOST_ENTRANTS)
                )
            entrant = EntrantRow(tournament_id, user_id, name, book.clock.now())
            if not await book.store.join(entrant):
                return Answer.refuse(ALREADY_SIGNED_UP)
            tournament.entrants[user_id] = name
            book.notify(Notice("card", tournament.view()))
            return Answer(tournament.view())

    async def leave(self, tournament_id: str, user_id: int) -> Answer:
        book = self._book
        async with book.locked(tournament_id) as tournament:
            if tournament is None:
                return Answer.refuse(NO_TOURNAMENT)
            if user_id not in tournament.entrants:
                return Answer.refuse(Message("You're not signed up for this tournament."))
            if tournament.stage != "signup":
                return Answer.refuse(
                    Message(
                        "The tournament has started: you can't leave it now. Ask the host to withdraw you."
                    )
                )
            await book.store.leave(tournament_id, user_id)
            del tournament.entrants[user_id]
            book.notify(Notice("card", tournament.view()))
            return Answer(tournament.view())

    async def start(self, tournament_id: str, user_id: int, *, manager: bool = False) -> Answer:
        async with self._book.locked(tournament_id) as tournament:
            if tournament is None:
                return Answer.refuse(NO_TOURNAMENT)
            if user_id != tournament.host_id and not manager:
                return Answer.refuse(HOST_ONLY)
            if tournament.stage != "signup":
                return Answer.refuse(Message("This tournament has already started."))
            return await self._start(tournament)

    async def close_signup(self, tournament: Tournament) -> None:
        """The sign-up window closed (the caller holds the lock): start, or cancel when too few signed up."""
        book = self._book
        started = await self._start(tournament)
        if started.refusal is not None:
            tournament.stage, tournament.ended_at = "cancelled", book.clock.now()
            await book.commit(tournament)
            book.running.pop(tournament.tournament_id, None)
            book.notify(Notice("card", tournament.view()))

    async def _start(self, tournament: Tournament) -> Answer:
        book = self._book
        count = len(tournament.entrants)
        if count < FEWEST_ENTRANTS:
            return Answer.refuse(
                Message(
                    "A tournament needs {fewest} to {most} players; {count} signed up.",
                    fewest=FEWEST_ENTRANTS,
                    most=MOST_ENTRANTS,
                    count=count,
                )
            )
        joined = list(tournament.entrants)
        ratings = await book.store.ratings(tournament.guild_id, joined)
        # Seeding: best rating first; members without one after them, in the order they joined.
        seeds = sorted(
            joined, key=lambda user: (user not in ratings, -ratings.get(user, 0.0), joined.index(user))
        )
        rounds = tournament.rounds or None
        tournament.bracket = Bracket.start(tournament.format, seeds, tournament.best_of, rounds)
        tournament.rounds = tournament.bracket.rounds_total
        tournament.stage = "running"
        if tournament.bracket.stand_in:
            tournament.entrants[STAND_IN] = STAND_IN_NAME
        book.open_round(tournament)
        await book.commit(tournament)
        book.after_change(tournament, opened=list(tournament.live))
        return Answer(tournament.view())

    # ------------------------------------------------------------------ host controls

    async def cancel(self, tournament_id: str, user_id: int, *, manager: bool = False) -> Answer:
        book = self._book
        async with book.locked(tournament_id) as tournament:
            if tournament is None:
                return Answer.refuse(NO_TOURNAMENT)
            if user_id != tournament.host_id and not manager:
                return Answer.refuse(HOST_ONLY)
            tournament.stage, tournament.ended_at, tournament.live = "cancelled", book.clock.now(), {}
            await book.commit(tournament)
            book.running.pop(tournament_id, None)
            book.alarms.cancel((tournament_id, ""))
            book.notify(Notice("card", tournament.view()))
            return Answer(tournament.view())

    async def advance(
        self, tournament_id: str, key: str, winner: int, user_id: int, *, manager: bool = False
    ) -> Answer:
        """The host decides a stuck match for `winner`."""
        return await self._decide(tournament_id, user_id, manager, key, winner, "advanced")

    async def disqualify(
        self, tournament_id: str, player: int, user_id: int, *, manager: bool = False
    ) -> Answer:
        return await self._decide(tournament_id, user_id, manager, None, player, "disqualified")

    async def _decide(
        self, tournament_id: str, user_id: int, manager: bool, key: str | None, player: int, how: str
    ) -> Answer:
        async with self._book.locked(tournament_id) as tournament:
            if tournament is None or tournament.bracket is None:
                return Answer.refuse(
                    NO_TOURNAMENT if tournament is None else Message("This tournament has not started yet.")
                )
            if user_id != tournament.host_id and not manager:
                return Answer.refuse(HOST_ONLY)
            bracket = tournament.bracket
            if how == "disqualified":
                if player not in bracket.seeds or player in bracket.removed or player == STAND_IN:
                    return Answer.refuse(Message("That member is not playing in this tournament."))
                decided = bracket.disqualify(player)
            else:
                assert key is not None
                match = bracket.match(key)
                if match is None or match.decided:
                    return Answer.refuse(Message("There is no open match {key} in this tournament.", key=key))
                if player not in match.players:
                    return Answer.refuse(Message("The winner must be one of the match's two players."))
                bracket.decide(key, player, "advanced")
                decided = match
            await self._book.close_match(tournament, decided.key if decided is not None else None)
            return Answer(tournament.view())
