"""The session manager without Discord: an in-memory store and a clock the test moves by hand."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from bot.core.environment import GameSettings
from bot.engine import Ruleset, ScriptedDice
from bot.sessions.commands import OUTDATED
from bot.sessions.manager import Alarm, SessionManager
from bot.sessions.outcome import Outcome
from bot.sessions.requests import Host, Press
from bot.sessions.session import Snapshot
from bot.sessions.stream_events import Cause, GameChanged, GameEvent, GamesRestored
from tests.fakes import START, FakeClock, MemorySessions, settle
from tests.solved import solved_cache

CHANNEL, GUILD = 100, 1
ANA, BEN, CY = 11, 12, 13
NAMES = {ANA: "ana", BEN: "ben", CY: "cy"}
NOT_SAVED = "I couldn't save that, so nothing changed: please try again."


class Harness:
    def __init__(self) -> None:
        self.clock = FakeClock()
        self.store = MemorySessions(GUILD)
        self.scripts: list[list[tuple[int, ...]]] = []
        self.heard: list[Outcome] = []
        self.manager = SessionManager(
            store=self.store,
            clock=self.clock,
            settings=GameSettings(_env_file=None, computer_pause=0),
            dice=lambda: ScriptedDice(self.scripts.pop(0) if self.scripts else [], seed=1),
            policies=solved_cache(),
        )

        async def listen(event: GameEvent) -> None:
            """What used to reach listeners: the changes nobody answered (timers, computers)."""
            if isinstance(event, GameChanged) and not event.cause.answered:
                self.heard.append(event.outcome)

        self.manager.subscribe(listen)

    @property
    def snapshot(self) -> Snapshot:
        snapshot = self.manager.snapshot(CHANNEL)
        assert snapshot is not None
        return snapshot

    async def start(self, *players: int, rolls: Sequence[Sequence[int]] = (), rules: str = "classic") -> None:
        """A lobby hosted by the first player, the others join, the host starts; `rolls` script the dice."""
        self.scripts.append([tuple(roll) for roll in rolls])
        host, *others = players
        ok(await self.manager.open_lobby(Host(GUILD, CHANNEL, host, NAMES[host]), Ruleset.preset(rules)))
        for player in others:
            ok(await self.manager.join(CHANNEL, player, NAMES[player]))
        ok(await self.manager.start(CHANNEL, host))

    async def press(
        self, user: int, action: str, arg: str | None = None, *, seq: str | None = None
    ) -> Outcome:
        """A press on the board as drawn now, or on an older drawing of it (`seq`).

        "die" taps the die button as drawn: `pick` for a die not selected, `drop` for a selected one.
        """
        snapshot = self.snapshot
        if action == "die":
            action = "drop" if int(arg or 0) in snapshot.selection else "pick"
        at = snapshot.seq if seq is None else seq
        return await self.manager.press(Press(CHANNEL, snapshot.game_id, at, user, NAMES[user], action, arg))


def ok(outcome: Outcome) -> Outcome:
    assert outcome.refusal is None, outcome.refusal
    assert outcome.snapshot is not None
    return outcome


@pytest.fixture
async def h():
    harness = Harness()
    yield harness
    await harness.manager.close()


# ---------------------------------------------------------------------- versions and the lock


@pytest.mark.parametrize(
    ("first", "second"), [(("roll", None), ("roll", None)), (("bank", None), ("roll", None))]
)
async def test_two_presses_at_the_same_instant_give_one_result_and_one_refusal(
    h: Harness, first, second
) -> None:
    await h.start(ANA, BEN, rolls=[(6, 2), (1, 2, 3, 4, 6, 6), (5, 2, 3, 4, 6)])
    ok(await h.press(ANA, "roll"))
    ok(await h.press(ANA, "die", "0"))
    version, seq = h.snapshot.version, h.snapshot.seq

    outcomes = await asyncio.gather(h.press(ANA, *first, seq=seq), h.press(ANA, *second, seq=seq))

    assert [o.refusal for o in outcomes] == [None, OUTDATED]
    assert h.snapshot.version == version + 1
    if first[0] == "bank":
        assert h.snapshot.current == BEN and h.snapshot.seats[0].bank == 100
    else:
        assert h.snapshot.turn.rolls == 2 and h.snapshot.turn.roll == (5, 2, 3, 4, 6)


async def test_dice_tapped_at_the_same_instant_from_one_drawing_all_count(h: Harness) -> None:
    await h.start(ANA, BEN, rolls=[(6, 2), (1, 5, 2, 3, 4, 1)])
    ok(await h.press(ANA, "roll"))
    seq = h.snapshot.seq
    outcomes = await asyncio.gather(*(h.press(ANA, "pick", str(die), seq=seq) for die in (5, 0, 1)))
    assert [o.refusal for o in outcomes] == [None, None, None]
    assert h.snapshot.selection == (0, 1, 5) and h.snapshot.seq == seq, "toggles keep the roll's ids"


async def test_a_double_tap_on_one_die_leaves_it_selected(h: Harness) -> None:
    await h.start(ANA, BEN, rolls=[(6, 2), (1, 5, 2, 3, 4, 6)])
    ok(await h.press(ANA, "roll"))
    seq, version = h.snapshot.seq, h.snapshot.version
    outcomes = await asyncio.gather(h.press(ANA, "pick", "1", seq=seq), h.press(ANA, "pick", "1", seq=seq))
    assert [o.refusal for o in outcomes] == [None, None]
    assert h.snapshot.selection == (1,)
    assert h.snapshot.version == version + 1, "the second tap changes nothing, so nothing is committed"
    ok(await h.press(ANA, "drop", "1", seq=seq))
    ok(await h.press(ANA, "drop", "1", seq=seq))
    assert h.snapshot.selection == ()


async def test_a_game_keeps_no_lock_between_changes(h: Harness) -> None:
    """A lock per game (or channel) ever played would grow with every game the bot has seen."""
    await h.start(ANA, BEN, rolls=[(6, 2), (1, 5, 2, 3, 4, 6)])
    seq = h.snapshot.seq
    await asyncio.gather(*(h.press(ANA, "pick", die, seq=seq) for die in ("0", "1")))
    assert len(h.manager._locks) == 0 and len(h.manager._openings) == 0


async def test_roll_from_a_drawing_older_than_the_last_toggles_uses_the_stored_selection(h: Harness) -> None:
    await h.start(ANA, BEN, rolls=[(6, 2), (1, 5, 2, 3, 4, 6), (2, 2, 2, 6)])
    ok(await h.press(ANA, "roll"))
    drawn = h.snapshot.seq  # the player's screen still shows the roll with nothing selected
    ok(await h.press(ANA, "pick", "0", seq=drawn))
    ok(await h.press(ANA, "pick", "1", seq=drawn))
    ok(await h.press(ANA, "roll", seq=drawn))
    assert h.snapshot.turn.total == 150 and h.snapshot.turn.roll == (2, 2, 2, 6)


async def test_roll_from_a_drawing_before_a_selection_stopped_scoring_is_refused(h: Harness) -> None:
    """The board disables Roll for a selection that doesn't score; a quick tap from the drawing before
    still gets the reason, privately."""
    await h.start(ANA, BEN, rolls=[(6, 2), (1, 5, 2, 3, 4, 6)])
    ok(await h.press(ANA, "roll"))
    ok(await h.press(ANA, "pick", "0"))
    ok(await h.press(ANA, "pick", "2"))
    refused = await h.press(ANA, "roll")
    assert refused.refusal is not None and str(refused.refusal) == "The 2 doesn't score."


async def test_a_press_waiting_on_a_failed_save_applies_to_the_restored_state(h: Harness) -> None:
    """The second press waits for the lock: it never sees the first one's uncommitted version."""
    await h.start(ANA, BEN, rolls=[(6, 2), (1, 2, 3, 4, 6, 6)])
    version, seq = h.snapshot.version, h.snapshot.seq
    h.store.failures = 1
    first, second = await asyncio.gather(h.press(ANA, "roll", seq=seq), h.press(ANA, "roll", seq=seq))
    assert (str(first.refusal), second.refusal) == (NOT_SAVED, None)
    assert h.snapshot.version == version + 1 and h.snapshot.turn.roll == (1, 2, 3, 4, 6, 6)


