"""End scoring, as the rulebook's "Scoring" and "The Space Cards" and RULINGS.md have it.

Every face-up card scores its corner VP. On top of that (the numbers are the data file's
``scoring`` object, :class:`~.cards.ScoringValues`; the printed game's in brackets):

- Robot Parts: ``robot_bonus`` (+3) per complete robot, min(heads, bodies, legs).
- Crystals: ``crystal_set_bonus`` (+9) per set of ``crystal_set`` (4).
- Power Sources: ``power_match_bonus`` (+2) for each top Scanner, top Robot Part and top
  Crystal whose colour matches the top Power Source of each of the two stacks (cockpit,
  engine); with the option ``every_power_source``, every Power Source in both stacks
  matches instead.
- Loot Carriers: most ``loot_most`` (+6), second most ``loot_second`` (+2), by dense
  ranking; ties all score.
- Alien Drones: ``drone_per_fewer`` (+3) for each player with strictly fewer.
- Most Fuel ``most_fuel`` (+5), most Crew ``most_crew`` (+5); ties all score.
- Damage cards score their negative VP.

A player with none of a kind wins no majority for it. The breakdown has one line per category
in this order, the same lines for every seat. Face-down Fuel cards score nothing but their
count, so a ship's fuel stack is only ever counted here (its card ids are not read).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

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
    CardTables,
)

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


def loot_award(mine: int, counts: Sequence[int], t: CardTables) -> int:
    """The Loot Carrier majority award of a seat with ``mine`` Loot Carriers, ``counts``
    being every seat's (its own included): most ``loot_most``, second most
    ``loot_second``, by dense ranking."""
    if not mine:
        return 0
    most = second = 0
    for c in counts:
        if c > most:
            most, second = c, most
        elif most > c > second:
            second = c
    sc = t.scoring
    return sc.loot_most if mine == most else sc.loot_second if mine == second else 0


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
    sc = t.scoring
    loot_awards = (0, sc.loot_most, sc.loot_second)  # by majority place: none, most, second
    out = []
    for seat, ship in enumerate(ships):
        # corner VP of each face-up stack (cards.STACKS order; Fuel is face down)
        corner = [0] * S_FUEL
        for k in range(S_FUEL):
            v = 0
            for c in ship[k]:
                v += vp[c]
            corner[k] = v
        parts = [0, 0, 0]
        for c in ship[S_ROBOT]:
            parts[part[c]] += 1
        fewer = 0
        mine = drones[seat]
        for d in drones:
            if d < mine:
                fewer += 1
        damage = 0
        for c in ship[S_DAMAGE]:
            damage += damage_vp[c]
        out.append(
            {
                "scanners": corner[S_SCANNER],
                "robot parts": corner[S_ROBOT],
                "complete robots": sc.robot_bonus * min(parts),
                "crystals": corner[S_CRYSTAL],
                "crystal sets": sc.crystal_set_bonus * (len(ship[S_CRYSTAL]) // sc.crystal_set),
                "power sources": corner[S_POWER_COCKPIT] + corner[S_POWER_ENGINE],
                "colour bonus": colour_bonus(ship, t, every_power_source),
                "loot carriers": corner[S_LOOT] + loot_awards[loot[seat]],
                "alien drones": corner[S_DRONE] + sc.drone_per_fewer * fewer,
                "fuel": sc.most_fuel if fuel[seat] == 1 else 0,
                "crew": corner[S_CREW] + (sc.most_crew if crew[seat] == 1 else 0),
                "damage": damage,
            }
        )
    return out


def colour_bonus(ship: Ship, t: CardTables, every_power_source: bool) -> int:
    """``power_match_bonus`` per top Scanner, Robot Part and Crystal matching each scoring
    Power Source."""
    return _colour_bonus_at(list(ship), 0, t, every_power_source)


def _colour_bonus_at(
    row: list[tuple[int, ...]], base: int, t: CardTables, every_power_source: bool
) -> int:
    """:func:`colour_bonus` of the ship whose stacks start at ``row[base]``."""
    if not (row[base + S_POWER_COCKPIT] or row[base + S_POWER_ENGINE]):
        return 0
    tops, sources = colour_sets(row, base, t, every_power_source)
    matches = 0
    for p in sources:
        matches += tops.count(p)
    return t.scoring.power_match_bonus * matches


def own_points(ship: Ship, t: CardTables, every_power_source: bool) -> int:
    """The part of a ship's total that depends on its own cards alone: the cards' VP,
    robots, Crystal sets, the colour bonus and Damage (the majorities and the Loot and
    Drone comparisons need the other ships)."""
    return _own_at(list(ship), 0, t, every_power_source)


def _own_at(row: list[tuple[int, ...]], base: int, t: CardTables, every_power_source: bool) -> int:
    """:func:`own_points` of the ship whose stacks start at ``row[base]``."""
    vp = t.vp
    total = 0
    for k in range(base, base + S_FUEL):  # the face-up stacks come before Fuel
        for c in row[k]:
            total += vp[c]
    robots = row[base + S_ROBOT]
    if len(robots) >= 3:
        part = t.part
        parts = [0, 0, 0]
        for c in robots:
            parts[part[c]] += 1
        total += t.scoring.robot_bonus * min(parts)
    sc = t.scoring
    total += sc.crystal_set_bonus * (len(row[base + S_CRYSTAL]) // sc.crystal_set)
    if row[base + S_POWER_COCKPIT] or row[base + S_POWER_ENGINE]:
        total += _colour_bonus_at(row, base, t, every_power_source)
    damage_vp = t.damage_vp
    for c in row[base + S_DAMAGE]:
        total += damage_vp[c]
    return total


def totals(ships: Sequence[Ship], t: CardTables, every_power_source: bool) -> list[int]:
    """Every seat's total, ``[sum(b.values()) for b in score_ships(...)]``, the counts the
    majorities compare taken once for all seats (a view's running scores)."""
    return row_totals([stack for ship in ships for stack in ship], t, every_power_source)


def row_totals(row: list[tuple[int, ...]], t: CardTables, every_power_source: bool) -> list[int]:
    """:func:`totals` of every ship's stacks in one flat row, ``row[s * NSTACK + k]``, as
    the state keeps them."""
    bases = range(0, len(row), NSTACK)
    loot = [len(row[b + S_LOOT]) for b in bases]
    drones = [len(row[b + S_DRONE]) for b in bases]
    most_fuel = max([len(row[b + S_FUEL]) for b in bases])
    most_crew = max([len(row[b + S_CREW]) for b in bases])
    sc = t.scoring
    out = []
    for seat, base in enumerate(bases):
        total = _own_at(row, base, t, every_power_source)
        if loot[seat]:
            total += loot_award(loot[seat], loot, t)
        mine = drones[seat]
        for d in drones:
            if d < mine:
                total += sc.drone_per_fewer
        fuel = len(row[base + S_FUEL])
        if fuel and fuel == most_fuel:
            total += sc.most_fuel
        crew = len(row[base + S_CREW])
        if crew and crew == most_crew:
            total += sc.most_crew
        out.append(total)
    return out


def seat_total(ships: Sequence[Ship], seat: int, t: CardTables, every_power_source: bool) -> int:
    """``sum(score_ships(ships, t, every_power_source)[seat].values())``, working out only
    what ``seat``'s total needs: its own cards and the other ships' counts."""
    ship = ships[seat]
    sc = t.scoring
    total = own_points(ship, t, every_power_source)
    loot = len(ship[S_LOOT])
    if loot:
        total += loot_award(loot, [len(s[S_LOOT]) for s in ships], t)
    drones = len(ship[S_DRONE])
    if drones:
        for s in ships:
            if len(s[S_DRONE]) < drones:
                total += sc.drone_per_fewer
    fuel = len(ship[S_FUEL])
    crew = len(ship[S_CREW])
    most_fuel = most_crew = True  # nobody holds more (ties all score)
    for s in ships:
        if len(s[S_FUEL]) > fuel:
            most_fuel = False
        if len(s[S_CREW]) > crew:
            most_crew = False
    if fuel and most_fuel:
        total += sc.most_fuel
    if crew and most_crew:
        total += sc.most_crew
    return total


class SeatGain:
    """How much one more card on one stack of ``seat``'s ship would change that seat's
    total (:func:`seat_total`), for a bot trying every candidate pick: the categories the
    stack takes part in are worked out again, and nothing else. ``row`` is every ship's
    stacks in one flat row, ``row[s * NSTACK + k]``, as the state and the typed view keep
    them. What a gain needs of the other ships (their counts) is read when a gain first
    needs it. The heuristic's picks write the same arithmetic out in one loop, and its
    bids take :meth:`bid_totals`; the tests hold both to this class and this class to
    :func:`seat_total`."""

    __slots__ = (
        "_base",
        "_eps",
        "_powered",
        "_rival_crew",
        "_rival_fuel",
        "_row",
        "_seat",
        "_sources",
        "_t",
        "_tops",
        "_without",
    )

    def __init__(
        self, row: Sequence[tuple[int, ...]], seat: int, t: CardTables, every_power_source: bool
    ) -> None:
        base = seat * NSTACK
        self._row = row
        self._base = base
        self._seat = seat
        self._t = t
        self._eps = every_power_source
        # with no Power Source yet, only one on a power stack can score a colour bonus
        self._powered = bool(row[base + S_POWER_COCKPIT] or row[base + S_POWER_ENGINE])
        # the colours of the top Scanner, Robot Part and Crystal, and of the Power Sources
        # that score (see colour_bonus): worked out when a gain first needs them
        self._tops: list[int] | None = None
        self._sources: list[int] = []
        self._rival_fuel = self._rival_crew = -1  # the most any rival holds; -1: not yet
        self._without: dict[int, int] | None = None  # seat_total with Fuel or Crew emptied

    def _rival(self, stack: int) -> int:
        """The most cards any other seat holds on ``stack`` (Fuel or Crew)."""
        most = 0
        row = self._row
        mine = self._base + stack
        for i in range(stack, len(row), NSTACK):
            if i != mine and len(row[i]) > most:
                most = len(row[i])
        return most

    def gain(self, stack: int, card: int) -> int:
        """``seat_total`` with ``card`` added on top of ``stack``, less ``seat_total`` now."""
        t = self._t
        sc = t.scoring
        row = self._row
        mine = self._base + stack
        old = row[mine]
        n = len(old)
        if stack == S_FUEL:
            rival = self._rival_fuel
            if rival < 0:
                rival = self._rival_fuel = self._rival(S_FUEL)
            return sc.most_fuel * ((n + 1 >= rival) - (bool(n) and n >= rival))
        if stack == S_CREW:
            rival = self._rival_crew
            if rival < 0:
                rival = self._rival_crew = self._rival(S_CREW)
            return sc.most_crew * ((n + 1 >= rival) - (bool(n) and n >= rival)) + t.vp[card]
        if stack == S_DAMAGE:
            return t.damage_vp[card]
        out = t.vp[card]
        if stack == S_ROBOT:
            part = t.part
            parts = [0, 0, 0]
            for c in old:
                parts[part[c]] += 1
            before = min(parts)
            parts[part[card]] += 1
            out += sc.robot_bonus * (min(parts) - before)
        elif stack == S_CRYSTAL:
            out += sc.crystal_set_bonus * ((n + 1) // sc.crystal_set - n // sc.crystal_set)
        elif stack == S_LOOT:
            counts = [len(row[i]) for i in range(S_LOOT, len(row), NSTACK)]
            out -= loot_award(n, counts, t)
            counts[self._seat] = n + 1
            out += loot_award(n + 1, counts, t)
        elif stack == S_DRONE:
            for i in range(S_DRONE, len(row), NSTACK):
                if i != mine and len(row[i]) == n:
                    out += sc.drone_per_fewer  # a rival level with it now has fewer
        if stack in COLOUR_STACKS and (self._powered or stack in POWER_STACKS):
            out += self._colour_gain(stack, card)
        return out

    def _colour_gain(self, stack: int, card: int) -> int:
        """What ``card`` on top of ``stack`` changes in :func:`colour_bonus`."""
        if self._tops is None:
            self._tops, self._sources = colour_sets(self._row, self._base, self._t, self._eps)
        return colour_gain(
            self._tops,
            self._sources,
            self._row[self._base + stack],
            stack,
            card,
            self._t,
            self._eps,
        )

    def total_with(self, stack: int, cards: tuple[int, ...]) -> int:
        """``seat_total`` with ``seat``'s Fuel or Crew stack replaced by ``cards`` (what a
        bid leaves): the rest of the total is worked out once per stack."""
        rival, bonus = self._majority(stack)
        rest = self._rest(stack)
        if stack == S_CREW:
            vp = self._t.vp
            for c in cards:
                rest += vp[c]
        n = len(cards)
        return rest + (bonus if n and n >= rival else 0)

    def bid_totals(self, stack: int) -> list[int]:
        """``total_with(stack, mine[b:])`` for every bid ``b`` from 0 to all of ``seat``'s
        Fuel or Crew stack ``mine``, in that order."""
        rival, bonus = self._majority(stack)
        rest = self._rest(stack)
        cards = self._row[self._base + stack]
        out = [rest] * (len(cards) + 1)  # a bid of all of them keeps nothing
        # the cards a bid of b keeps are cards[b:]: from the largest bid down, one more each
        vp = self._t.vp
        kept = 0
        for b in range(len(cards) - 1, -1, -1):
            if stack == S_CREW:
                kept += vp[cards[b]]
            out[b] = rest + kept + (bonus if len(cards) - b >= rival else 0)
        return out

    def _majority(self, stack: int) -> tuple[int, int]:
        """The most any rival holds on the Fuel or Crew ``stack``, and its majority's VP."""
        if stack == S_FUEL:
            rival = self._rival_fuel
            if rival < 0:
                rival = self._rival_fuel = self._rival(S_FUEL)
            return rival, self._t.scoring.most_fuel
        if stack == S_CREW:
            rival = self._rival_crew
            if rival < 0:
                rival = self._rival_crew = self._rival(S_CREW)
            return rival, self._t.scoring.most_crew
        raise ValueError(f"only a Fuel or Crew stack is bid from, not stack {stack}")

    def _rest(self, stack: int) -> int:
        """``seat_total`` with ``seat``'s ``stack`` emptied, worked out once per stack."""
        without = self._without
        if without is None:
            without = self._without = {}
        rest = without.get(stack)
        if rest is None:
            row = self._row
            ships = [list(row[i : i + NSTACK]) for i in range(0, len(row), NSTACK)]
            ships[self._seat][stack] = ()
            rest = without[stack] = seat_total(ships, self._seat, self._t, self._eps)
        return rest


# the stacks whose top card (or Power Sources) the colour bonus reads, and the power stacks
COLOUR_STACKS: Final = frozenset((S_SCANNER, S_ROBOT, S_CRYSTAL, S_POWER_COCKPIT, S_POWER_ENGINE))
POWER_STACKS: Final = frozenset((S_POWER_COCKPIT, S_POWER_ENGINE))


def colour_sets(
    row: Sequence[tuple[int, ...]], base: int, t: CardTables, every_power_source: bool
) -> tuple[list[int], list[int]]:
    """The colours of the top Scanner, Robot Part and Crystal of the ship at ``base`` of
    the flat ``row``, and of its Power Sources that score (see :func:`colour_bonus`)."""
    colour = t.colour
    tops = []
    for k in (S_SCANNER, S_ROBOT, S_CRYSTAL):
        if row[base + k]:
            tops.append(colour[row[base + k][-1]])
    cockpit, engine = row[base + S_POWER_COCKPIT], row[base + S_POWER_ENGINE]
    sources = cockpit + engine if every_power_source else cockpit[-1:] + engine[-1:]
    return tops, [colour[p] for p in sources]


def colour_gain(
    tops: list[int],
    sources: list[int],
    old: tuple[int, ...],
    stack: int,
    card: int,
    t: CardTables,
    every_power_source: bool,
) -> int:
    """What ``card`` on top of ``stack`` (holding ``old``) changes in :func:`colour_bonus`,
    given the ship's :func:`colour_sets`: it covers the stack's top card, or joins the
    Power Sources that score."""
    colour = t.colour
    c = colour[card]
    if stack in POWER_STACKS:
        matches = tops.count(c)
        if old and not every_power_source:
            matches -= tops.count(colour[old[-1]])
    else:
        matches = sources.count(c)
        if old:
            matches -= sources.count(colour[old[-1]])
    return t.scoring.power_match_bonus * matches
