"""The board ledger in memory: which messages show each game, what each last showed, its turn ping.

The delivery side owns it (a game's session knows no Discord message). A message that must be found
again (a board just posted) is written at once; what a message shows and which turn ping it carries are
written behind the moves in batches: only a start-up after a crash reads them, and a mark that never
reached the database merely redraws one board or posts one ping once more. So the marks made while one
batch is being written go in the next one, a burst across hundreds of games sharing a handful of writes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection
from dataclasses import dataclass, field

from bot.storage.boards import BoardMark, BoardRow, Role, Route, SqlBoardLedger

log = logging.getLogger(__name__)

# At most this many follow boards per game: each costs an edit per move.
MAX_FOLLOWS = 3


@dataclass
class View:
    """One message showing a game (`role` "board": its own board; "follow": a spectator's), or a
    tournament's card (`role` "card", `game_id` the tournament's id)."""

    game_id: str
    channel_id: int
    role: Role
    route: Route
    message_id: int | None
    shown_version: int | None = None
    ping_message_id: int | None = None
    pinged_turn: int | None = None
    owner_id: int | None = None
    # In memory only: the newest version any drawing of this message landed with (answers are not
    # ordered, so an older drawing may land after it and need a repair).
    newest_landed: int = field(default=-1, compare=False)

    @property
    def key(self) -> tuple[str, int, Role]:
        return self.game_id, self.channel_id, self.role

    def row(self) -> BoardRow:
        return BoardRow(
            self.game_id,
            self.channel_id,
            self.role,
            self.route,
            self.message_id,
            self.shown_version,
            self.ping_message_id,
            self.pinged_turn,
            self.owner_id,
        )


class Ledger:
    def __init__(self, store: SqlBoardLedger) -> None:
        self._store = store
        self._views: dict[str, list[View]] = {}  # by game id, its board first
        self._cards: dict[str, View] = {}  # tournaments' cards, by tournament id
        self._pending: dict[tuple[str, int, Role], BoardMark] = {}
        self._writer: asyncio.Task[None] | None = None

    def board(self, game_id: str) -> View | None:
        return next((view for view in self._views.get(game_id, ()) if view.role == "board"), None)

    def follows(self, game_id: str) -> list[View]:
        return [view for view in self._views.get(game_id, ()) if view.role == "follow"]

    def follow_in(self, game_id: str, channel_id: int) -> View | None:
        return next((view for view in self.follows(game_id) if view.channel_id == channel_id), None)

    def all_follows(self) -> list[View]:
        return [view for views in self._views.values() for view in views if view.role == "follow"]

    async def attach(self, view: View) -> None:
        """`view` now shows its game (a new board replaces the game's older one and a channel's older
        game's); stored before anyone relies on finding it again."""
        if view.role == "board" and (older := self.board(view.game_id)) is not None:
            view.ping_message_id, view.pinged_turn = older.ping_message_id, older.pinged_turn
        for game_id, views in list(self._views.items()):
            views[:] = [v for v in views if v.key != view.key and not _replaced_by(v, view)]
            if not views:
                del self._views[game_id]
        views = self._views.setdefault(view.game_id, [])
        views.insert(0 if view.role == "board" else len(views), view)
        await self._store.attach(view.row())

    def shown(self, view: View, version: int) -> None:
        """The message now shows `version` (a shown version never moves backwards)."""
        if view.shown_version is not None and view.shown_version >= version:
            return
        view.shown_version = version
        self._note(BoardMark(view.game_id, view.channel_id, view.role, version))

    def landed(self, view: View, version: int) -> bool:
        """A drawing of `version` just landed on the message; True when a newer one had landed before it
        (Discord applied the answers out of order): the message now shows an older state."""
        older_last = version < view.newest_landed
        view.newest_landed = max(view.newest_landed, version)
        return older_last

    def pinged(self, view: View, message_id: int | None, turn: int | None) -> int | None:
        """Swap in the game's newest turn ping (None: none), posted for `turn`; returns the one it
        replaces, to delete."""
        previous, view.ping_message_id, view.pinged_turn = view.ping_message_id, message_id, turn
        self._note(BoardMark(view.game_id, view.channel_id, view.role, None, (message_id, turn)))
        return previous

    async def attach_card(self, tournament_id: str, channel_id: int, message_id: int) -> None:
        """The message showing a tournament's card, which every change of the tournament edits."""
        card = View(tournament_id, channel_id, "card", "channel", message_id)
        self._cards[tournament_id] = card
        await self._store.attach(card.row())

    async def card(self, tournament_id: str) -> View | None:
        """A tournament's card message, read from the database once per process."""
        if tournament_id not in self._cards:
            row = await self._store.card(tournament_id)
            if row is None:
                return None
            self._cards[tournament_id] = View(
                tournament_id, row.channel_id, "card", row.route, row.message_id
            )
        return self._cards[tournament_id]

    async def forget(self, view: View) -> None:
        """The message stopped showing its game (a follow board that ended, a game closed)."""
        views = self._views.get(view.game_id, [])
        views[:] = [v for v in views if v.key != view.key]
        if not views:
            self._views.pop(view.game_id, None)
        self._pending.pop(view.key, None)
        await self._store.forget(view.game_id, view.channel_id, view.role)

    async def forget_game(self, game_id: str) -> None:
        """Nothing shows the game any more (it was closed)."""
        for view in self._views.pop(game_id, []):
            self._pending.pop(view.key, None)
        await self._store.forget(game_id)

    async def restore(self, game_ids: Collection[str]) -> None:
        """After a start-up: the messages showing the games this process restored."""
        for row in await self._store.load(game_ids):
            view = View(
                row.game_id,
                row.channel_id,
                row.role,
                row.route,
                row.message_id,
                row.shown_version,
                row.ping_message_id,
                row.pinged_turn,
                row.owner_id,
            )
            self._views.setdefault(row.game_id, []).insert(0 if row.role == "board" else 9, view)

    def _note(self, mark: BoardMark) -> None:
        key = (mark.game_id, mark.channel_id, mark.role)
        earlier = self._pending.get(key)
        if earlier is not None:
            mark = BoardMark(
                *key,
                mark.shown_version if mark.shown_version is not None else earlier.shown_version,
                mark.ping if mark.ping is not None else earlier.ping,
            )
        self._pending[key] = mark
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_all(), name="farkle-board-marks")

    async def _write_all(self) -> None:
        while self._pending:
            batch, self._pending = list(self._pending.values()), {}
            try:
                await self._store.write_marks(batch)
            except Exception as error:  # only needless redraws or pings after the next restart are at stake
                log.warning("Could not record what %d boards show: %s", len(batch), error)

    async def close(self) -> None:
        """Write what is pending before the database closes (a clean stop redraws nothing needlessly)."""
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)


def _replaced_by(old: View, new: View) -> bool:
    """A channel shows one game's board: a new game's board there replaces the older game's."""
    return old.role == new.role == "board" and old.channel_id == new.channel_id
