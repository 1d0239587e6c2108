"""A tournament loses no result and no crown to a failed write or a crash: a match's finished game is
counted on the next event or at the next start-up, once; a champion left unawarded is awarded then."""

from __future__ import annotations

from functools import partial

from bot.core.records import GameRecord
from bot.services.ratings import rate_game
from bot.sessions.stream_events import GameEnded
from bot.storage import Database
from bot.storage.results import mark_announced, write_record
from bot.storage.tournaments import SqlTournamentStore
from tests.fakes import FakeClock
from tests.sessions.tournament.test_door import (
    HOST,
    Desk,
    close_desk,
    counted,
    finished,
    open_desk,
    place_all,
    ready_all,
    signed_up,
)


class FlakyStore(SqlTournamentStore):
    """The database refuses the writes that count the games in `failing` (a lost connection)."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self.failing: set[object] = set()

    async def count_game(self, row: object, game: dict[str, object]) -> bool:
        if game["game_id"] in self.failing:
            raise ConnectionError("the database went away")
        return await super().count_game(row, game)  # type: ignore[arg-type]


async def _ended_games(desk: Desk, tournament: str) -> list[GameRecord]:
    """The open matches' games, each won by its lower id, archived as the session manager archives
    them (their tables freed)."""
    view = desk.door.view(tournament)
    assert view is not None
    records = []
    for key, live in sorted(view.live.items()):
        match = view.match(key)
        assert match is not None and match.second is not None
        assert live.game_id is not None and live.place is not None
        records.append(finished(live.game_id, live.place, min(match.players), max(match.players)))
        await desk.manager.cancel(live.place, HOST, moderator=True)
    return records


async def test_a_result_whose_write_failed_counts_on_the_next_event_and_holds_up_no_other(
    database: Database,
) -> None:
    store = FlakyStore(database)
    desk = await open_desk(database, FakeClock(), store)
    tournament = await signed_up(desk, 4)
    await desk.door.start(tournament, HOST)
    await place_all(desk, tournament)
    await ready_all(desk, tournament)
    first, second = await _ended_games(desk, tournament)
    store.failing = {first.game_id}
    await desk.door.on_game_event(GameEnded(first))
    await desk.door.on_game_event(GameEnded(second))  # counts, though the first still fails
    await desk.settled()
    view = desk.door.view(tournament)
    assert view is not None and [m.winner for m in view.rounds_played[0]] == [None, 2]
    assert await counted(database, tournament) == 1
    store.failing = set()
    await desk.door.on_game_event(GameEnded(second))  # any next event: here, a replayed end
    await desk.settled()
    view = desk.door.view(tournament)
    assert view is not None and await counted(database, tournament) == 2
    assert [m.winner for m in view.rounds_played[0]] == [1, 2] and "2-1" in view.live, "the final opened"
    await desk.door.on_game_event(GameEnded(first))  # replayed after all: still once
    await desk.settled()
    assert await counted(database, tournament) == 2
    await close_desk(desk)


async def test_a_start_up_counts_the_games_that_ended_without_their_result(database: Database) -> None:
    clock = FakeClock()
    store = FlakyStore(database)
    desk = await open_desk(database, clock, store)
    tournament = await signed_up(desk, 4)
    await desk.door.start(tournament, HOST)
    await place_all(desk, tournament)
    await ready_all(desk, tournament)
    ended = await _ended_games(desk, tournament)
    store.failing = {record.game_id for record in ended}
    for record in ended:  # archived and announced, but the count never reached the database
        await database.write(partial(write_record, record=record, rate=rate_game))
        await desk.door.on_game_event(GameEnded(record))
        await database.write(partial(mark_announced, game_ids=[record.game_id]))
    await desk.settled()
    await close_desk(desk)
    assert await counted(database, tournament) == 0

    for _ in range(2):  # a second start-up finds nothing more to count
        desk = await open_desk(database, clock)
        view = desk.door.view(tournament)
        assert view is not None and [m.winner for m in view.rounds_played[0]] == [1, 2]
        assert await counted(database, tournament) == 2 and list(view.live) == ["2-1"]
        await close_desk(desk)


async def test_a_champion_left_unawarded_by_a_crash_is_awarded_at_the_next_start_once(
    database: Database,
) -> None:
    clock = FakeClock()
    desk = await open_desk(database, clock)
    tournament = await signed_up(desk, 4)
    await desk.door.start(tournament, HOST)
    desk.awards_fail = True
    for key, winner in (("1-1", 1), ("1-2", 2), ("2-1", 2)):
        assert (await desk.door.advance(tournament, key, winner, HOST)).refusal is None
    await desk.settled()
    assert len(desk.kinds("podium")) == 1 and desk.champions == []
    await close_desk(desk)

    desk = await open_desk(database, clock)
    assert desk.champions == [(2, "champion", f"tournament:{tournament}")]
    await close_desk(desk)
    desk = await open_desk(database, clock)
    assert desk.champions == [], "crowned once"
    await close_desk(desk)
