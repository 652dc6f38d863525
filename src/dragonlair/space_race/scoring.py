"""End scoring, as the rulebook's "Scoring" and "The Space Cards" and RULINGS.md have it.

Every face-up card scores its corner VP. On top of that:

- Robot Parts: +3 per complete robot, min(heads, bodies, legs).
- Crystals: +9 per set of four, floor(crystals / 4).
- Power Sources: +2 for each top Scanner, top Robot Part and top Crystal whose colour matches
  the top Power Source of each of the two stacks (cockpit, engine); with the option
  ``every_power_source``, every Power Source in both stacks matches instead.
- Loot Carriers: most +6, second most +2, by dense ranking; ties all score.
- Alien Drones: +3 for each player with strictly fewer.
- Most Fuel +5, most Crew +5; ties all score.
- Damage cards score their negative VP.

A player with none of a kind wins no majority for it. The breakdown has one line per category
in this order, the same lines for every seat. Face-down Fuel cards score nothing but their
count, so a ship's fuel stack is only ever counted here (its card ids are not read).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .cards import (
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
    CardTables,
)

ROBOT_BONUS: Final = 3
CRYSTAL_SET: Final = 4
CRYSTAL_SET_BONUS: Final = 9
POWER_MATCH_BONUS: Final = 2
LOOT_MOST: Final = 6
LOOT_SECOND: Final = 2
DRONE_PER_FEWER: Final = 3
MOST_FUEL: Final = 5
MOST_CREW: Final = 5

CATEGORIES: Final = (
    "scanners",
    "robot parts",
    "complete robots",
    "crystals",
    "crystal sets",
    "power sources",
    "colour bonus",
    "loot carriers",
    "alien drones",
    "fuel",
    "crew",
    "damage",
)

Ship = Sequence[tuple[int, ...]]
_LOOT_AWARD: Final = (0, LOOT_MOST, LOOT_SECOND)  # by majority place: none, most, second


def majority_places(counts: Sequence[int]) -> list[int]:
    """1 for the most, 2 for the second most (dense ranking), 0 otherwise; a count of zero
    never places."""
    most = second = 0
    for c in counts:
        if c > most:
            most, second = c, most
        elif most > c > second:
            second = c
    place = {most: 1, second: 2, 0: 0}
    return [place.get(c, 0) for c in counts]


def loot_award(mine: int, counts: Sequence[int]) -> int:
    """The Loot Carrier majority award of a seat with ``mine`` Loot Carriers, ``counts``
    being every seat's (its own included): most 6, second most 2, by dense ranking."""
    if not mine:
        return 0
    most = second = 0
    for c in counts:
        if c > most:
            most, second = c, most
        elif most > c > second:
            second = c
    return LOOT_MOST if mine == most else LOOT_SECOND if mine == second else 0


