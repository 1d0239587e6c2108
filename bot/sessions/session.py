"""One channel's Farkle: a lobby, then a game. Plain data that serialises to JSON for persistence."""

from __future__ import annotations

import json
import secrets
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal

import orjson

from bot.core.records import SessionRow, StoredSession
from bot.core.server_settings import HINTS, LANGUAGE, LIVE_ODDS, LOBBY_TIMEOUT, TURN_TIMEOUT
from bot.engine import Event, Game, KeepPreview, Ruleset, TurnState, farkle_chance
from bot.engine.history import event_from_row, event_row
from bot.engine.review import live_chances, solve_next_roll
from bot.sessions.banking import bank_all
from bot.sessions.chances import Estimated, none_estimated
from bot.sessions.numbers import PlayerNumbers, numbers_of
from bot.sessions.win_tables import TablesOf, no_tables

Stage = Literal["lobby", "playing", "over", "closed"]
RECENT_EVENTS = 12
# The rollback copy is compressed with a 4 KB window and zlib's memory level 4: 24 KB of working state per
# copy instead of the default's 256 KB, which the allocator maps afresh once it has handed its free pages
# back (2 KB packed in 18 µs instead of 53, measured alone after a trim). A session's JSON repeats itself
# within a few hundred bytes, so the copy is as small.
ROLLBACK_WINDOW_BITS = 12
ROLLBACK_MEMORY_LEVEL = 4
# The stored JSON's shape; `Session.load` upgrades older rows. Format 3 keeps the game as an object
# without its event log (replayed from `dice_start` when loaded): a third of the bytes written per move.
# Format 4 holds no Discord message: the messages showing a game are in the board ledger
# (`bot.storage.boards`).
FORMAT = 4
# What format 4 moved out to the board ledger (migration 0015 moved the stored rows' values there).
_LEDGER_KEYS = ("board_message_id", "ping_message_id", "pinged_turn")


def new_game_id() -> str:
    """Short, unguessable and safe inside a component custom id."""
    return secrets.token_hex(5)


def engine_teams(rules: Ruleset, teams: Sequence[int | None]) -> list[int] | None:
    """Seats' teams as the engine numbers them (from 0); buttons and boards number them from 1."""
    return [(team or 1) - 1 for team in teams] if rules.teams else None


@dataclass(frozen=True)
class TableSettings:
    """The per-server knobs a game is created with; a running game keeps the ones it started with.
    Every field but `max_players` (the operator's alone) is a server setting, declared in
    `bot.core.server_settings` with `on_table`."""

    turn_timeout: int = TURN_TIMEOUT.default
    lobby_timeout: int = LOBBY_TIMEOUT.default
    max_players: int = 8
    hints: bool = HINTS.default
    language: str | None = LANGUAGE.default  # a `LANGUAGES` code; None follows the server's locale
    live_odds: bool = LIVE_ODDS.default  # boards show every player's chance to win


@lru_cache(maxsize=256)
def _shared(table: TableSettings) -> TableSettings:
    """One instance per distinct table settings, as games share their ruleset: hundreds of live games
    hold a handful of them, not one each."""
    return table


@dataclass
class Seat:
    """A player as the session knows them: a Discord user id (or a negative id for a computer)."""

    user_id: int
    name: str
    team: int | None = None
    computer: str | None = None

    @property
    def player_id(self) -> str:
        return str(self.user_id)


@dataclass(frozen=True)
class SeatView:
    user_id: int
    name: str
    team: int | None
    computer: str | None
    bank: int
    on_board: bool
    farkle_streak: int
    active: bool
    safe: bool


@dataclass(frozen=True)
class Snapshot:
    """Everything a renderer needs, frozen at one version of the session."""

    game_id: str
    guild_id: int
    channel_id: int
    version: int
    seq: str
    stage: Stage
    host_id: int
    rules: Ruleset
    seats: tuple[SeatView, ...]
    max_players: int
    deadline: float | None
    current: int | None = None
    turn_number: int | None = None
    turn: TurnState | None = None
    selection: tuple[int, ...] = ()
    preview: KeepPreview | None = None
    next_farkle_chance: Fraction | None = None
    bank_all: int | None = None  # nothing selected on a roll: what Bank banks (the best keep's total)
    final_round: bool = False
    recent: tuple[Event, ...] = ()
    winners: tuple[int, ...] = ()
    placements: tuple[tuple[int, ...], ...] = ()
    end_reason: str | None = None
    hints: bool = HINTS.default
    turn_timeout: int = TURN_TIMEOUT.default
    language: str | None = LANGUAGE.default  # the server's language setting when the game was created
    chances: tuple[tuple[int, float], ...] = ()  # live odds: (user id, chance to win), with `live_odds` on
    numbers: tuple[PlayerNumbers, ...] = ()  # once the game is over: each seat's, in seat order
    host_skill: int | None = None  # the host's skill when the lobby opened (None: not enough decisions)

    def name_of(self, player: str | int | None) -> str:
        for seat in self.seats:
            if str(seat.user_id) == str(player):
                return seat.name
        return "someone"

    @property
    def current_seat(self) -> SeatView | None:
        return next((s for s in self.seats if s.user_id == self.current), None)


