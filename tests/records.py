"""Game records with exactly the numbers a test needs (their action logs are not replayable)."""

from bot.core.records import GameRecord, PlayerRecord
from bot.engine import Ruleset


def player(
    user_id: int,
    *,
    won: bool = False,
    points: int = 0,
    best: int = 0,
    placement: int | None = None,
    name: str | None = None,
) -> PlayerRecord:
    return PlayerRecord(
        seat=0,
        user_id=user_id,
        name=name or f"member{user_id:03d}",
        computer=None,
        team=None,
        placement=placement if placement is not None else (1 if won else 2),
        won=won,
        final_bank=points,
        turns=3,
        points=points,
        best_turn=best,
        farkles=1,
        hot_dice=0,
    )


def synthetic(
    game_id: str, *players: PlayerRecord, ended_at: float, guild: int, channel: int = 10
) -> GameRecord:
    """A game record with exactly the numbers a test needs (its action log is not replayable)."""
    seated = tuple(PlayerRecord(**{**vars(p), "seat": index}) for index, p in enumerate(players))
    return GameRecord(
        game_id=game_id,
        guild_id=guild,
        channel_id=channel,
        rules_json=Ruleset.preset("classic").model_dump_json(),
        dice_start_json="{}",
        actions_json="[]",
        started_at=ended_at - 600,
        ended_at=ended_at,
        end_reason="target",
        players=seated,
    )