async def test_a_stale_version_is_refused_and_never_applied(h: Harness) -> None:
    await h.start(ANA, BEN, rolls=[(6, 2), (1, 2, 3, 4, 6, 6)])
    stale = h.snapshot.seq
    ok(await h.press(ANA, "roll"))
    ok(await h.press(ANA, "die", "0"))
    before, saved = h.snapshot, dict(h.store.rows)

    for action, arg in (("bank", None), ("roll", None), ("pick", "1"), ("drop", "0")):
        outcome = await h.press(ANA, action, arg, seq=stale)
        assert outcome.refusal == OUTDATED and outcome.outdated, "the board edge redraws or refuses"

    assert h.snapshot == before
    assert h.store.rows == saved


async def test_the_wrong_player_is_told_whose_turn_it_is(h: Harness) -> None:
    await h.start(ANA, BEN, rolls=[(6, 2)])
    before = h.snapshot
    assert str((await h.press(BEN, "roll")).refusal) == "It's ana's turn."
    assert h.snapshot == before


# ---------------------------------------------------------------------- storage failures


async def test_a_failed_save_leaves_the_session_exactly_as_it_was(h: Harness) -> None:
    await h.start(ANA, BEN, rolls=[(6, 2), (1, 2, 3, 4, 6, 6)])
    before, saved = h.snapshot, dict(h.store.rows)

    h.store.failures = 1
    outcome = await h.press(ANA, "roll")

    assert str(outcome.refusal) == NOT_SAVED
    assert h.snapshot == before, "no roll, no version bump"
    assert h.store.rows == saved
    retried = ok(await h.press(ANA, "roll"))  # the same press again: the dice were not used up
    assert retried.snapshot.turn.roll == (1, 2, 3, 4, 6, 6)


