"""The tournament door on a real database (both backends) with the real session manager, a hand-moved
clock and finished games handed in as the game-events stream hands them: no Discord."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
from sqlalchemy import text

from bot.core.environment import GameSettings
from bot.core.records import GameRecord, PlayerRecord
from bot.engine import Ruleset, SeededDice
from bot.engine.tournament import STAND_IN
from bot.services.ratings import rate_game
from bot.sessions.manager import SessionManager
from bot.sessions.stream_events import GameEnded
from bot.sessions.tournament.book import Notice
from bot.sessions.tournament.door import Tournaments
from bot.sessions.tournament.store import TournamentStore
from bot.storage import Database
from bot.storage.sessions import SqlSessionStore
from bot.storage.tournaments import SqlTournamentStore
from tests.fakes import FakeClock, settle
from tests.solved import solved_cache

GUILD, CHANNEL, HOST = 1, 500, 9
RULES = Ruleset.preset("classic")
_places = itertools.count(1000)


@dataclass
class Desk:
    """A door, its session manager, and every notice it sent (what the Discord side would show)."""

    db: Database
    clock: FakeClock
    manager: SessionManager
    door: Tournaments
    notices: list[Notice] = field(default_factory=list)
    champions: list[tuple[int, str, str]] = field(default_factory=list)
    awards_fail: bool = False  # the process dies before an award is written

    async def settled(self) -> None:
        await settle()
        await self.door.settled()

    def kinds(self, kind: str) -> list[Notice]:
        return [n for n in self.notices if n.kind == kind]


async def open_desk(db: Database, clock: FakeClock, store: TournamentStore | None = None) -> Desk:
    manager = SessionManager(
        store=SqlSessionStore(db, rate_game),
        clock=clock,
        settings=GameSettings(_env_file=None, computer_pause=0),
        dice=lambda: SeededDice(1),
        policies=solved_cache(),
    )

    async def award(user: int, achievement: str, source: str) -> None:
        if desk.awards_fail:
            raise ConnectionError("the process died before the award")
        desk.champions.append((user, achievement, source))

    door = Tournaments(store or SqlTournamentStore(db), clock, manager, award)
    manager.subscribe(door.on_game_event)  # as `bot.app.wiring` does
    desk = Desk(db, clock, manager, door)

    async def listen(notice: Notice) -> None:
        desk.notices.append(notice)

    door.listen(listen)
    await door.restore()  # as the bot does: before the games, whose restore announces missed ends
    await manager.restore()
    await door.reconcile()
    await desk.settled()
    return desk


async def close_desk(desk: Desk) -> None:
    await desk.door.close()
    await desk.manager.close(drain=0)


@pytest.fixture
async def desk(database: Database) -> AsyncIterator[Desk]:
    opened = await open_desk(database, FakeClock())
    yield opened
    await close_desk(opened)


async def signed_up(desk: Desk, players: int, format: str = "single", **options: object) -> str:
    created = await desk.door.create((GUILD, CHANNEL, HOST), "Friday Cup", format, RULES, **options)  # type: ignore[arg-type]
    assert created.view is not None, created.refusal
    tournament = created.view.tournament_id
    for user in range(1, players + 1):
        assert (await desk.door.join(tournament, user, f"p{user}")).refusal is None
    return tournament


async def place_all(desk: Desk, tournament: str) -> None:
    """What the Discord side does with each "match" notice: open its place (a thread of its own)."""
    await desk.settled()
    view = desk.door.view(tournament)
    assert view is not None
    for key, live in view.live.items():
        if live.place is None:
            await desk.door.place_match(tournament, key, next(_places), in_thread=True)


async def ready_all(desk: Desk, tournament: str, *, except_for: tuple[int, ...] = ()) -> None:
    view = desk.door.view(tournament)
    assert view is not None
    for key in view.live:
        match = view.match(key)
        assert match is not None
        for player in match.players:
            if player != STAND_IN and player not in except_for:
                assert (await desk.door.ready(tournament, key, player)).refusal is None
    await desk.settled()


def finished(game_id: str, channel: int, winner: int, loser: int) -> GameRecord:
    """A finished two-player game as the archive stores it (a computer for the stand-in)."""

    def seat(index: int, user: int, won: bool) -> PlayerRecord:
        computer = "normal" if user == STAND_IN else None
        return PlayerRecord(
            index, -1 if computer else user, "x", computer, None, 1 if won else 2, won, 0, 3, 0, 0, 0, 0
        )

    return GameRecord(
        game_id,
        GUILD,
        channel,
        "{}",
        "{}",
        "[]",
        0.0,
        1.0,
        "finished",
        (seat(0, winner, True), seat(1, loser, False)),
    )


async def play_round(desk: Desk, tournament: str, pick_winner: object = min) -> list[GameRecord]:
    """Every open match's game ends (the lower id wins unless told otherwise), as the stream says."""
    view = desk.door.view(tournament)
    assert view is not None
    ended = []
    for key, live in sorted(view.live.items()):
        match = view.match(key)
        assert match is not None and match.second is not None and live.game_id is not None, (key, live)
        assert live.place is not None
        winner = pick_winner(match.players)  # type: ignore[operator]
        loser = match.second if winner == match.first else match.first
        record = finished(live.game_id, live.place, winner, loser)
        await desk.manager.cancel(live.place, HOST, moderator=True)  # the game's table is free again
        await desk.door.on_game_event(GameEnded(record))
        ended.append(record)
    await desk.settled()
    return ended


