"""Skill ratings for multiplayer placements, from the maintained `openskill` package."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from bot.core.records import Rating

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

DEFAULT_MU = 25.0  # openskill's defaults, the model is built with them
DEFAULT_SIGMA = DEFAULT_MU / 3


@cache
def _model() -> PlackettLuce:
    # Imported at the first rated game, not at start-up: ~1 MB resident a bot may not need for hours.
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


FRIENDLY_BASE = 1000  # a new member's rating: openskill's ordinal is 0 before any game
FRIENDLY_STEP = 40  # rating points per unit of ordinal


def conservative(mu: float, sigma: float) -> float:
    """openskill's ordinal: high only once the system is sure (mu − 3σ); near 0 for a new member."""
    return mu - 3 * sigma


def friendly(mu: float, sigma: float) -> float:
    """What members see and boards sort by: 1,000 + 40 × ordinal, never below 0 (a first loss shows
    about 930, not openskill's "-1.8")."""
    return max(0.0, FRIENDLY_BASE + FRIENDLY_STEP * conservative(mu, sigma))


def rate(players: Sequence[tuple[float, float]], placements: Sequence[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) for each player after one game; equal placements are ties."""
    model = _model()
    teams = [[model.create_rating([mu, sigma])] for mu, sigma in players]
    rated = model.rate(teams, ranks=[float(p) for p in placements])
    return [(team[0].mu, team[0].sigma) for team in rated]


def rate_game(before: Sequence[Rating | None], placements: Sequence[int]) -> list[Rating]:
    """The `Rater` the bot records games with: a first game starts from the model's default."""
    start = [(r.mu, r.sigma) if r is not None else (DEFAULT_MU, DEFAULT_SIGMA) for r in before]
    return [Rating(mu, sigma, friendly(mu, sigma)) for mu, sigma in rate(start, placements)]
