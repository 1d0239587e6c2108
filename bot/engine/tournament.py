"""Tournaments as pure data: who plays whom, who advances, who stands where.

Two formats. Single elimination seeds the entrants into a bracket of the next power of two in the
standard order (seed 1 meets the lowest seed, and seeds 1 and 2 can meet only in the final); the seats
past the last entrant are byes, so the best seeds skip the first round. Swiss plays a fixed number of
rounds; each pairs players on equal scores who haven't met (falling back to the nearest scores, and to a
rematch only when nothing else completes the round). An odd field gets a computer stand-in
(`STAND_IN`), which plays like an entrant but is never ranked.

Swiss ranks by points (a match won is 1), then the tie-breaks, in order:
1. Buchholz: the sum of the points of every opponent met;
2. Sonneborn-Berger: the sum of the points of every opponent beaten;
3. matches won (byes and forfeits included);
4. seed (the better rating at the start).

Everything here is ids and plain values; `Bracket.to_json`/`from_json` is how it is stored.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Literal

Format = Literal["single", "swiss"]
# How a match was decided: played out, a bye, a no-show, the host's choice, a disqualification.
How = Literal["played", "bye", "forfeit", "advanced", "disqualified"]

STAND_IN = 0  # the computer stand-in's id (Discord ids are never 0)
MOST_ENTRANTS = 64
FEWEST_ENTRANTS = 4
TIE_BREAKS = ("Buchholz", "Sonneborn-Berger", "matches won", "seed")
# Past this many steps, the search for a round without rematches gives up and pairs by rank.
PAIRING_STEPS = 50_000


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order for a power-of-two `size`: [1, 8, 4, 5, 2, 7, 3, 6]."""
    order = [1]
    while len(order) < size:
        total = len(order) * 2 + 1
        order = [seed for first in order for seed in (first, total - first)]
    return order


def elimination_rounds(entrants: int) -> int:
    """How many rounds a single elimination of `entrants` takes (byes included)."""
    return max(1, (entrants - 1).bit_length())


def swiss_rounds(entrants: int) -> int:
    """The usual Swiss length: enough rounds for one unbeaten player, ⌈log2 n⌉."""
    return elimination_rounds(entrants)