async def counted(db: Database, tournament: str) -> int:
    rows = await db.read(
        lambda c: c.execute(
            text("SELECT COUNT(*) FROM tournament_games WHERE tournament_id = :t"), {"t": tournament}
        ).scalar()
    )
    return int(rows or 0)


async def test_eight_player_single_elimination_seeds_by_rating_and_crowns_a_champion(desk: Desk) -> None:
    await desk.db.write(
        lambda c: c.execute(
            text(
                "INSERT INTO player_stats (guild_id, user_id, name, games, mu, sigma, rating, last_played)"
                " VALUES (:g, 8, 'p8', 3, 25, 8, 30, 0), (:g, 7, 'p7', 3, 25, 8, 20, 0),"
                " (:g, 6, 'p6', 3, 25, 8, 10, 0)"
            ),
            {"g": GUILD},
        )
    )
    tournament = await signed_up(desk, 8)
    started = await desk.door.start(tournament, HOST)
    assert started.view is not None and started.view.stage == "running"
    first_round = [m.players for m in started.view.rounds_played[0]]
    # Seeds: 8, 7, 6 by rating, then 1..5 in the order they joined: 8 meets the last seed (5).
    assert first_round == [(8, 5), (1, 2), (7, 4), (6, 3)]
    await place_all(desk, tournament)
    await ready_all(desk, tournament)
    view = desk.door.view(tournament)
    assert view is not None
    for live in view.live.values():
        assert live.place is not None
        snapshot = desk.manager.snapshot(live.place)
        assert snapshot is not None and snapshot.stage == "playing" and snapshot.game_id == live.game_id
    assert len(desk.kinds("game")) == 4
    for _ in range(2):
        await play_round(desk, tournament)
        await place_all(desk, tournament)
        await ready_all(desk, tournament)
    await play_round(desk, tournament)
    assert desk.door.view(tournament) is None, "over: no longer running"
    podium = desk.kinds("podium")
    assert len(podium) == 1
    standings = podium[0].view.standings
    # The lower id wins every game: 5, 1, 4, 3, then 1 and 3, then 1; the semi-final losers share third.
    assert [(s.player, s.place) for s in standings[:4]] == [(1, 1), (3, 2), (4, 3), (5, 3)]
    champion = standings[0].player
    assert desk.champions == [(champion, "champion", f"tournament:{tournament}")]
    assert await counted(desk.db, tournament) == 7