@dataclass
class Session:
    game_id: str
    guild_id: int
    channel_id: int
    host_id: int
    rules: Ruleset
    table: TableSettings = field(default_factory=TableSettings)
    seats: list[Seat] = field(default_factory=list)
    stage: Stage = "lobby"
    game: Game | None = None
    version: int = 0
    deadline: float | None = None
    reminded: bool = False
    selection: tuple[int, ...] = ()
    recent: list[Event] = field(default_factory=list)
    rematch_of: str | None = None
    end_reason: str | None = None
    started_at: float | None = None
    ended_at: float | None = None
    dice_start: dict[str, Any] | None = None
    host_skill: int | None = None  # the host's skill, what "Add computer: your level" plays at
    # The last committed dump(), compressed: it is read back only when the next change can't be saved,
    # and held by every live game meanwhile (2.3 KB of JSON a game; 0.8 KB compressed in ~10 µs).
    saved: bytes | None = field(default=None, repr=False, compare=False)
    revision: int | None = field(default=None, compare=False)  # the stored row's, as last written or read
    _odds: tuple[tuple[object, ...], tuple[tuple[int, float], ...]] | None = field(
        default=None, repr=False, compare=False
    )  # the live chances of the last moment drawn
    win_tables: TablesOf = field(default=no_tables, repr=False, compare=False)  # the registry's keeper
    estimated: Estimated = field(default=none_estimated, repr=False, compare=False)  # the registry's too

    def __post_init__(self) -> None:
        self.table = _shared(self.table)

    @property
    def max_players(self) -> int:
        return min(self.rules.max_players, self.table.max_players)

    def engine_teams(self) -> list[int] | None:
        return engine_teams(self.rules, [seat.team for seat in self.seats])

    def seat(self, user_id: int) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def seat_for_player(self, player_id: str | None) -> Seat | None:
        return next((s for s in self.seats if s.player_id == player_id), None)

    @property
    def current_seat(self) -> Seat | None:
        return self.seat_for_player(self.game.current_player) if self.game else None

    @property
    def seq(self) -> str:
        """What the buttons act on, carried in every custom id.

        It changes only when dice are thrown, a turn passes or the stage changes, never on a die
        toggle: Discord refuses a press whose custom id is no longer on the message, and a player's
        screen lags the bot's edits, so ids that changed on every press would lose quick taps.
        """
        if self.stage == "playing" and self.game is not None:
            return f"{self.game.turn_number}-{self.game.turn_rolls}"
        return self.stage

    def remember(self, events: list[Event]) -> None:
        self.recent = [*self.recent, *events][-RECENT_EVENTS:]

    def snapshot(self) -> Snapshot:
        game = self.game
        states = {p.id: p for p in game.players} if game else {}
        seats = []
        for seat in self.seats:
            state = states.get(seat.player_id)
            seats.append(
                SeatView(
                    user_id=seat.user_id,
                    name=seat.name,
                    team=seat.team,
                    computer=seat.computer,
                    bank=state.bank if state else 0,
                    on_board=state.on_board if state else False,
                    farkle_streak=state.farkle_streak if state else 0,
                    active=state.active if state else True,
                    safe=state.safe if state else False,
                )
            )
        base: dict[str, Any] = {
            "game_id": self.game_id,
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "version": self.version,
            "seq": self.seq,
            "stage": self.stage,
            "host_id": self.host_id,
            "rules": self.rules,
            "seats": tuple(seats),
            "max_players": self.max_players,
            "deadline": self.deadline,
            "recent": tuple(self.recent),
            "end_reason": self.end_reason,
            "hints": self.table.hints,
            "turn_timeout": self.table.turn_timeout,
            "language": self.table.language,
            "host_skill": self.host_skill,
        }
        if game is None:
            return Snapshot(**base)
        current = self.current_seat
        preview = game.preview(self.selection) if game.phase != "over" else None
        result = game.result
        return Snapshot(
            **base,
            current=current.user_id if current else None,
            turn_number=game.turn_number,
            turn=game.turn,
            selection=self.selection,
            preview=preview,
            next_farkle_chance=(
                farkle_chance(preview.dice_to_roll, self.rules) if preview and preview.dice_to_roll else None
            ),
            bank_all=bank_all(game, self.selection),
            final_round=game.final_round,
            chances=self._live_chances(game),
            winners=tuple(int(p) for p in result.winners) if result else (),
            placements=tuple(tuple(int(p) for p in group) for group in result.placements) if result else (),
            numbers=tuple(numbers_of(game.events, seat.player_id) for seat in self.seats) if result else (),
        )

    def _live_chances(self, game: Game) -> tuple[tuple[int, float], ...]:
        """Every player's chance to win with `live_odds` on, once per roll (not per die toggle): the tables'
        for two players, the playouts' estimate of the turn for more (`sessions/chances.py`)."""
        if not self.table.live_odds or game.phase == "over":
            return ()
        moment = (self.game_id, game.turn_number, game.turn_rolls, game.phase)
        if self._odds is None or self._odds[0] != moment:
            chances = live_chances(game, self.win_tables(game.rules)) or self.estimated(game)
            self._odds = (moment, tuple((int(p), chances[p]) for p in sorted(chances, key=self._seat_order)))
        return self._odds[1]

    def solve_next_roll(self) -> None:
        """With live odds on, solve now the turn the next roll's chances read (`review.solve_next_roll`)."""
        if self.table.live_odds and self.game is not None:
            solve_next_roll(self.game, self.win_tables(self.game.rules))

    def _seat_order(self, player_id: str) -> int:
        return next((i for i, seat in enumerate(self.seats) if seat.player_id == player_id), len(self.seats))

    def dump(self) -> str:
        """The whole session as JSON: what is committed after every accepted action (orjson: the
        standard library's encoder took most of a move's serialisation time)."""
        return orjson.dumps(
            {
                "format": FORMAT,
                "game_id": self.game_id,
                "guild_id": self.guild_id,
                "channel_id": self.channel_id,
                "host_id": self.host_id,
                "rules": self.rules.model_dump(mode="json"),
                "table": vars(self.table),
                "seats": [vars(seat) for seat in self.seats],
                "stage": self.stage,
                "game": self.game.state(events=False) if self.game else None,
                "version": self.version,
                "deadline": self.deadline,
                "reminded": self.reminded,
                "selection": list(self.selection),
                "recent": [event_row(event) for event in self.recent],
                "rematch_of": self.rematch_of,
                "dice_start": self.dice_start,
                "end_reason": self.end_reason,
                "started_at": self.started_at,
                "ended_at": self.ended_at,
                "host_skill": self.host_skill,
            }
        ).decode()

    def committed(self, state: str) -> None:
        """`state` (a `dump()`) is now stored: a change that can't be saved rolls back to it."""
        packer = zlib.compressobj(1, zlib.DEFLATED, ROLLBACK_WINDOW_BITS, ROLLBACK_MEMORY_LEVEL)
        self.saved = packer.compress(state.encode()) + packer.flush()

    def last_committed(self) -> str | None:
        return zlib.decompress(self.saved).decode() if self.saved is not None else None

    def row(self, state: str) -> SessionRow:
        """The stored form of this session, its `dump()` being `state`."""
        return SessionRow(
            channel_id=self.channel_id,
            guild_id=self.guild_id,
            game_id=self.game_id,
            stage=self.stage,
            version=self.version,
            deadline=self.deadline,
            state=state,
            revision=self.revision,
        )

    @classmethod
    def from_stored(cls, stored: StoredSession) -> Session:
        return cls.load(stored.state, stored.revision)

    @classmethod
    def load(cls, text: str, revision: int | None = None) -> Session:
        """Read a stored session; a missing or damaged field raises (the caller sets that row aside)."""
        data = _upgrade(orjson.loads(text))
        game = Game.from_state(data["game"], data["dice_start"]) if data["game"] else None
        session = cls(
            game_id=data["game_id"],
            guild_id=data["guild_id"],
            channel_id=data["channel_id"],
            host_id=data["host_id"],
            # The game's ruleset is shared by every game with those rules, with its scoring tables built.
            rules=game.rules if game else Ruleset.model_validate(data["rules"]),
            table=TableSettings(**data["table"]),
            seats=[Seat(**seat) for seat in data["seats"]],
            stage=data["stage"],
            game=game,
            version=data["version"],
            deadline=data["deadline"],
            reminded=data["reminded"],
            selection=tuple(data["selection"]),
            recent=[event_from_row(event) for event in data["recent"]],
            rematch_of=data["rematch_of"],
            dice_start=data["dice_start"],
            end_reason=data["end_reason"],
            started_at=data["started_at"],
            ended_at=data["ended_at"],
            host_skill=data.get("host_skill"),  # sessions saved before it have none
            revision=revision,
        )
        session.committed(text)
        return session


def _upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """Bring a stored session written by an older bot to the current format."""
    if data.get("format", 1) > FORMAT:
        raise ValueError(f"session format {data['format']} is newer than this bot's ({FORMAT})")
    if data.get("format", 1) == 1:
        # Format 1 lacked only the turn ping (migration 0015 counted its turn as pinged in the ledger).
        data = {**data, "format": 2}
    if data["format"] == 2:
        # Format 2 kept the game as JSON text inside the JSON, its events included.
        data = {**data, "format": 3, "game": json.loads(data["game"]) if data["game"] else None}
    if data["format"] == 3:
        # Format 3 kept the board's message, its turn ping and its route: the board ledger holds them now.
        table = {key: value for key, value in data["table"].items() if key != "channel_routes"}
        data = {key: value for key, value in data.items() if key not in _LEDGER_KEYS}
        data = {**data, "format": 4, "table": table}
    return data
