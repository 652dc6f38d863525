"""How much skill a game rewards: pairwise win probabilities among bots and their
Bradley-Terry ratings.

In a round robin every pair of bots meets in games of their own (the two bots alternating
round the table, seats rotated). A **meeting** is one pair of seats of a game held by the
two bots; the one finishing higher wins it, a tie counts half. The matrix gives, for
each ordered pair, the share of meetings the row bot won.

**Ratings.** The Bradley-Terry model says bot i wins a meeting with bot j with probability
1 / (1 + exp(s_j − s_i)). The strengths s are fitted by maximum likelihood over every
meeting (``scipy.optimize.minimize``, with s summing to zero), and shown on the Elo scale
(400 / ln 10 · s, so 400 points are 10-to-1 odds) with standard errors from the inverse
Hessian of the likelihood. The meetings within one game are not independent, so the
errors are somewhat optimistic; the ordering is what to read. A wide spread of ratings
among ISMCTS budgets (a budget ladder) means the game rewards thinking ahead; a flat one
means luck or simple play decide.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

ELO = 400 / math.log(10)


@dataclass(frozen=True)
class Rating:
    label: str
    rating: float  # Elo scale, mean 0
    se: float  # standard error on the same scale


def bradley_terry(
    labels: Sequence[str], won: Sequence[Sequence[float]], met: Sequence[Sequence[int]]
) -> list[Rating]:
    """Ratings from ``won[i][j]`` (meetings i won against j, ties half) and ``met[i][j]``."""
    import numpy as np
    from scipy.optimize import minimize

    k = len(labels)
    w = np.asarray(won, dtype=float)
    m = np.asarray(met, dtype=float)

    def nll(free: np.ndarray) -> float:
        s = np.append(free, -free.sum())
        d = s[:, None] - s[None, :]
        # meetings i won against j: w; lost: m - w; log p = -log(1 + e^{-d})
        return float((w * np.logaddexp(0, -d) + (m - w) * np.logaddexp(0, d)).sum() / 2)

    if k < 2:
        return [Rating(label, 0.0, 0.0) for label in labels]
    fit = minimize(nll, np.zeros(k - 1), method="BFGS")
    s = np.append(fit.x, -fit.x.sum())
    cov_free = np.asarray(fit.hess_inv)
    # the last strength is minus the sum of the others: propagate its variance
    full = np.zeros((k, k))
    full[: k - 1, : k - 1] = cov_free
    full[k - 1, : k - 1] = full[: k - 1, k - 1] = -cov_free.sum(axis=1)
    full[k - 1, k - 1] = cov_free.sum()
    se = np.sqrt(np.clip(np.diag(full), 0, None))
    return [Rating(labels[i], float(ELO * s[i]), float(ELO * se[i])) for i in range(k)]
