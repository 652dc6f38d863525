"""Space Dragons components: crew cards, dragons and scoring cards, read from a data file.

The data file (``data/space_dragons.json``, or a user's own file through the ``data``
option) is checked entry by entry; anything wrong raises :class:`BadDataFile` naming the
file, the entry and what was expected. Its schema is documented in
``docs/rules/space-dragons.md``:

- ``crew``: exactly 80 cards in order, each ``{"number": n, "effects": [...], "symbols":
  {"science": s, "mood": m, "crime": c}, "points": p}``. ``effects`` lists the card's
  effect symbols (``shield``, ``tool``, ``damage``, ``crosshair``; at most 3) in the order
  they resolve; a card with two shields lists ``"shield"`` twice.
- ``dragons``: exactly 20 dragons in order, each ``{"id": n, "points": 8..12, "symbols":
  {...}}``.
- ``hand_size``: the cards dealt to each player, which are the picks of Hiring Crew (9);
  ``rounds``: the rounds of the Dragon Hunt, which are the dragons in the lair (7), at
  most ``hand_size`` (a player plays one hired card a round).
- ``scoring``: for each of ``science``, ``mood`` and ``crime``, sides ``a`` and ``b``, each
  a list of awards ``{"rank": "most" | "second most" | "fewest" | "second fewest",
  "points": n}`` with the points as printed (no sign: whether B sides are penalties or
  bonuses is the ``b_sides`` option).

:class:`Tables` turns the loaded components into flat tuples indexed by card number or
dragon id, which is all the rules look at during play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeAlias

from dragonlair.core.data import Checker, read_json
from dragonlair.core.errors import BadDataFile

CREW_CARDS: Final = 80
DRAGONS: Final = 20
# The largest hand a data file may deal: five players' hands and start-player draws come
# from the crew deck (5 x 16 = 80), and the lair (one dragon a round, at most one round
# per card in hand) and five spaceships from the dragons (15 + 5 = 20).
MAX_HAND: Final = 15
MAX_EFFECTS: Final = 3

Symbol: TypeAlias = Literal["science", "mood", "crime"]
Effect: TypeAlias = Literal["shield", "tool", "damage", "crosshair"]
Rank: TypeAlias = Literal["most", "second most", "fewest", "second fewest"]

SYMBOLS: Final[tuple[Symbol, ...]] = ("science", "mood", "crime")
EFFECTS: Final[tuple[Effect, ...]] = ("shield", "tool", "damage", "crosshair")
RANKS: Final[tuple[Rank, ...]] = ("most", "second most", "fewest", "second fewest")
SIDES: Final = ("a", "b")

# Immediate effects as small ints, in the tables the rules read.
SHIELD: Final = 0
TOOL: Final = 1
DAMAGE: Final = 2

# Symbol counts packed into one int (science | mood << 10 | crime << 20), so that a
# player's three totals are one sum over their cards.
PACK_BITS: Final = 10
PACK_MASK: Final = (1 << PACK_BITS) - 1


def pack(symbols: Sequence[int]) -> int:
    return sum(x << (PACK_BITS * k) for k, x in enumerate(symbols))


@dataclass(frozen=True)
class Crew:
    """A crew card: its number (1..80), effects in resolution order, scoring symbols
    (science, mood, crime) and plus/minus points."""

    number: int
    effects: tuple[Effect, ...]
    symbols: tuple[int, int, int]
    points: int

    @property
    def crosshairs(self) -> int:
        return self.effects.count("crosshair")

    def label(self) -> str:
        """``57 (crosshair, crosshair; crime 1; -1 pt)``."""
        return f"{self.number} ({_effects_text(self.effects)}; {_symbols_text(self.symbols)}; " + (
            f"{self.points:+d} pts)" if self.points else "0 pts)"
        )


@dataclass(frozen=True)
class Dragon:
    """A dragon card: its id (1..20), its point value and its scoring symbols."""

    id: int
    points: int
    symbols: tuple[int, int, int]

    def label(self) -> str:
        """``dragon (9 pts; mood 1)``: what its face shows (its id is printed nowhere)."""
        return f"dragon ({self.points} pts; {_symbols_text(self.symbols)})"


@dataclass(frozen=True)
class Award:
    """One line of a scoring card side: who qualifies and the points as printed."""

    rank: Rank
    points: int


@dataclass(frozen=True)
class ScoringCard:
    """A double-sided scoring card for one symbol; ``sides[0]`` is A, ``sides[1]`` is B."""

    symbol: Symbol
    sides: tuple[tuple[Award, ...], tuple[Award, ...]]


@dataclass(frozen=True)
class Components:
    """Everything printed on the cards, as loaded from one data file."""

    source: str
    crew: tuple[Crew, ...]
    dragons: tuple[Dragon, ...]
    scoring: tuple[ScoringCard, ScoringCard, ScoringCard]
    hand_size: int  # cards dealt to each player, and picks in Hiring Crew
    rounds: int  # rounds of the Dragon Hunt = dragons in the lair

    def card(self, number: int) -> Crew:
        return self.crew[number - 1]

    def dragon(self, dragon_id: int) -> Dragon:
        return self.dragons[dragon_id - 1]


def _effects_text(effects: Sequence[str]) -> str:
    return ", ".join(effects) if effects else "no effect"


def _symbols_text(symbols: Sequence[int]) -> str:
    parts = [f"{name} {n}" for name, n in zip(SYMBOLS, symbols, strict=True) if n]
    return ", ".join(parts) if parts else "no symbols"


# ---------------------------------------------------------------------------- loading

DATA_PACKAGE: Final = "dragonlair.space_dragons"
DATA_FILE: Final = "space_dragons.json"


def load_components(user_path: str | None = None) -> Components:
    """The components from the built-in data file, or from ``user_path``; BadDataFile
    names the file, the entry and what was expected when anything is wrong."""
    raw, name = read_json(DATA_PACKAGE, DATA_FILE, user_path, ("hand_size", "rounds"))
    return _Loader(name).components(raw)


class _Loader:
    def __init__(self, name: str) -> None:
        self.name = name
        self.c = Checker(name)

    def only(self, obj: Mapping[str, Any], keys: Sequence[str], where: str) -> None:
        """Refuse keys the schema does not have (a misspelt key would be silently lost)."""
        for k in obj:
            if k not in keys:
                raise BadDataFile(
                    f"{self.name}: {where}: unknown key {k!r}; expected only "
                    + ", ".join(repr(x) for x in keys)
                )

    def components(self, raw: object) -> Components:
        c = self.c
        top = c.obj(raw, "top level")
        self.only(top, ("about", "hand_size", "rounds", "crew", "dragons", "scoring"), "top level")
        if "about" in top:
            c.text(top["about"], "about")
        crew_raw = c.items(c.key(top, "crew", "top level"), "crew", CREW_CARDS)
        crew = tuple(self.crew(entry, i) for i, entry in enumerate(crew_raw))
        dragons_raw = c.items(c.key(top, "dragons", "top level"), "dragons", DRAGONS)
        dragons = tuple(self.dragon(entry, i) for i, entry in enumerate(dragons_raw))
        scoring_raw = c.obj(c.key(top, "scoring", "top level"), "scoring")
        self.only(scoring_raw, SYMBOLS, "scoring")
        science, mood, crime = (
            self.scoring_card(c.key(scoring_raw, s, "scoring"), s) for s in SYMBOLS
        )
        hand_size = c.integer(c.key(top, "hand_size", "top level"), "hand_size", 1, MAX_HAND)
        rounds = c.integer(c.key(top, "rounds", "top level"), "rounds", 1, hand_size)
        return Components(self.name, crew, dragons, (science, mood, crime), hand_size, rounds)

    def symbols(self, raw: object, where: str) -> tuple[int, int, int]:
        c = self.c
        obj = c.obj(raw, where)
        self.only(obj, SYMBOLS, where)
        science, mood, crime = (
            c.integer(c.key(obj, s, where), f"{where}.{s}", 0, 3) for s in SYMBOLS
        )
        return (science, mood, crime)

    def crew(self, raw: object, i: int) -> Crew:
        c = self.c
        where = f"crew[{i}]"
        obj = c.obj(raw, where)
        self.only(obj, ("number", "effects", "symbols", "points"), where)
        number = c.integer(c.key(obj, "number", where), f"{where}.number", 1, CREW_CARDS)
        if number != i + 1:
            c.fail(f"{where}.number", f"{i + 1} (crew cards are listed in order 1 to 80)", number)
        effects_raw = c.items(c.key(obj, "effects", where), f"{where}.effects")
        if len(effects_raw) > MAX_EFFECTS:
            c.fail(f"{where}.effects", f"at most {MAX_EFFECTS} effects", effects_raw)
        effects: list[Effect] = []
        for j, e in enumerate(effects_raw):
            effects.append(c.text(e, f"{where}.effects[{j}]", EFFECTS))  # type: ignore[arg-type]
        symbols = self.symbols(c.key(obj, "symbols", where), f"{where}.symbols")
        points = c.integer(c.key(obj, "points", where), f"{where}.points", -5, 5)
        return Crew(number, tuple(effects), symbols, points)

    def dragon(self, raw: object, i: int) -> Dragon:
        c = self.c
        where = f"dragons[{i}]"
        obj = c.obj(raw, where)
        self.only(obj, ("id", "points", "symbols"), where)
        dragon_id = c.integer(c.key(obj, "id", where), f"{where}.id", 1, DRAGONS)
        if dragon_id != i + 1:
            c.fail(f"{where}.id", f"{i + 1} (dragons are listed in order 1 to 20)", dragon_id)
        points = c.integer(c.key(obj, "points", where), f"{where}.points", 8, 12)
        symbols = self.symbols(c.key(obj, "symbols", where), f"{where}.symbols")
        return Dragon(dragon_id, points, symbols)

    def scoring_card(self, raw: object, symbol: Symbol) -> ScoringCard:
        c = self.c
        where = f"scoring.{symbol}"
        obj = c.obj(raw, where)
        self.only(obj, SIDES, where)
        a, b = (self.side(c.key(obj, side, where), f"{where}.{side}") for side in SIDES)
        return ScoringCard(symbol, (a, b))

    def side(self, raw: object, where: str) -> tuple[Award, ...]:
        c = self.c
        entries = c.items(raw, where)
        if not 1 <= len(entries) <= len(RANKS):
            c.fail(where, f"a list of 1 to {len(RANKS)} awards", f"{len(entries)} entries")
        awards: list[Award] = []
        for j, entry in enumerate(entries):
            w = f"{where}[{j}]"
            obj = c.obj(entry, w)
            self.only(obj, ("rank", "points"), w)
            rank: Rank = c.text(c.key(obj, "rank", w), f"{w}.rank", RANKS)  # type: ignore[assignment]
            if any(a.rank == rank for a in awards):
                c.fail(f"{w}.rank", "a rank not already listed on this side", rank)
            points = c.integer(c.key(obj, "points", w), f"{w}.points", 0, 50)
            awards.append(Award(rank, points))
        return tuple(awards)


# ---------------------------------------------------------------------------- tables


class Tables:
    """Flat, precomputed card properties for the rules' hot path, indexed by card number
    (index 0 unused) or dragon id, and the scoring awards with their signs resolved."""

    __slots__ = (
        "card_labels",
        "crew_packed",
        "crew_points",
        "crew_symbols",
        "crosshairs",
        "dragon_labels",
        "dragon_packed",
        "dragon_points",
        "dragon_symbols",
        "immediate",
        "scoring",
    )

    def __init__(self, comp: Components, b_penalty: bool) -> None:
        codes = {"shield": SHIELD, "tool": TOOL, "damage": DAMAGE}
        crew, dragons = comp.crew, comp.dragons
        # index 0 is a blank entry, so that card number n and dragon id n index directly
        self.immediate: tuple[tuple[int, ...], ...] = (
            (),
            *(tuple(codes[e] for e in c.effects if e != "crosshair") for c in crew),
        )
        self.crosshairs: tuple[int, ...] = (0, *(c.crosshairs for c in crew))
        self.crew_points: tuple[int, ...] = (0, *(c.points for c in crew))
        self.crew_symbols: tuple[tuple[int, int, int], ...] = (
            (0, 0, 0),
            *(c.symbols for c in crew),
        )
        self.crew_packed: tuple[int, ...] = tuple(map(pack, self.crew_symbols))
        self.card_labels: tuple[str, ...] = ("", *(c.label() for c in crew))
        self.dragon_points: tuple[int, ...] = (0, *(d.points for d in dragons))
        self.dragon_symbols: tuple[tuple[int, int, int], ...] = (
            (0, 0, 0),
            *(d.symbols for d in dragons),
        )
        self.dragon_packed: tuple[int, ...] = tuple(map(pack, self.dragon_symbols))
        self.dragon_labels: tuple[str, ...] = ("", *(d.label() for d in dragons))
        # scoring[symbol][side]: (rank, signed points) with the largest award first, so a
        # player who qualifies for two awards on one card takes only the larger.
        self.scoring: tuple[tuple[tuple[tuple[Rank, int], ...], ...], ...] = tuple(
            tuple(
                tuple(
                    (a.rank, -a.points if side == 1 and b_penalty else a.points)
                    for a in sorted(awards, key=lambda a: -a.points)
                )
                for side, awards in enumerate(card.sides)
            )
            for card in comp.scoring
        )

    def symbol_counts(
        self, played: Sequence[Sequence[int]], claimed: Sequence[Sequence[int]]
    ) -> tuple[list[int], list[int], list[int]]:
        """By symbol (:data:`SYMBOLS`), each seat's count on the crew cards it has
        ``played`` and the dragons it has ``claimed`` (both by seat)."""
        crew = self.crew_packed
        dragon = self.dragon_packed
        science: list[int] = []
        mood: list[int] = []
        crime: list[int] = []
        for p, c in zip(played, claimed, strict=True):
            tally = 0
            for card in p:
                tally += crew[card]
            for d in c:
                tally += dragon[d]
            science.append(tally & PACK_MASK)
            mood.append(tally >> PACK_BITS & PACK_MASK)
            crime.append(tally >> 2 * PACK_BITS & PACK_MASK)
        return science, mood, crime

    def card_points(
        self, played: Sequence[Sequence[int]], claimed: Sequence[Sequence[int]]
    ) -> list[int]:
        """By seat, the points printed on the crew cards it has ``played`` and the dragons
        it has ``claimed``."""
        crew = self.crew_points.__getitem__
        dragon = self.dragon_points.__getitem__
        return [
            sum(map(crew, p)) + sum(map(dragon, c)) for p, c in zip(played, claimed, strict=True)
        ]
