"""Conceding: what a concession does to a table's result, in one place.

None of the four rulebooks says what happens when a player gives up, and each game needs
every seat to the end (Space Race and Space Dragons pass hands around the table, Dragon
Stripes and The Great Dragon Race take turns in order), so the server keeps the game whole
and the concession decides only the conceding player's place:

- **The conceding seat ranks last.** Its player has lost, whatever its points at the end.
  Several conceding seats rank below every seat still playing, the earliest concession
  last.
- **The game ends when at most one seat has not conceded** (a two-player game: at once,
  and the other player wins). The result then has no points to count: every seat's
  points are 0 and its ``termination`` is ``"conceded"``.
- **Otherwise the game goes on.** The conceding seat is played to the end by the table's
  takeover bot (the game's heuristic bot where the table has none, else its random bot),
  and its person can no longer act there. The others' ranks are the game's own, moved up
  past the conceding seats.
- **Rated tables:** a concession counts as a loss (the rank above), except before
  :data:`RATED_AFTER` moves: a game given up right after the start tells nothing of
  anyone's strength and could be used to hand a friend wins, so it is not rated at all
  (the result says ``"unrated"`` and why). Games between the same accounts are limited by
  the ratings' anti-farming rule (:mod:`dragonlair.web.ratings`) whether conceded or not.

A table's ``conceded`` is the seats that conceded, each with the move it conceded at
(stored in ``dl_seats.conceded``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.result import competition_ranks

RATED_AFTER = 10  # a concession before this many moves leaves the game unrated

# the bot that plays a conceding seat when the table has no takeover bot (the first the
# game has)
STAND_INS = ("heuristic", "random")


def order(conceded: Mapping[int, int]) -> list[int]:
    """The conceding seats, earliest concession first."""
    return sorted(conceded, key=lambda s: (conceded[s], s))


def ends(players: int, conceded: Mapping[int, int]) -> bool:
    """Whether the game is over once these seats have conceded."""
    return players - len(conceded) <= 1


def ended(players: int, conceded: Mapping[int, int]) -> dict[str, Any]:
    """The result of a game ended by concession: the seat still playing wins
    (if one is), the conceding seats after it, the latest concession first."""
    last = order(conceded)[::-1]
    playing = [s for s in range(players) if s not in conceded]
    ranks = [0] * players
    for place, seat in enumerate(playing + last, 1):
        ranks[seat] = place
    who = ", ".join(f"seat {s}" for s in order(conceded))
    return _marked(
        {
            "points": [0] * players,
            "ranks": ranks,
            "winners": playing,
            "breakdown": [{} for _ in range(players)],
            "reason": f"{who} conceded",
            "termination": "conceded",
        },
        conceded,
    )


def adjusted(result: Mapping[str, Any], conceded: Mapping[int, int]) -> dict[str, Any]:
    """A game's own result (``Result.to_dict()``) with the conceding seats ranked last; a
    result without concessions is returned as it is."""
    out = dict(result)
    if not conceded:
        return out
    players = len(result["ranks"])
    playing = [s for s in range(players) if s not in conceded]
    # the game's ranks among the seats still playing (ties stay ties), then the others
    keys = [-int(result["ranks"][s]) for s in playing]
    ranks = [0] * players
    for seat, rank in zip(playing, competition_ranks(keys), strict=True):
        ranks[seat] = rank
    for place, seat in enumerate(order(conceded)[::-1], len(playing) + 1):
        ranks[seat] = place
    out["ranks"] = ranks
    out["winners"] = [s for s in range(players) if ranks[s] == 1]
    return _marked(out, conceded)


def _marked(result: dict[str, Any], conceded: Mapping[int, int]) -> dict[str, Any]:
    result["conceded"] = [[s, conceded[s]] for s in order(conceded)]
    first = min(conceded.values())
    if first < RATED_AFTER:
        result["unrated"] = (
            f"conceded at move {first}, before move {RATED_AFTER}: a game given up this "
            "early is not rated"
        )
    return result