def score_ships(
    ships: Sequence[Ship], t: CardTables, every_power_source: bool
) -> list[dict[str, int]]:
    """The scoring breakdown of every seat (label -> points, in CATEGORIES order)."""
    vp = t.vp
    part = t.part
    damage_vp = t.damage_vp
    loot = majority_places([len(s[S_LOOT]) for s in ships])
    fuel = majority_places([len(s[S_FUEL]) for s in ships])
    crew = majority_places([len(s[S_CREW]) for s in ships])
    drones = [len(s[S_DRONE]) for s in ships]
    out = []
    for seat, ship in enumerate(ships):
        # corner VP of each face-up stack (cards.STACKS order; Fuel is face down)
        corner = [0] * S_FUEL
        for k in range(S_FUEL):
            for c in ship[k]:
                corner[k] += vp[c]
        parts = [0, 0, 0]
        for c in ship[S_ROBOT]:
            parts[part[c]] += 1
        fewer = 0
        for d in drones:
            if d < drones[seat]:
                fewer += 1
        damage = 0
        for c in ship[S_DAMAGE]:
            damage += damage_vp[c]
        out.append(
            {
                "scanners": corner[S_SCANNER],
                "robot parts": corner[S_ROBOT],
                "complete robots": ROBOT_BONUS * min(parts),
                "crystals": corner[S_CRYSTAL],
                "crystal sets": CRYSTAL_SET_BONUS * (len(ship[S_CRYSTAL]) // CRYSTAL_SET),
                "power sources": corner[S_POWER_COCKPIT] + corner[S_POWER_ENGINE],
                "colour bonus": colour_bonus(ship, t, every_power_source),
                "loot carriers": corner[S_LOOT] + _LOOT_AWARD[loot[seat]],
                "alien drones": corner[S_DRONE] + DRONE_PER_FEWER * fewer,
                "fuel": MOST_FUEL if fuel[seat] == 1 else 0,
                "crew": corner[S_CREW] + (MOST_CREW if crew[seat] == 1 else 0),
                "damage": damage,
            }
        )
    return out


def colour_bonus(ship: Ship, t: CardTables, every_power_source: bool) -> int:
    """+2 per top Scanner, Robot Part and Crystal matching each scoring Power Source."""
    cockpit, engine = ship[S_POWER_COCKPIT], ship[S_POWER_ENGINE]
    if not (cockpit or engine):
        return 0
    colour = t.colour
    tops = []
    for stack in (ship[S_SCANNER], ship[S_ROBOT], ship[S_CRYSTAL]):
        if stack:
            tops.append(colour[stack[-1]])
    sources = cockpit + engine if every_power_source else cockpit[-1:] + engine[-1:]
    matches = 0
    for p in sources:
        matches += tops.count(colour[p])
    return POWER_MATCH_BONUS * matches


def own_points(ship: Ship, t: CardTables, every_power_source: bool) -> int:
    """The part of a ship's total that depends on its own cards alone: the cards' VP,
    robots, Crystal sets, the colour bonus and Damage (the majorities and the Loot and
    Drone comparisons need the other ships)."""
    vp = t.vp
    total = 0
    for k in range(S_FUEL):
        for c in ship[k]:
            total += vp[c]
    robots = ship[S_ROBOT]
    if len(robots) >= 3:
        part = t.part
        parts = [0, 0, 0]
        for c in robots:
            parts[part[c]] += 1
        total += ROBOT_BONUS * min(parts)
    total += CRYSTAL_SET_BONUS * (len(ship[S_CRYSTAL]) // CRYSTAL_SET)
    if ship[S_POWER_COCKPIT] or ship[S_POWER_ENGINE]:
        total += colour_bonus(ship, t, every_power_source)
    damage_vp = t.damage_vp
    for c in ship[S_DAMAGE]:
        total += damage_vp[c]
    return total


def totals(ships: Sequence[Ship], t: CardTables, every_power_source: bool) -> list[int]:
    """Every seat's total, ``[sum(b.values()) for b in score_ships(...)]``, the counts the
    majorities compare taken once for all seats (a view's running scores)."""
    loot = [len(s[S_LOOT]) for s in ships]
    drones = [len(s[S_DRONE]) for s in ships]
    most_fuel = max([len(s[S_FUEL]) for s in ships])
    most_crew = max([len(s[S_CREW]) for s in ships])
    out = []
    for seat, ship in enumerate(ships):
        total = own_points(ship, t, every_power_source)
        if loot[seat]:
            total += loot_award(loot[seat], loot)
        mine = drones[seat]
        for d in drones:
            if d < mine:
                total += DRONE_PER_FEWER
        fuel = len(ship[S_FUEL])
        if fuel and fuel == most_fuel:
            total += MOST_FUEL
        crew = len(ship[S_CREW])
        if crew and crew == most_crew:
            total += MOST_CREW
        out.append(total)
    return out


def seat_total(ships: Sequence[Ship], seat: int, t: CardTables, every_power_source: bool) -> int:
    """``sum(score_ships(ships, t, every_power_source)[seat].values())``, working out only
    what ``seat``'s total needs: its own cards and the other ships' counts."""
    ship = ships[seat]
    total = own_points(ship, t, every_power_source)
    loot = len(ship[S_LOOT])
    if loot:
        total += loot_award(loot, [len(s[S_LOOT]) for s in ships])
    drones = len(ship[S_DRONE])
    if drones:
        for s in ships:
            if len(s[S_DRONE]) < drones:
                total += DRONE_PER_FEWER
    fuel = len(ship[S_FUEL])
    if fuel and all(len(s[S_FUEL]) <= fuel for s in ships):
        total += MOST_FUEL
    crew = len(ship[S_CREW])
    if crew and all(len(s[S_CREW]) <= crew for s in ships):
        total += MOST_CREW
    return total


class SeatGain:
    """How much one more card on one stack of ``seat``'s ship would change that seat's
    total (:func:`seat_total`), for a bot trying every candidate pick: the categories the
    stack takes part in are worked out again, and nothing else. What a gain needs of the
    other ships (their counts) is read when a gain first needs it."""

    __slots__ = (
        "_eps",
        "_powered",
        "_rival_crew",
        "_rival_fuel",
        "_seat",
        "_ship",
        "_ships",
        "_sources",
        "_t",
        "_tops",
        "_without",
    )

    def __init__(
        self, ships: Sequence[Ship], seat: int, t: CardTables, every_power_source: bool
    ) -> None:
        ship = ships[seat]
        self._ships = ships
        self._ship = ship
        self._seat = seat
        self._t = t
        self._eps = every_power_source
        # with no Power Source yet, only one on a power stack can score a colour bonus
        self._powered = bool(ship[S_POWER_COCKPIT] or ship[S_POWER_ENGINE])
        # the colours of the top Scanner, Robot Part and Crystal, and of the Power Sources
        # that score (see colour_bonus): worked out when a gain first needs them
        self._tops: list[int] | None = None
        self._sources: list[int] = []
        self._rival_fuel = self._rival_crew = -1  # the most any rival holds; -1: not yet
        self._without: dict[int, int] = {}  # seat_total with a Fuel or Crew stack emptied

    def _rival(self, stack: int) -> int:
        """The most cards any other seat holds on ``stack`` (Fuel or Crew)."""
        most = 0
        seat = self._seat
        for i, s in enumerate(self._ships):
            if i != seat and len(s[stack]) > most:
                most = len(s[stack])
        return most

    def gain(self, stack: int, card: int) -> int:
        """``seat_total`` with ``card`` added on top of ``stack``, less ``seat_total`` now."""
        t = self._t
        ship = self._ship
        old = ship[stack]
        n = len(old)
        if stack == S_DAMAGE:
            return t.damage_vp[card]
        if stack == S_FUEL:
            rival = self._rival_fuel
            if rival < 0:
                rival = self._rival_fuel = self._rival(S_FUEL)
            return MOST_FUEL * ((n + 1 >= rival) - (bool(n) and n >= rival))
        if stack == S_CREW:
            rival = self._rival_crew
            if rival < 0:
                rival = self._rival_crew = self._rival(S_CREW)
            return MOST_CREW * ((n + 1 >= rival) - (bool(n) and n >= rival)) + t.vp[card]
        out = t.vp[card]
        if stack == S_ROBOT:
            part = t.part
            parts = [0, 0, 0]
            for c in old:
                parts[part[c]] += 1
            before = min(parts)
            parts[part[card]] += 1
            out += ROBOT_BONUS * (min(parts) - before)
        elif stack == S_CRYSTAL:
            out += CRYSTAL_SET_BONUS * ((n + 1) // CRYSTAL_SET - n // CRYSTAL_SET)
        elif stack == S_LOOT:
            counts = [len(s[S_LOOT]) for s in self._ships]
            out -= loot_award(n, counts)
            counts[self._seat] = n + 1
            out += loot_award(n + 1, counts)
        elif stack == S_DRONE:
            seat = self._seat
            for s, other in enumerate(self._ships):
                if s != seat and len(other[S_DRONE]) == n:
                    out += DRONE_PER_FEWER  # a rival level with it now has fewer
        if stack in _COLOUR_STACKS and (self._powered or stack in _POWER_STACKS):
            out += self._colour_gain(stack, card)
        return out

    def _colour_gain(self, stack: int, card: int) -> int:
        """What ``card`` on top of ``stack`` changes in :func:`colour_bonus`: it covers
        the stack's top card, or joins the scoring Power Sources."""
        colour = self._t.colour
        ship = self._ship
        tops = self._tops
        if tops is None:
            tops = self._tops = []
            for k in (S_SCANNER, S_ROBOT, S_CRYSTAL):
                if ship[k]:
                    tops.append(colour[ship[k][-1]])
            cockpit, engine = ship[S_POWER_COCKPIT], ship[S_POWER_ENGINE]
            sources = cockpit + engine if self._eps else cockpit[-1:] + engine[-1:]
            self._sources = [colour[p] for p in sources]
        old = ship[stack]
        c = colour[card]
        if stack in _POWER_STACKS:
            matches = tops.count(c)
            if old and not self._eps:
                matches -= tops.count(colour[old[-1]])
        else:
            matches = self._sources.count(c)
            if old:
                matches -= self._sources.count(colour[old[-1]])
        return POWER_MATCH_BONUS * matches

    def total_with(self, stack: int, cards: tuple[int, ...]) -> int:
        """``seat_total`` with ``seat``'s Fuel or Crew stack replaced by ``cards`` (what a
        bid leaves): the rest of the total is worked out once per stack."""
        rest = self._without.get(stack)
        if rest is None:
            ship = list(self._ship)
            ship[stack] = ()
            ships = list(self._ships)
            ships[self._seat] = ship
            rest = self._without[stack] = seat_total(ships, self._seat, self._t, self._eps)
        n = len(cards)
        if stack == S_FUEL:
            rival = self._rival_fuel
            if rival < 0:
                rival = self._rival_fuel = self._rival(S_FUEL)
            return rest + (MOST_FUEL if n and n >= rival else 0)
        if stack != S_CREW:
            raise ValueError(f"only a Fuel or Crew stack is bid from, not stack {stack}")
        rival = self._rival_crew
        if rival < 0:
            rival = self._rival_crew = self._rival(S_CREW)
        vp = self._t.vp
        for c in cards:
            rest += vp[c]
        return rest + (MOST_CREW if n and n >= rival else 0)


_COLOUR_STACKS: Final = frozenset((S_SCANNER, S_ROBOT, S_CRYSTAL, S_POWER_COCKPIT, S_POWER_ENGINE))
_POWER_STACKS: Final = frozenset((S_POWER_COCKPIT, S_POWER_ENGINE))
