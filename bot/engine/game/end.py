"""Turn order and the end of the game: who plays next, the final round, reaching the target (safe under
last-loses, overflow under exact), ties that share or play off, players who leave, and the result: functions
that change a `GameState`, called by the turn's actions (`turn`) and by `Game.new`."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from bot.engine.game.state import GameState, member_ids
from bot.engine.game.types import EndReason, GameResult, TurnState
from bot.engine.history import FinalRound, GameOver, Left, Overflow, Playoff, Removed, Safe, TurnStarted

# ---------------------------------------------------------------------- turn order


def remove(s: GameState, seat: int, gone: type[Left | Removed]) -> None:
    """A player leaves or is removed; their side plays on while a teammate remains."""
    s.active[seat] = False
    s.events.append(gone(s.ids[seat]))
    index = s.side_of[seat]
    side = s.sides[index]
    if not any(s.active[m] for m in side.members):
        side.active = False
        for queue in (s.pending, s.playoff):
            if queue is not None and index in queue:
                queue.remove(index)
    if seat == s.seat:
        end_turn(s, by_leave=True)
    else:
        _game_ends(s, by_leave=True)


def end_turn(
    s: GameState, score: int = 0, offer: tuple[int, int] | None = None, by_leave: bool = False
) -> None:
    """Close the current turn (score = points banked) and start the next one, unless the game ends."""
    side = s.sides[s.side]
    side.up = (side.members.index(cast(int, s.seat)) + 1) % len(side.members)
    if s.playoff is not None:
        s.playoff_scores[s.side] = score
    if _game_ends(s, by_leave):
        return
    if s.pending == []:
        _resolve_top(s)
        if s.result is not None:
            return
    start_turn(s, _next_side(s), offer)


def start_turn(s: GameState, index: int, offer: tuple[int, int] | None) -> None:
    side = s.sides[index]
    seat = side.members[side.up]
    if not s.active[seat]:
        seat = next(m for m in side.members[side.up :] + side.members[: side.up] if s.active[m])
    s.side, s.seat, s.pid = index, seat, s.ids[seat]
    s.turn_number += 1
    s.phase = "turn_start"
    s.turn = TurnState()
    s.offer_points = 0
    if offer is not None and _may_piggyback(s):
        s.turn.piggyback_dice, s.offer_points = offer
    s.events.append(TurnStarted(s.ids[seat]))


def _may_piggyback(s: GameState) -> bool:
    if not s.rules.piggyback_needs_all_on_board:
        return True
    return all(side.on_board for side in s.sides if side.active)


def _next_side(s: GameState) -> int:
    if s.pending is not None:
        return s.pending.pop(0)
    count = len(s.sides)
    for k in range(1, count + 1):
        index = (s.side + k) % count
        if s.sides[index].active and not s.sides[index].safe:
            return index
    raise AssertionError("no side can play")  # unreachable: _game_ends ends games first


# ---------------------------------------------------------------------- the end of the game


def _game_ends(s: GameState, by_leave: bool = False) -> bool:
    """End the game if too few sides remain or, under last-loses, the loser is known."""
    if s.result is not None:
        return True
    active = [index for index, side in enumerate(s.sides) if side.active]
    if len(active) < 2:
        finish(s, "players_left", active)
        return True
    if s.rules.end_rule != "last_loses":
        return False
    below = [index for index in active if not s.sides[index].safe]
    if len(below) > 1:
        return False
    safe = [index for index in s.reached if s.sides[index].active]
    if by_leave:  # the one who left conceded: whoever is still below did not lose
        finish(s, "last_loses", safe + below, [*([index] for index in safe), below])
    else:
        finish(s, "last_loses", safe, [*([index] for index in safe), below])
    return True


def _resolve_top(s: GameState) -> None:
    """Every owed turn is played: the top wins, or ties share or play off."""
    if s.playoff:
        scores = {index: s.playoff_scores.get(index, 0) for index in s.playoff}
    else:
        scores = {index: side.bank for index, side in enumerate(s.sides) if side.active}
    top = max(scores.values())
    tied = [index for index, score in scores.items() if score == top]
    if len(tied) == 1 or s.rules.tie_rule == "share":
        finish(s, "target", tied)
        return
    tied.sort(key=lambda index: s.reached.index(index) if index in s.reached else len(s.sides) + index)
    s.playoff, s.playoff_scores, s.pending = tied, {}, list(tied)
    for index in tied:
        s.events.append(Playoff(member_ids(s, index)[0]))


def finish(
    s: GameState, reason: EndReason, winners: list[int], groups: list[list[int]] | None = None
) -> None:
    """Record the result: winners first, the other active sides by bank, then players who left."""
    if groups is None:
        rest = [index for index, side in enumerate(s.sides) if side.active and index not in winners]
        groups = [winners, *_grouped(rest, lambda index: s.sides[index].bank)]
    placements = [ids for g in groups if (ids := tuple(p for index in g for p in member_ids(s, index)))]
    gone = [seat for seat in range(len(s.ids)) if not s.active[seat]]
    placements += [
        tuple(s.ids[seat] for seat in g) for g in _grouped(gone, lambda seat: s.sides[s.side_of[seat]].bank)
    ]
    winner_ids = tuple(p for index in winners for p in member_ids(s, index))
    banks = {pid: s.sides[s.side_of[seat]].bank for seat, pid in enumerate(s.ids)}
    s.result = GameResult(winner_ids, tuple(placements), banks, reason)
    s.phase = "over"
    s.seat = None
    s.pending = None
    s.events.append(GameOver(winner_ids[0] if winner_ids else None))


def give_overflow(s: GameState, excess: int) -> int | None:
    """Exact target: points over it go to the lowest other side (earliest seat on a tie), capped too."""
    others = [index for index, side in enumerate(s.sides) if index != s.side and side.active]
    if not others:
        return None
    recipient = min(others, key=lambda index: s.sides[index].bank)
    side = s.sides[recipient]
    side.bank = min(s.rules.target, side.bank + excess)
    other = member_ids(s, recipient)[0]
    s.events.append(Overflow(s.pid, excess, side.bank, other))
    return recipient


def reach_target(s: GameState, index: int) -> None:
    """First arrival at the target: safe under last-loses, else it starts the final round."""
    if index in s.reached:
        return
    s.reached.append(index)
    who = s.pid if index == s.side else member_ids(s, index)[0]
    if s.rules.end_rule == "last_loses":
        s.sides[index].safe = True
        s.events.append(Safe(who))
    elif not s.final_round:
        s.final_round = True
        count = len(s.sides)
        after = ((index + k) % count for k in range(1, count))
        s.pending = [other for other in after if s.sides[other].active]
        s.events.append(FinalRound(who))


def _grouped(items: list[int], bank: Callable[[int], int]) -> list[list[int]]:
    """Items in groups of equal bank, highest first, keeping seat order inside a group."""
    groups: dict[int, list[int]] = {}
    for item in items:
        groups.setdefault(bank(item), []).append(item)
    return [groups[b] for b in sorted(groups, reverse=True)]