@dataclass
class Match:
    """One pairing of one round; `second` None is a bye. `games` lists the winners of the games played."""

    round: int
    number: int
    first: int
    second: int | None
    games: list[int] = field(default_factory=list)
    winner: int | None = None
    how: How | None = None
    decided: bool = False

    @property
    def key(self) -> str:
        return f"{self.round}-{self.number}"

    @property
    def players(self) -> tuple[int, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    @property
    def loser(self) -> int | None:
        if not self.decided or self.second is None:
            return None
        return next((p for p in self.players if p != self.winner), None)

    def wins_of(self, player: int) -> int:
        return sum(1 for winner in self.games if winner == player)


@dataclass(frozen=True)
class Standing:
    """One entrant's line: place, points and the tie-breaks, and their match record."""

    player: int
    place: int
    points: float
    buchholz: float
    sonneborn_berger: float
    won: int
    lost: int


@dataclass
class Bracket:
    """A running tournament's pairings and results: single elimination or Swiss over `rounds_total`."""

    format: Format
    best_of: int
    seeds: list[int]  # entrant ids, best rating first (the stand-in, if any, last)
    rounds_total: int
    rounds: list[list[Match]] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)  # disqualified entrants

    # ------------------------------------------------------------------ starting

    @classmethod
    def start(
        cls, format: Format, seeds: Sequence[int], best_of: int = 1, rounds: int | None = None
    ) -> Bracket:
        """The first round of a tournament of these entrants, in seed order."""
        if best_of not in (1, 3):
            raise ValueError("a match is one game or the best of three")
        players = list(seeds)
        if len(set(players)) != len(players) or STAND_IN in players:
            raise ValueError("entrants are distinct members")
        if format == "single":
            total = elimination_rounds(len(players))
        else:
            total = rounds if rounds is not None else swiss_rounds(len(players))
            if len(players) % 2:
                players.append(STAND_IN)
        bracket = cls(format, best_of, players, total)
        bracket.rounds.append(bracket._first_round())
        return bracket

    def _first_round(self) -> list[Match]:
        if self.format == "swiss":
            return self._swiss_round(1)
        size = 1 << elimination_rounds(len(self.seeds))
        order = bracket_order(size)
        matches = []
        for number, (a, b) in enumerate(zip(order[::2], order[1::2], strict=True), start=1):
            second = self.seeds[b - 1] if b <= len(self.seeds) else None
            matches.append(Match(1, number, self.seeds[a - 1], second))
        for match in matches:
            if match.second is None:
                self._decide(match, match.first, "bye")
        return matches

    # ------------------------------------------------------------------ reading

    @property
    def current(self) -> list[Match]:
        return self.rounds[-1]

    @property
    def finished(self) -> bool:
        return len(self.rounds) >= self.rounds_total and all(m.decided for m in self.current)

    @property
    def stand_in(self) -> bool:
        return STAND_IN in self.seeds

    def match(self, key: str) -> Match | None:
        return next((m for rnd in self.rounds for m in rnd if m.key == key), None)

    def open_matches(self) -> list[Match]:
        """The current round's matches still to be decided."""
        return [m for m in self.current if not m.decided]

    def match_of(self, player: int) -> Match | None:
        """The player's undecided match in the current round."""
        return next((m for m in self.open_matches() if player in m.players), None)

    def seed_of(self, player: int) -> int:
        return self.seeds.index(player) + 1

    # ------------------------------------------------------------------ results

    def record_game(self, key: str, winner: int) -> bool:
        """A game of match `key` was won by `winner`; True if that decided the match."""
        match = self.match(key)
        if match is None or match.decided or winner not in match.players:
            return False
        match.games.append(winner)
        if match.wins_of(winner) * 2 > self.best_of:
            self._decide(match, winner, "played")
            return True
        return False

    def decide(self, key: str, winner: int | None, how: How) -> bool:
        """Decide match `key` without (or before the end of) play; winner None: both forfeited (Swiss)."""
        match = self.match(key)
        if match is None or match.decided or (winner is not None and winner not in match.players):
            return False
        if winner is None and self.format == "single":
            raise ValueError("an elimination match always has someone who advances")
        self._decide(match, winner, how)
        return True

    def disqualify(self, player: int) -> Match | None:
        """Remove a player: their open match goes to the opponent, and they are paired no more."""
        if player not in self.seeds or player in self.removed:
            return None
        self.removed.append(player)
        match = self.match_of(player)
        if match is not None:
            other = next((p for p in match.players if p != player), None)
            self._decide(match, other, "disqualified")
        return match

    def _decide(self, match: Match, winner: int | None, how: How) -> None:
        match.winner, match.how, match.decided = winner, how, True

    def next_round(self) -> list[Match]:
        """Pair the next round once every match of this one is decided; [] if not yet (or the end)."""
        if self.finished or self.open_matches():
            return []
        number = len(self.rounds) + 1
        if self.format == "single":
            winners = [m.winner for m in self.current]
            matches = [
                Match(number, index + 1, a, b)
                for index, (a, b) in enumerate(zip(winners[::2], winners[1::2], strict=True))
                if a is not None and b is not None
            ]
            for match in matches:  # a disqualified winner of the last round gives a walkover
                out = [p for p in match.players if p in self.removed]
                if out:
                    stays = next((p for p in match.players if p not in out), match.first)
                    self._decide(match, stays, "disqualified")
        else:
            matches = self._swiss_round(number)
        self.rounds.append(matches)
        return matches

    # ------------------------------------------------------------------ Swiss

    def points(self) -> dict[int, float]:
        scored = dict.fromkeys(self.seeds, 0.0)
        for match in self._decided():
            if match.winner is not None:
                scored[match.winner] += 1
        return scored

    def _decided(self) -> Iterable[Match]:
        return (m for rnd in self.rounds for m in rnd if m.decided)

    def _swiss_round(self, number: int) -> list[Match]:
        active = [p for p in self.seeds if p not in self.removed and p != STAND_IN]
        if len(active) % 2:
            active.append(STAND_IN)
        met = {frozenset(m.players) for m in self._decided() if m.second is not None}
        pairs = swiss_pairs(active, self.points(), met)
        return [Match(number, index + 1, a, b) for index, (a, b) in enumerate(pairs)]

    # ------------------------------------------------------------------ placings

    def standings(self) -> list[Standing]:
        """Every entrant (not the stand-in), best first: Swiss by points and the tie-breaks, single
        elimination by the round reached (the final's winner first, then its loser, then the semi-final
        losers sharing third), then seed."""
        points = self.points()
        opponents: dict[int, list[int]] = {p: [] for p in self.seeds}
        beaten: dict[int, list[int]] = {p: [] for p in self.seeds}
        record = {p: [0, 0] for p in self.seeds}
        for match in self._decided():
            if match.second is not None:
                opponents[match.first].append(match.second)
                opponents[match.second].append(match.first)
            for player in match.players:
                record[player][0 if player == match.winner else 1] += 1
            if match.winner is not None and match.loser is not None:
                beaten[match.winner].append(match.loser)
        lines = []
        for player in self.seeds:
            if player == STAND_IN:
                continue
            lines.append(
                Standing(
                    player,
                    0,
                    points[player],
                    sum(points[o] for o in opponents[player]),
                    sum(points[o] for o in beaten[player]),
                    record[player][0],
                    record[player][1],
                )
            )
        if self.format == "swiss":
            lines.sort(
                key=lambda s: (-s.points, -s.buchholz, -s.sonneborn_berger, -s.won, self.seed_of(s.player))
            )
            return _placed(lines, key=lambda s: s.player)  # the seed settles every tie: no shared place
        reached = self._reached()
        lines.sort(key=lambda s: (-reached[s.player], self.seed_of(s.player)))
        return _placed(lines, key=lambda s: reached[s.player])

    def _reached(self) -> dict[int, int]:
        """How far each entrant went: the last round they were in, one more for the champion."""
        reached = dict.fromkeys(self.seeds, 0)
        for rnd in self.rounds:
            for match in rnd:
                for player in match.players:
                    reached[player] = match.round
        if self.finished and self.current and self.current[0].winner is not None:
            reached[self.current[0].winner] += 1
        for player in self.removed:
            reached[player] = min(reached[player], 0)
        return reached

    def champion(self) -> int | None:
        if not self.finished:
            return None
        placed = self.standings()
        return placed[0].player if placed else None

    # ------------------------------------------------------------------ storage

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Bracket:
        data = json.loads(text)
        rounds = [[Match(**m) for m in rnd] for rnd in data.pop("rounds")]
        return cls(**data, rounds=rounds)


