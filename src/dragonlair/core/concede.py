"""Conceding: what a concession does to a game's result, for every surface (the server's
tables, dragonlair.web.concede, and the terminal's, dragonlair.tui).

None of the four rulebooks says what happens when a player gives up, and each game needs
every seat to the end, so the game is kept whole and the concession decides only the
conceding player's place:

- **The conceding seat ranks last.** Its player has lost, whatever its points at the end.
  Several conceding seats rank below every seat still playing, the earliest concession
  last.
- **The game ends when at most one seat has not conceded** (a two-player game: at once,
  and the other player wins). The result then has no points to count: every seat's
  points are 0 and its ``termination`` is ``"conceded"``.
- **Otherwise the game goes on**, the conceding seat played to the end by a bot
  (:data:`STAND_INS`, the first the game has, where the table has no bot of its own for
  it). The others' ranks are the game's own, moved up past the conceding seats.

``conceded`` maps each conceding seat to the move it conceded at; a result marks them in
``"conceded"``: ``[[seat, move], ...]``, earliest first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .result import competition_ranks

# the bot that plays a conceding seat when the table has none for it (the first the game
# has)
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
    return marked(
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
    return marked(out, conceded)


def marked(result: dict[str, Any], conceded: Mapping[int, int]) -> dict[str, Any]:
    """``result`` with its conceding seats listed in ``"conceded"``."""
    result["conceded"] = [[s, conceded[s]] for s in order(conceded)]
    return result
