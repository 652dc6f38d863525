"""The 95% Wilson score interval of a proportion, written out (eight lines of arithmetic)
so that the hint and ``dragonlair.analyse`` work in the light install, which has no
statsmodels, and never pay for importing it. It agrees with statsmodels'
``proportion_confint(..., method="wilson")`` (tests/bots/test_interval.py)."""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile: a two-sided 95% interval


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (low, high) of ``successes`` out of ``trials`` (a share of
    a win counts as a fraction); (0, 1) when there are no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2n = z * z / trials
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(p * (1 - p) / trials + z2n / (4 * trials))
    return max(0.0, centre - half), min(1.0, centre + half)
