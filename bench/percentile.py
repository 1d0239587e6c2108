"""The one way every bench here reads a share of its measurements (p50, p99)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank value with `share` of the values below it; NaN for no values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else math.nan
