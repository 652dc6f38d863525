"""Conceding at the server's tables: the rules every surface shares are in
:mod:`dragonlair.core.concede` (this module adds what ratings need).

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

from ..core import concede as rules
from ..core.concede import STAND_INS, ends, order

__all__ = ["RATED_AFTER", "STAND_INS", "adjusted", "ended", "ends", "order"]

RATED_AFTER = 10  # a concession before this many moves leaves the game unrated


def ended(players: int, conceded: Mapping[int, int]) -> dict[str, Any]:
    """The result of a game ended by concession (:func:`dragonlair.core.concede.ended`),
    marked unrated when given up too early."""
    return _unrated(rules.ended(players, conceded), conceded)


def adjusted(result: Mapping[str, Any], conceded: Mapping[int, int]) -> dict[str, Any]:
    """A game's own result with the conceding seats ranked last
    (:func:`dragonlair.core.concede.adjusted`), marked unrated when given up too early."""
    out = rules.adjusted(result, conceded)
    return _unrated(out, conceded) if conceded else out


def _unrated(result: dict[str, Any], conceded: Mapping[int, int]) -> dict[str, Any]:
    first = min(conceded.values())
    if first < RATED_AFTER:
        result["unrated"] = (
            f"conceded at move {first}, before move {RATED_AFTER}: a game given up this "
            "early is not rated"
        )
    return result
