"""Every bench reads p50 and p99 one way: the nearest rank, in any order given, NaN for nothing."""

from __future__ import annotations

import math

import pytest
from percentile import percentile


@pytest.mark.parametrize(
    ("values", "share", "expected"),
    [
        (list(range(1, 101)), 0.5, 51),
        (list(range(100, 0, -1)), 0.99, 100),
        ([3.0, 1.0, 2.0], 0.0, 1.0),
        ([3.0, 1.0, 2.0], 1.0, 3.0),
        ([7.0], 0.99, 7.0),
    ],
)
def test_the_nearest_rank(values: list[float], share: float, expected: float) -> None:
    assert percentile(values, share) == expected


def test_no_values_read_as_not_a_number() -> None:
    assert math.isnan(percentile([], 0.99))
