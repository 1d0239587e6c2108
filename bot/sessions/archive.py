"""Archiving is a step of the session layer: a finished session becomes a `GameRecord` for storage,
and an archived game is rebuilt for `/farkle replay`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from bot.core.records import GameRecord, PlayerRecord
from bot.engine import Action, Game, Ruleset
from bot.engine.saved import JSON
from bot.sessions.numbers import numbers_of
from bot.sessions.session import Session, engine_teams


@dataclass(frozen=True)
class Archived:
    """An archived game's stored columns, read back as the engine's values."""

    rules: Ruleset
    players: list[str]
    dice_start: dict[str, JSON]
    actions: list[Action]
    teams: list[int] | None


def archived(
    rules_json: str, dice_start_json: str, actions_json: str, seats: Sequence[tuple[int, int | None]]
) -> Archived:
    """What an archived game's columns say, with its seats' (user id, team)."""
    rules = Ruleset.model_validate_json(rules_json)
    return Archived(
        rules,
        [str(user_id) for user_id, _ in seats],
        json.loads(dice_start_json),
        [Action.from_dict(a) for a in json.loads(actions_json)],
        engine_teams(rules, [team for _, team in seats]),
    )


def replay(
    rules_json: str, dice_start_json: str, actions_json: str, seats: Sequence[tuple[int, int | None]]
) -> Game:
    """The archived game, rebuilt move by move from its seats' (user id, team); its `events` tell all."""
    game = archived(rules_json, dice_start_json, actions_json, seats)
    return Game.replay(game.rules, game.players, game.dice_start, game.actions, game.teams)


def record_of(session: Session) -> GameRecord | None:
    """The archive of a session whose game just ended (None while it goes on), from the game it holds:
    the engine keeps every event, so nothing is replayed."""
    game, ended_at = session.game, session.ended_at
    if session.stage != "over" or game is None or game.result is None or ended_at is None:
        return None
    assert session.dice_start is not None
    result = game.result
    placement = {player: place for place, group in enumerate(result.placements, start=1) for player in group}
    events = game.events
    players = []
    for seat_index, seat in enumerate(session.seats):
        numbers = numbers_of(events, seat.player_id)
        players.append(
            PlayerRecord(
                seat=seat_index,
                user_id=seat.user_id,
                name=seat.name,
                computer=seat.computer,
                team=seat.team,
                placement=placement.get(seat.player_id, len(session.seats)),
                won=seat.player_id in result.winners,
                final_bank=result.banks.get(seat.player_id, 0),
                turns=numbers.turns,
                points=numbers.points,
                best_turn=numbers.best_turn,
                farkles=numbers.farkles,
                hot_dice=numbers.hot_dice,
            )
        )
    return GameRecord(
        game_id=session.game_id,
        guild_id=session.guild_id,
        channel_id=session.channel_id,
        rules_json=session.rules.model_dump_json(),
        dice_start_json=json.dumps(session.dice_start),
        actions_json=json.dumps([a.to_dict() for a in game.history]),
        started_at=session.started_at or ended_at,
        ended_at=ended_at,
        end_reason=result.reason,
        players=tuple(players),
    )
