"""Skill ratings for multiplayer placements, from the maintained `openskill` package."""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from bot.records import Rating

_MODEL = PlackettLuce()
DEFAULT_MU = _MODEL.mu
DEFAULT_SIGMA = _MODEL.sigma


def conservative(mu: float, sigma: float) -> float:
    """What the leaderboard sorts by: high only once the system is sure (mu − 3σ)."""
    return mu - 3 * sigma


def rate(players: Sequence[tuple[float, float]], placements: Sequence[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) for each player after one game; equal placements are ties."""
    teams = [[_MODEL.create_rating([mu, sigma])] for mu, sigma in players]
    rated = _MODEL.rate(teams, ranks=[float(p) for p in placements])
    return [(team[0].mu, team[0].sigma) for team in rated]


def rate_game(before: Sequence[Rating | None], placements: Sequence[int]) -> list[Rating]:
    """The `Rater` the bot records games with: a first game starts from the model's default."""
    start = [(r.mu, r.sigma) if r is not None else (DEFAULT_MU, DEFAULT_SIGMA) for r in before]
    return [Rating(mu, sigma, conservative(mu, sigma)) for mu, sigma in rate(start, placements)]
