"""What the tournament door needs from storage (`bot.storage.tournaments.SqlTournamentStore`)."""

from __future__ import annotations

from typing import Protocol

from bot.core.records import EntrantRow, GameRecord, TournamentRow


class TournamentStore(Protocol):
    async def create(self, row: TournamentRow) -> bool:
        """False if another tournament is signing up in the channel (nothing written)."""

    async def save(self, row: TournamentRow) -> bool:
        """Write at `row.revision`; False if the stored row moved on."""

    async def count_game(self, row: TournamentRow, game: dict[str, object]) -> bool:
        """Store the game's id and the new state together; False if the game was counted already."""

    async def load(self, tournament_id: str) -> TournamentRow | None: ...

    async def running(self) -> list[TournamentRow]: ...

    async def uncrowned(self) -> list[TournamentRow]:
        """Tournaments over whose champion's achievement was never marked handed out."""

    async def mark_crowned(self, tournament_id: str, now: float) -> None: ...

    async def ended_games(self, game_ids: list[str]) -> list[GameRecord]:
        """Those of these games that ended and were archived (their records as stored)."""

    async def of_guild(self, guild_id: int) -> list[tuple[TournamentRow, list[EntrantRow]]]:
        """The server's newest tournaments, each with its entrants."""

    async def join(self, entrant: EntrantRow) -> bool: ...

    async def leave(self, tournament_id: str, user_id: int) -> bool: ...

    async def entrants(self, tournament_id: str) -> list[EntrantRow]: ...

    async def ratings(self, guild_id: int, user_ids: list[int]) -> dict[int, float]: ...