async def test_a_failed_save_of_a_new_lobby_leaves_no_lobby(h: Harness) -> None:
    h.store.failures = 1
    outcome = await h.manager.open_lobby(Host(GUILD, CHANNEL, ANA, "ana"), Ruleset.preset("classic"))
    assert str(outcome.refusal) == NOT_SAVED
    assert h.manager.snapshot(CHANNEL) is None and h.store.rows == {}
    ok(await h.manager.open_lobby(Host(GUILD, CHANNEL, ANA, "ana"), Ruleset.preset("classic")))


async def test_a_failed_start_leaves_the_lobby_open(h: Harness) -> None:
    h.scripts.append([(6, 2)])
    ok(await h.manager.open_lobby(Host(GUILD, CHANNEL, ANA, "ana"), Ruleset.preset("classic")))
    ok(await h.manager.join(CHANNEL, BEN, "ben"))
    before = h.snapshot
    h.store.failures = 1
    assert str((await h.manager.start(CHANNEL, ANA)).refusal) == NOT_SAVED
    assert h.snapshot == before and h.snapshot.stage == "lobby"


async def test_a_failed_rematch_can_be_pressed_again(h: Harness) -> None:
    await h.start(ANA, BEN, rolls=[(6, 2)])
    ok(await h.manager.leave(CHANNEL, BEN))
    finished = h.snapshot
    assert finished.stage == "over"

    h.store.failures = 1
    assert str((await h.press(ANA, "rematch")).refusal) == NOT_SAVED
    assert h.snapshot == finished, "the finished game is still there to rematch"
    lobby = ok(await h.press(ANA, "rematch")).snapshot
    assert lobby.stage == "lobby" and [s.user_id for s in lobby.seats] == [ANA]


# ---------------------------------------------------------------------- timers


async def test_an_idle_lobby_expires(h: Harness) -> None:
    ok(await h.manager.open_lobby(Host(GUILD, CHANNEL, ANA, "ana"), Ruleset.preset("classic")))
    await h.clock.advance(300)
    ok(await h.manager.join(CHANNEL, BEN, "ben"))  # activity restarts the 600 s
    await h.clock.advance(599)
    assert h.snapshot.stage == "lobby" and h.heard == []

    await h.clock.advance(1)
    assert h.manager.snapshot(CHANNEL) is None
    assert [(o.snapshot.stage, o.snapshot.end_reason) for o in h.heard] == [("closed", "expired")]
    assert h.store.rows == {}


