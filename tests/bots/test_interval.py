"""The written-out Wilson interval against statsmodels' (which the sim extra installs)."""

from __future__ import annotations

import pytest

from dragonlair.bots.interval import wilson_interval


@pytest.mark.parametrize(
    ("successes", "trials"),
    [(0, 1), (1, 1), (0, 10), (10, 10), (3, 10), (7.5, 20), (50, 100), (1, 1000), (999, 1000)],
)
def test_wilson_matches_statsmodels(successes: float, trials: int) -> None:
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    low, high = proportion.proportion_confint(successes, trials, alpha=0.05, method="wilson")
    mine = wilson_interval(successes, trials)
    assert mine == pytest.approx((max(0.0, low), min(1.0, high)), abs=1e-12)


def test_wilson_known_values() -> None:
    # 3 of 10: the textbook interval [0.1078, 0.6032]
    low, high = wilson_interval(3, 10)
    assert low == pytest.approx(0.10779, abs=1e-4) and high == pytest.approx(0.60323, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(0, 5)
    assert low == 0.0 and 0 < high < 1
