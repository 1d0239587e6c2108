"""Turn order and the end of the game: who plays next, the final round, reaching the target (safe under
last-loses, overflow under exact), ties that share or play off, players who leave, and the result."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from bot.engine.game.state import GameState
from bot.engine.game.types import EndReason, GameResult, TurnState
from bot.engine.history import FinalRound, GameOver, Left, Overflow, Playoff, Removed, Safe, TurnStarted


class GameEnd(GameState):
    """Closing a turn, opening the next one and deciding when and how the game ends."""

    # ------------------------------------------------------------------ turn order

    def _remove(self, seat: int, gone: type[Left | Removed]) -> None:
        """A player leaves or is removed; their side plays on while a teammate remains."""
        self._active[seat] = False
        self._events.append(gone(self._ids[seat]))
        s = self._side_of[seat]
        side = self._sides[s]
        if not any(self._active[m] for m in side.members):
            side.active = False
            for queue in (self._pending, self._playoff):
                if queue is not None and s in queue:
                    queue.remove(s)
        if seat == self._seat:
            self._end_turn(by_leave=True)
        else:
            self._game_ends(by_leave=True)

    def _end_turn(self, score: int = 0, offer: tuple[int, int] | None = None, by_leave: bool = False) -> None:
        """Close the current turn (score = points banked) and start the next one, unless the game ends."""
        side = self._sides[self._side]
        side.up = (side.members.index(cast(int, self._seat)) + 1) % len(side.members)
        if self._playoff is not None:
            self._playoff_scores[self._side] = score
        if self._game_ends(by_leave):
            return
        if self._pending == []:
            self._resolve_top()
            if self._result is not None:
                return
        self._start_turn(self._next_side(), offer)

    def _start_turn(self, s: int, offer: tuple[int, int] | None) -> None:
        side = self._sides[s]
        seat = side.members[side.up]
        if not self._active[seat]:
            seat = next(m for m in side.members[side.up :] + side.members[: side.up] if self._active[m])
        self._side, self._seat, self._pid = s, seat, self._ids[seat]
        self._turn_number += 1
        self._phase = "turn_start"
        self._turn = TurnState()
        self._offer_points = 0
        if offer is not None and self._may_piggyback():
            self._turn.piggyback_dice, self._offer_points = offer
        self._events.append(TurnStarted(self._ids[seat]))

    def _may_piggyback(self) -> bool:
        if not self._rules.piggyback_needs_all_on_board:
            return True
        return all(side.on_board for side in self._sides if side.active)

    def _next_side(self) -> int:
        if self._pending is not None:
            return self._pending.pop(0)
        count = len(self._sides)
        for k in range(1, count + 1):
            s = (self._side + k) % count
            if self._sides[s].active and not self._sides[s].safe:
                return s
        raise AssertionError("no side can play")  # unreachable: _game_ends ends games first

    # ------------------------------------------------------------------ the end of the game

    def _game_ends(self, by_leave: bool = False) -> bool:
        """End the game if too few sides remain or, under last-loses, the loser is known."""
        if self._result is not None:
            return True
        active = [s for s, side in enumerate(self._sides) if side.active]
        if len(active) < 2:
            self._finish("players_left", active)
            return True
        if self._rules.end_rule != "last_loses":
            return False
        below = [s for s in active if not self._sides[s].safe]
        if len(below) > 1:
            return False
        safe = [s for s in self._reached if self._sides[s].active]
        if by_leave:  # the one who left conceded: whoever is still below did not lose
            self._finish("last_loses", safe + below, [*([s] for s in safe), below])
        else:
            self._finish("last_loses", safe, [*([s] for s in safe), below])
        return True

    def _resolve_top(self) -> None:
        """Every owed turn is played: the top wins, or ties share or play off."""
        if self._playoff:
            scores = {s: self._playoff_scores.get(s, 0) for s in self._playoff}
        else:
            scores = {s: side.bank for s, side in enumerate(self._sides) if side.active}
        top = max(scores.values())
        tied = [s for s, score in scores.items() if score == top]
        if len(tied) == 1 or self._rules.tie_rule == "share":
            self._finish("target", tied)
            return
        tied.sort(key=lambda s: self._reached.index(s) if s in self._reached else len(self._sides) + s)
        self._playoff, self._playoff_scores, self._pending = tied, {}, list(tied)
        for s in tied:
            self._events.append(Playoff(self._member_ids(s)[0]))

    def _finish(self, reason: EndReason, winners: list[int], groups: list[list[int]] | None = None) -> None:
        """Record the result: winners first, the other active sides by bank, then players who left."""
        if groups is None:
            rest = [s for s, side in enumerate(self._sides) if side.active and s not in winners]
            groups = [winners, *_grouped(rest, lambda s: self._sides[s].bank)]
        placements = [ids for g in groups if (ids := tuple(p for s in g for p in self._member_ids(s)))]
        gone = [seat for seat in range(len(self._ids)) if not self._active[seat]]
        placements += [
            tuple(self._ids[seat] for seat in g)
            for g in _grouped(gone, lambda seat: self._sides[self._side_of[seat]].bank)
        ]
        winner_ids = tuple(p for s in winners for p in self._member_ids(s))
        banks = {pid: self._sides[self._side_of[seat]].bank for seat, pid in enumerate(self._ids)}
        self._result = GameResult(winner_ids, tuple(placements), banks, reason)
        self._phase = "over"
        self._seat = None
        self._pending = None
        self._events.append(GameOver(winner_ids[0] if winner_ids else None))

    def _give_overflow(self, excess: int) -> int | None:
        """Exact target: points over it go to the lowest other side (earliest seat on a tie), capped too."""
        others = [s for s, side in enumerate(self._sides) if s != self._side and side.active]
        if not others:
            return None
        recipient = min(others, key=lambda s: self._sides[s].bank)
        side = self._sides[recipient]
        side.bank = min(self._rules.target, side.bank + excess)
        other = self._member_ids(recipient)[0]
        self._events.append(Overflow(self._pid, excess, side.bank, other))
        return recipient

    def _reach_target(self, s: int) -> None:
        """First arrival at the target: safe under last-loses, else it starts the final round."""
        if s in self._reached:
            return
        self._reached.append(s)
        who = self._pid if s == self._side else self._member_ids(s)[0]
        if self._rules.end_rule == "last_loses":
            self._sides[s].safe = True
            self._events.append(Safe(who))
        elif not self._final_round:
            self._final_round = True
            count = len(self._sides)
            after = ((s + k) % count for k in range(1, count))
            self._pending = [other for other in after if self._sides[other].active]
            self._events.append(FinalRound(who))


def _grouped(items: list[int], bank: Callable[[int], int]) -> list[list[int]]:
    """Items in groups of equal bank, highest first, keeping seat order inside a group."""
    groups: dict[int, list[int]] = {}
    for item in items:
        groups.setdefault(bank(item), []).append(item)
    return [groups[b] for b in sorted(groups, reverse=True)]