async def test_a_turn_reminds_at_half_time_then_times_out(h: Harness) -> None:
    await h.start(ANA, BEN, rolls=[(6, 2)])
    await h.clock.advance(59)
    assert h.heard == []
    await h.clock.advance(1)
    assert [o.reminder_for for o in h.heard] == [ANA]
    assert h.snapshot.current == ANA

    await h.clock.advance(59)
    assert len(h.heard) == 1
    await h.clock.advance(1)
    timeout = h.heard[-1]
    assert timeout.turn_for == BEN and h.snapshot.current == BEN
    assert [e.kind for e in timeout.events][:1] == ["timed_out"]
    assert h.snapshot.seats[0].bank == 0

    await h.clock.advance(60)
    assert h.heard[-1].reminder_for == BEN, "the next player gets their own reminder"


async def test_the_turn_clock_runs_for_the_whole_turn_and_a_timeout_banks(h: Harness) -> None:
    await h.start(ANA, BEN, rolls=[(6, 2), (1, 2, 3, 4, 6, 6)])
    deadline = h.snapshot.deadline
    await h.clock.advance(100)  # reminded at 60
    ok(await h.press(ANA, "roll"))
    for _ in range(3):  # taps never extend the turn
        ok(await h.press(ANA, "pick", "4"))
        ok(await h.press(ANA, "drop", "4"))
        assert h.snapshot.deadline == deadline
        await h.clock.advance(5)
    assert h.snapshot.current == ANA
    assert [o.reminder_for for o in h.heard] == [ANA], "one reminder per turn"
    await h.clock.advance(5)
    assert h.snapshot.current == BEN, "timed out at 120 s"
    assert [e.kind for e in h.heard[-1].events][:3] == ["timed_out", "kept", "banked"]
    assert h.snapshot.seats[0].bank == 100, "a bank was legal (keep the 1): the turn total is banked"


async def test_three_idle_strikes_remove_a_player_and_two_leave_the_game_over(h: Harness) -> None:
    await h.start(ANA, BEN, CY, rolls=[(6, 2, 3)])
    for _ in range(6):  # ana, ben, cy, twice
        await h.clock.advance(120)
    assert h.snapshot.stage == "playing" and all(seat.active for seat in h.snapshot.seats)

    await h.clock.advance(120)  # ana's third
    snapshot = h.snapshot
    assert [seat.active for seat in snapshot.seats] == [False, True, True]
    assert "removed" in [e.kind for e in h.heard[-1].events]
    assert snapshot.stage == "playing" and snapshot.current == BEN

    await h.clock.advance(120)  # ben's third: cy alone is left
    snapshot = h.snapshot
    assert snapshot.stage == "over" and snapshot.winners == (CY,)
    assert snapshot.deadline is None
    await h.clock.advance(1000)
    assert h.snapshot == snapshot, "a finished game has no timer"


async def test_a_game_left_with_one_player_ends(h: Harness) -> None:
    await h.start(ANA, BEN, rolls=[(6, 2)])
    outcome = ok(await h.manager.leave(CHANNEL, ANA))
    assert [e.kind for e in outcome.events][:1] == ["left"]
    assert outcome.snapshot.stage == "over" and outcome.snapshot.winners == (BEN,)


async def test_a_failed_save_during_the_reminder_does_not_stop_the_timeout(h: Harness) -> None:
    await h.start(ANA, BEN, rolls=[(6, 2)])
    h.store.failures = 1
    await h.clock.advance(60)
    await h.clock.advance(60)
    assert h.snapshot.current == BEN, "the turn still timed out"


# ---------------------------------------------------------------------- games by id