async def test_a_replayed_game_end_counts_once(desk: Desk) -> None:
    tournament = await signed_up(desk, 4, best_of=3)
    await desk.door.start(tournament, HOST)
    await place_all(desk, tournament)
    await ready_all(desk, tournament)
    ended = await play_round(desk, tournament)
    for record in ended:  # the stream after a crash between delivery and its mark
        await desk.door.on_game_event(GameEnded(record))
    await desk.settled()
    view = desk.door.view(tournament)
    assert view is not None
    assert [len(m.games) for m in view.rounds_played[0]] == [1, 1], "one game each, not two"
    assert await counted(desk.db, tournament) == 2
    assert len(desk.kinds("game")) == 4, "the second game of each best of three opened once"


async def test_a_restart_between_rounds_and_in_a_match_loses_nothing(database: Database) -> None:
    clock = FakeClock()
    desk = await open_desk(database, clock)
    tournament = await signed_up(desk, 4)
    await desk.door.start(tournament, HOST)
    await place_all(desk, tournament)
    await ready_all(desk, tournament)
    await play_round(desk, tournament)
    before = desk.door.view(tournament)
    await close_desk(desk)

    desk = await open_desk(database, clock)  # between rounds: the final is open, nobody placed it yet
    after = desk.door.view(tournament)
    assert after is not None and before is not None
    assert after.rounds_played == before.rounds_played and after.live == before.live
    assert [n.key for n in desk.kinds("match")] == ["2-1"], "a match without a place is opened again"
    await place_all(desk, tournament)
    await ready_all(desk, tournament)
    await close_desk(desk)

    desk = await open_desk(database, clock)  # in the middle of the final's game
    view = desk.door.view(tournament)
    assert view is not None
    live = view.live["2-1"]
    assert live.place is not None and desk.manager.snapshot(live.place) is not None
    await play_round(desk, tournament)
    await desk.settled()
    assert len(desk.kinds("podium")) == 1
    await close_desk(desk)


async def test_five_player_swiss_of_three_rounds_with_a_computer_stand_in(desk: Desk) -> None:
    tournament = await signed_up(desk, 5, format="swiss", rounds=3)
    started = await desk.door.start(tournament, HOST)
    assert started.view is not None
    assert STAND_IN in [p for m in started.view.rounds_played[0] for p in m.players]
    for _ in range(3):
        await place_all(desk, tournament)
        await ready_all(desk, tournament)
        view = desk.door.view(tournament)
        assert view is not None
        stand_in = next(m.key for m in view.rounds_played[-1] if STAND_IN in m.players)
        place = view.live[stand_in].place
        assert place is not None
        snapshot = desk.manager.snapshot(place)
        assert snapshot is not None and any(seat.computer for seat in snapshot.seats), "a computer plays"
        await play_round(desk, tournament, pick_winner=max)  # the stand-in (id 0) always loses
    podium = desk.kinds("podium")
    assert len(podium) == 1
    standings = podium[0].view.standings
    assert STAND_IN not in [s.player for s in standings] and len(standings) == 5
    meetings = [frozenset(m.players) for rnd in podium[0].view.rounds_played for m in rnd]
    assert len(meetings) == len(set(meetings)) == 9, "three rounds of three, nobody met twice"


async def test_a_player_who_never_presses_ready_forfeits_at_the_deadline(desk: Desk) -> None:
    tournament = await signed_up(desk, 4, match_deadline=120)
    await desk.door.start(tournament, HOST)
    await place_all(desk, tournament)
    await ready_all(desk, tournament, except_for=(4,))
    await desk.clock.advance(119)
    await desk.settled()
    assert desk.kinds("decided") == []
    await desk.clock.advance(2)
    await desk.settled()
    decided = desk.kinds("decided")
    assert len(decided) == 1 and decided[0].key == "1-1"
    match = decided[0].view.match("1-1")
    assert match is not None and (match.winner, match.how) == (1, "forfeit")
    assert decided[0].place is not None


