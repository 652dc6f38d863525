"""Final results and the ranking rules the games share."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Result:
    """Points per seat, ranks (1 = best; tied seats share a rank), the winners, and each
    seat's scoring breakdown (label → points, in the order the rulebook scores them)."""

    points: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    breakdown: tuple[Mapping[str, int], ...] = field(default_factory=tuple)
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "points": list(self.points),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "breakdown": [dict(b) for b in self.breakdown],
            "reason": self.reason,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Result:
        return cls(
            points=tuple(d["points"]),
            ranks=tuple(d["ranks"]),
            winners=tuple(d["winners"]),
            breakdown=tuple(dict(b) for b in d.get("breakdown", ())),
            reason=str(d.get("reason", "")),
        )


def competition_ranks(keys: Sequence[Any]) -> tuple[int, ...]:
    """Rank 1 for the greatest key; equal keys share a rank; the next rank skips ("1224")."""
    return tuple(1 + sum(1 for other in keys if other > k) for k in keys)


def dense_ranks(values: Sequence[int], highest_first: bool = True) -> tuple[int, ...]:
    """Dense ranking ("1223"): equal values share a rank and the next distinct value takes
    the next rank. Used where a rulebook says "second most" after a tie for most."""
    distinct = sorted(set(values), reverse=highest_first)
    place = {v: i + 1 for i, v in enumerate(distinct)}
    return tuple(place[v] for v in values)


def make_result(
    points: Sequence[int],
    tiebreak: Sequence[Any] | None = None,
    breakdown: Sequence[Mapping[str, int]] = (),
    reason: str = "",
) -> Result:
    """A result where the most points win, ties broken by ``tiebreak`` (greater is better);
    seats still tied share the rank, and share the win when they are first."""
    keys = [(p, tiebreak[i] if tiebreak is not None else 0) for i, p in enumerate(points)]
    ranks = competition_ranks(keys)
    winners = tuple(i for i, r in enumerate(ranks) if r == 1)
    return Result(tuple(points), ranks, winners, tuple(breakdown), reason)
