"""A seat's view of Space Race as JSON (``state.view(seat)``, which the wire and the checks
take), and the figures it shares with the typed view in view.py (see that
module's docstring for what each seat sees).

They were moved here from view.py when the typed views could not be compiled; both
modules are compiled now (docs/engine.md, "The compiled build"), and the JSON view and
the typed view keep to a module each.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, TypeAlias, cast

from .cards import (
    NSTACK,
    S_CREW,
    S_CRYSTAL,
    S_DAMAGE,
    S_DRONE,
    S_FUEL,
    S_LOOT,
    S_POWER_COCKPIT,
    S_POWER_ENGINE,
    S_ROBOT,
    S_SCANNER,
)
from .scoring import row_totals

if TYPE_CHECKING:
    from .rules import SpaceRace, SpaceRaceState
    from .view_types import ShipView

# The face-up stacks of a ship, shown card by card (Fuel is only counted).
OPEN: Final = tuple(k for k in range(NSTACK) if k != S_FUEL)

# SHIPS[n]: where each of n ships lies in the flat row of stacks (SpaceRaceState.ships)
SHIPS: Final = tuple(tuple(slice(s * NSTACK, (s + 1) * NSTACK) for s in range(n)) for n in range(9))


def ship(
    g: SpaceRace,
    s: int,
    stacks: list[tuple[int, ...]],
    fuel_cards: tuple[int, ...] | None,
    spent: int,
    spent_cards: tuple[int, ...] | None,
) -> dict[str, Any]:
    """Seat ``s``'s ship as the view shows it: ``stacks`` is the flat row of every ship's
    stacks (``stacks[s * NSTACK + k]``), the Fuel cards and spent Fuel cards are None but
    for the seat the view is for."""
    row = stacks[s * NSTACK : (s + 1) * NSTACK]
    parts = g.components
    out: ShipView = {  # its keys checked against the view's declaration
        "seat": s,
        "cockpit": parts.cockpits[s].faction,
        "engine": parts.engines[s].faction,
        "scanners": list(row[S_SCANNER]),
        "robot_parts": list(row[S_ROBOT]),
        "crystals": list(row[S_CRYSTAL]),
        "power_cockpit": list(row[S_POWER_COCKPIT]),
        "power_engine": list(row[S_POWER_ENGINE]),
        "alien_drones": list(row[S_DRONE]),
        "loot_carriers": list(row[S_LOOT]),
        "crew": list(row[S_CREW]),
        "damage": list(row[S_DAMAGE]),
        "fuel": len(row[S_FUEL]),
        "fuel_cards": list(fuel_cards) if fuel_cards is not None else None,
        "spent_fuel": spent,
        "spent_fuel_cards": list(spent_cards) if spent_cards is not None else None,
    }
    return cast(dict[str, Any], out)


def bidding(g: SpaceRace, danger: int) -> str | None:
    """What the Danger card up makes everyone bid ("fuel" or "crew"); None without one."""
    return ("fuel", "crew")[g.tables.danger_kind[danger]] if danger else None


def seen_top(n: int, seen: int) -> list[int]:
    """The seats that have seen the top Danger card (bit s of ``seen``)."""
    return [s for s in range(n) if seen >> s & 1]


def scores(g: SpaceRace, stacks: list[tuple[int, ...]]) -> list[int]:
    """Every seat's running score, from the flat row of every ship's stacks (Fuel is only
    counted, so unseen Fuel may be zeros)."""
    return row_totals(stacks, g.tables, g.every_power_source)


# The running scores of the rows of stacks scored last, by the row's identity: each entry
# holds the game, a copy of the row (its tuples, shared) and the scores, and serves only a
# row of the same game whose stacks are equal to the copy's (a list compare that meets the
# same tuples while the ships have not changed). Every seat sees every score, so an entry
# is the same for any seat; a state's clone or copy has a row of its own, and a row whose
# identity is reused serves only if its stacks are equal. In the drafting, ships change
# only when all picks are revealed, so most views find their scores here. The JSON view
# scores the state's own row; a typed view, which keeps no state, a public copy of it
# (every Fuel stack as zeros: scores count Fuel, never read it), by the identities of its
# stacks (the state's tuples, and the same tuples of zeros for every view), in a memory
# of its own.
SCORES_REMEMBERED: Final = 128
_Scored: TypeAlias = "dict[int, tuple[SpaceRace, list[tuple[int, ...]], list[int]]]"
_scored: Final[_Scored] = {}
_public_scored: Final[_Scored] = {}


def _remembered(memo: _Scored, key: int, g: SpaceRace, row: list[tuple[int, ...]]) -> list[int]:
    got = memo.get(key)
    if got is not None and got[0] is g and got[1] == row:
        return got[2].copy()
    out = scores(g, row)
    if got is None and len(memo) >= SCORES_REMEMBERED:
        # start afresh: one call, which no other thread's views can interrupt (taking the
        # oldest out would iterate over the dict while they may be adding to it)
        memo.clear()
    memo[key] = (g, row.copy(), out)
    return out.copy()


def running_scores(g: SpaceRace, row: list[tuple[int, ...]]) -> list[int]:
    """``scores(g, row)`` (a fresh list), remembered for the row (see above)."""
    return _remembered(_scored, id(row), g, row)


def public_scores(g: SpaceRace, key: int, row: list[tuple[int, ...]]) -> list[int]:
    """``scores(g, row)`` (a fresh list) of a public ``row`` (every Fuel stack as zeros),
    remembered by ``key``, worked out from its stacks' identities (see above)."""
    return _remembered(_public_scored, key, g, row)


def build_view(state: SpaceRaceState, seat: int | None, out: dict[str, Any]) -> None:
    """Add to ``out`` everything ``seat`` (None: a spectator) may know."""
    g = state.game
    n = g.players
    ships = state.ships
    spent = state.spent_fuel
    out["round"] = state.round
    out["rounds"] = g.rounds
    out["pick"] = state.pick
    out["direction"] = "left" if state.direction == 1 else "right"
    out["hand"] = list(state.hands[seat]) if seat is not None else None
    out["hand_sizes"] = [len(h) for h in state.hands]
    out["ships"] = [
        ship(g, s, ships, ships[s * NSTACK + S_FUEL], len(spent[s]), spent[s])
        if s == seat
        else ship(g, s, ships, None, len(spent[s]), None)
        for s in range(n)
    ]
    out["space_deck"] = len(state.space_deck)
    out["crew_discard"] = list(state.crew_discard)
    out["danger"] = state.danger or None
    out["bidding"] = bidding(g, state.danger)
    knows = seat is not None and bool(state.seen_top >> seat & 1)
    out["danger_top"] = state.danger_deck[-1] if knows else None
    out["seen_top_danger"] = seen_top(n, state.seen_top)
    out["danger_deck"] = len(state.danger_deck)
    out["danger_discard"] = list(state.danger_discard)
    out["damage_deck"] = len(state.damage_deck)
    out["damage_removed"] = list(state.damage_removed)
    out["last_bids"] = list(state.bids) if state.bids else None
    out["score"] = running_scores(g, ships)