async def test_bad_input_gets_one_answer_and_changes_nothing(desk: Desk) -> None:
    door, ids = desk.door, (GUILD, CHANNEL, HOST)
    refusals = [
        (await door.create(ids, "x" * 500, "single", RULES)).refusal,
        (await door.create(ids, "Cup", "single", RULES, match_deadline=30)).refusal,
        (await door.create(ids, "Cup", "single", RULES, signup_until=desk.clock.now() - 60)).refusal,
    ]
    assert all(refusals), refusals
    assert await desk.door.of_guild(GUILD) == []
    tournament = await signed_up(desk, 4)
    second = await door.create(ids, "Another", "single", RULES)
    assert second.refusal is not None and "already signing up" in str(second.refusal)
    twice = await door.join(tournament, 1, "p1")
    assert twice.refusal is not None and "already signed up" in str(twice.refusal)
    await door.start(tournament, HOST)
    left = await door.leave(tournament, 2)
    assert left.refusal is not None and "can't leave" in str(left.refusal)
    view = door.view(tournament)
    assert view is not None and len(view.entrants) == 4 and len(await door.of_guild(GUILD)) == 1


async def test_two_hundred_join_presses_at_once_sign_each_member_up_once(desk: Desk) -> None:
    created = await desk.door.create((GUILD, CHANNEL, HOST), "Rush", "single", RULES)
    assert created.view is not None
    tournament = created.view.tournament_id
    presses = [desk.door.join(tournament, 100 + member % 50, f"m{member % 50}") for member in range(200)]
    answers = await asyncio.gather(*presses)
    assert sum(1 for a in answers if a.refusal is None) == 50
    entrants = await desk.db.read(
        lambda c: c.execute(
            text("SELECT COUNT(*) FROM tournament_entrants WHERE tournament_id = :t"), {"t": tournament}
        ).scalar()
    )
    assert entrants == 50


async def test_a_sixty_four_player_elimination_plays_thirty_two_matches_at_once(desk: Desk) -> None:
    tournament = await signed_up(desk, 64)
    await desk.door.start(tournament, HOST)
    await place_all(desk, tournament)
    await ready_all(desk, tournament)
    view = desk.door.view(tournament)
    assert view is not None and len(view.live) == 32
    playing = [desk.manager.snapshot(live.place) for live in view.live.values() if live.place is not None]
    assert len(playing) == 32 and all(s is not None and s.stage == "playing" for s in playing)


async def test_host_controls_advance_and_disqualify(desk: Desk) -> None:
    tournament = await signed_up(desk, 4)
    assert (await desk.door.advance(tournament, "1-1", 1, HOST)).refusal is not None, "not started"
    await desk.door.start(tournament, HOST)
    refused = await desk.door.advance(tournament, "1-1", 1, 77)
    assert refused.refusal is not None and "host" in str(refused.refusal)
    wrong = await desk.door.advance(tournament, "1-1", 2, HOST)
    assert wrong.refusal is not None, "2 does not play in 1-1"
    advanced = await desk.door.advance(tournament, "1-1", 4, HOST)
    assert advanced.view is not None
    match = advanced.view.match("1-1")
    assert match is not None and (match.winner, match.how) == (4, "advanced")
    out = await desk.door.disqualify(tournament, 3, HOST, manager=False)
    assert out.view is not None
    final = out.view.match("2-1")
    assert final is not None and final.players == (4, 2), "1-2 went to 2, and the final opened"
    cancelled = await desk.door.cancel(tournament, HOST)
    assert cancelled.view is not None and cancelled.view.stage == "cancelled"
    assert desk.door.view(tournament) is None