def _placed(lines: list[Standing], key: Callable[[Standing], object]) -> list[Standing]:
    """Number the places of sorted lines; lines equal by `key` share one (two semi-final losers: 3rd)."""
    placed: list[Standing] = []
    for index, line in enumerate(lines):
        same = placed and key(placed[-1]) == key(line)
        place = placed[-1].place if same else index + 1
        placed.append(
            Standing(
                line.player, place, line.points, line.buchholz, line.sonneborn_berger, line.won, line.lost
            )
        )
    return placed


def swiss_pairs(
    players: Sequence[int], points: Mapping[int, float], met: set[frozenset[int]]
) -> list[tuple[int, int]]:
    """Pair an even list of players (in seed order): each with the best-placed player of the nearest
    score they haven't met; a rematch only when no pairing of the round avoids one (then simply by rank)."""
    ranked = sorted(players, key=lambda p: (-points.get(p, 0.0), players.index(p)))
    if len(ranked) % 2:
        raise ValueError("an odd number of players cannot be paired")
    found = _pair(ranked, met, [PAIRING_STEPS])
    return found if found is not None else list(zip(ranked[::2], ranked[1::2], strict=True))


def _pair(ranked: list[int], met: set[frozenset[int]], budget: list[int]) -> list[tuple[int, int]] | None:
    """Depth-first: the top unpaired player takes the first opponent down the list that lets the rest
    pair too. With scores sorted, that is the same score group first, then the next. None when no
    pairing avoids a rematch, or the search ran out of `budget` (steps, shared down the recursion)."""
    if not ranked:
        return []
    top, rest = ranked[0], ranked[1:]
    for index, other in enumerate(rest):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if frozenset((top, other)) in met:
            continue
        tail = _pair(rest[:index] + rest[index + 1 :], met, budget)
        if tail is not None:
            return [(top, other), *tail]
    return None
