"""The live games, by game id, with each channel's current game as an index: the one owner of both.

A game is its id: its lock, its alarm and its computer are keyed by it, so a game that ended in a channel
and the lobby opened after it share nothing, and a stale alarm of the old game finds no game. The channel
index exists because Discord addresses a slash command by its channel; "one live game per channel" is a
rule of the lobby (`GameCommands.open_lobby`), and here only means a channel's index names one game: a
game put in a channel replaces the one there (a finished game's results, a game another process
replaced).
"""

from __future__ import annotations

from collections.abc import Iterator

from bot.sessions.chances import Estimated, none_estimated
from bot.sessions.session import Session
from bot.sessions.win_tables import TablesOf, no_tables


class GameRegistry:
    def __init__(self, win_tables: TablesOf = no_tables, estimated: Estimated = none_estimated) -> None:
        """`win_tables`: where every game put here reads its live chances' tables (the bot's keeper);
        `estimated`: where it reads those of three or more players (`LiveChances.estimated`)."""
        self._win_tables = win_tables
        self._estimated = estimated
        self._games: dict[str, Session] = {}
        self._in_channel: dict[int, str] = {}  # channel id -> its current game's id

    def get(self, game_id: str) -> Session | None:
        return self._games.get(game_id)

    def in_channel(self, channel_id: int) -> Session | None:
        game_id = self._in_channel.get(channel_id)
        return self._games.get(game_id) if game_id is not None else None

    def put(self, session: Session) -> Session | None:
        """Register `session` (a new game, or its own state read back); the other game it replaces in its
        channel, if any, leaves the registry and is returned."""
        replaced_id = self._in_channel.get(session.channel_id)
        replaced = None
        if replaced_id is not None and replaced_id != session.game_id:
            replaced = self._games.pop(replaced_id, None)
        session.win_tables = self._win_tables
        session.estimated = self._estimated
        self._games[session.game_id] = session
        self._in_channel[session.channel_id] = session.game_id
        return replaced

    def drop(self, session: Session) -> None:
        """The game leaves (closed, or gone from storage); its channel's index only if it names it."""
        self._games.pop(session.game_id, None)
        if self._in_channel.get(session.channel_id) == session.game_id:
            del self._in_channel[session.channel_id]

    def __iter__(self) -> Iterator[Session]:
        return iter(list(self._games.values()))