async def test_a_new_lobby_after_a_game_shares_no_lock_or_alarm_with_it(h: Harness) -> None:
    await h.start(ANA, BEN, rolls=[(6, 2)])
    ok(await h.manager.leave(CHANNEL, ANA))  # ben wins: the results stay in the channel
    old = h.snapshot
    lobby = ok(
        await h.manager.open_lobby(Host(GUILD, CHANNEL, CY, NAMES[CY]), Ruleset.preset("classic"))
    ).snapshot
    assert lobby is not None and lobby.game_id != old.game_id and h.snapshot.game_id == lobby.game_id
    alarms = h.manager._alarms
    assert alarms.pending(old.game_id) is None and alarms.pending(lobby.game_id) is not None

    async with h.manager._locked(old.game_id) as finished:  # the old game's lock, held
        assert finished is None, "the old game left the registry with its channel"
        joined = await asyncio.wait_for(h.manager.join(CHANNEL, ANA, NAMES[ANA]), timeout=1)
    seated = ok(joined).snapshot
    assert seated is not None and [seat.user_id for seat in seated.seats] == [CY, ANA], "not blocked"

    stale = Alarm("expire", old.version)
    await h.manager._ring(old.game_id, stale)  # an alarm of the old game, say from before it ended
    await h.manager._ring(lobby.game_id, Alarm("expire", lobby.version))  # the lobby's own, now stale
    assert h.snapshot.stage == "lobby" and h.snapshot.game_id == lobby.game_id, "neither touched the lobby"
    assert h.heard == [], "nothing changed"


# ---------------------------------------------------------------------- restore


async def test_restore_sets_a_damaged_row_aside_and_brings_back_the_rest(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    await h.start(ANA, BEN, rolls=[(6, 2), (1, 2, 3, 4, 6, 6)])
    ok(await h.press(ANA, "roll"))
    h.store.rows[CHANNEL + 1] = h.store.rows[CHANNEL].replace('"seats"', '"seatz"')
    h.store.rows[CHANNEL + 2] = "{not json"
    fresh = SessionManager(store=h.store, clock=h.clock, settings=GameSettings(_env_file=None))

    restored = await fresh.restore()

    assert restored.unreadable == (CHANNEL + 1, CHANNEL + 2)
    damaged = [(r.levelname, r.exc_info) for r in caplog.records if "Could not restore" in r.getMessage()]
    assert damaged == [("WARNING", None)] * 2, "an operator's condition: one line each, no traceback"
    assert [s.channel_id for s in restored.sessions] == [CHANNEL]
    await fresh.close()


async def test_a_restore_reaches_subscribers_before_the_expired_turn_it_plays_out(h: Harness) -> None:
    await h.start(ANA, BEN, rolls=[(6, 2)])
    game_id = h.snapshot.game_id
    await h.manager.close()
    await h.clock.advance(3600)  # the bot was down past the turn's deadline
    fresh = SessionManager(store=h.store, clock=h.clock, settings=GameSettings(_env_file=None))
    heard: list[GameEvent] = []

    async def slow_listener(event: GameEvent) -> None:
        """A subscriber that takes a while over a restore (reading the board ledger, say)."""
        if isinstance(event, GamesRestored):
            await settle()
        heard.append(event)

    fresh.subscribe(slow_listener)
    restored = await fresh.restore()
    assert heard == [GamesRestored(restored)], "restore returns once every subscriber heard it"
    await settle()

    assert [s.game_id for s in restored.sessions] == [game_id]
    timed_out = [e for e in heard[1:] if isinstance(e, GameChanged)]
    assert [e.cause for e in timed_out] == [Cause.TIMER], "the deadline that passed fired, after the restore"
    assert fresh.snapshot(CHANNEL) is not None and fresh.snapshot(CHANNEL).current == BEN
    await fresh.close()


# ---------------------------------------------------------------------- archiving


async def test_a_game_that_ends_is_archived_with_its_final_row_and_only_then(h: Harness) -> None:
    await h.start(ANA, BEN, rolls=[(6, 2), (1, 5, 2, 3, 4, 6)])
    ok(await h.press(ANA, "roll"))
    assert h.store.archived == {}, "nothing is archived while the game goes on"
    h.store.failures = 1
    assert str((await h.manager.leave(CHANNEL, BEN)).refusal) == NOT_SAVED
    assert h.store.archived == {} and h.snapshot.stage == "playing", "the failed ending archived nothing"

    ended = ok(await h.manager.leave(CHANNEL, BEN)).snapshot
    record = h.store.archived[ended.game_id]
    assert record.end_reason == "players_left" and record.ended_at == START
    assert [(p.user_id, p.placement, p.won, p.turns) for p in record.players] == [
        (ANA, 1, True, 1),
        (BEN, 2, False, 0),
    ]
    assert record.counted, "two people played"
    assert '"stage":"over"' in h.store.rows[CHANNEL], "the final row was written with the record"
