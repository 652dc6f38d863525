"""Space Race components: Space, Danger and Damage cards, the cosmetic Cockpits and Engines,
the Navigation Coin, and where each card goes in a ship.

The values come from ``data/space_race.json`` or from a user's own file with the same schema
(the ``data`` option); docs/rules/space-race.md documents the schema. A file is read once per
game object, checked entry by entry (a bad one raises :class:`BadDataFile` naming the file,
the entry and what was expected), and turned into frozen dataclasses. :class:`CardTables`
then flattens them into tuples indexed by card id, which is all the rules read while playing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from dragonlair.core.data import Checker, read_json
from dragonlair.core.errors import BadDataFile

DATA_FILE: Final = "space_race.json"

SpaceType = Literal[
    "scanner", "robot_part", "crystal", "power_source", "alien_drone", "loot_carrier", "crew"
]
TYPES: Final[tuple[SpaceType, ...]] = (
    "scanner",
    "robot_part",
    "crystal",
    "power_source",
    "alien_drone",
    "loot_carrier",
    "crew",
)
SCANNER, ROBOT_PART, CRYSTAL, POWER_SOURCE, ALIEN_DRONE, LOOT_CARRIER, CREW = range(7)
TYPE_NAMES: Final = (
    "Scanner",
    "Robot Part",
    "Crystal",
    "Power Source",
    "Alien Drone",
    "Loot Carrier",
    "Crew",
)
COLOURS: Final = ("orange", "green", "purple")
# Ship components and Power Sources need a colour: it is what the Power Source bonus matches.
COLOURED: Final = frozenset({SCANNER, ROBOT_PART, CRYSTAL, POWER_SOURCE})
PARTS: Final = ("head", "body", "legs")
ON_PLAY: Final = ("peek_top_danger",)
DANGER_KINDS: Final = ("flight", "fight")
FLIGHT: Final = 0
FIGHT: Final = 1
ICONS: Final = ("x", "wrench", "damage")
X: Final = 0
WRENCH: Final = 1
DAMAGE: Final = 2
COIN_FACES: Final = ("left", "right")
RANKS_PER_DANGER: Final = 4  # one icon per possible ranking: 1st to 4th
MAX_ROUNDS: Final = 20  # the most rounds a data file may ask for
MAX_HAND_SIZE: Final = 20  # the largest hand it may deal

# Where cards go in a ship ("Where to Place Cards"). A ship is a fixed row of stacks, each a
# tuple of card ids in the order placed, so the last one is the top card.
STACKS: Final = (
    "scanners",  # in the ship
    "robot_parts",  # in the ship
    "crystals",  # in the ship
    "power_cockpit",  # Power Sources connected to the Cockpit
    "power_engine",  # Power Sources connected to the Engine
    "alien_drones",  # above the ship
    "loot_carriers",  # below the ship
    "crew",  # in front of the Cockpit
    "fuel",  # face down behind the Engine (space card ids; only the owner knows them)
    "damage",  # Damage card ids, in the ship
)
# Each stack's place in STACKS, and how many there are, written as numbers: the compiled
# build reads a literal Final as a constant, and anything else of this interpreted module
# by a dictionary lookup each time (tests/space_race/test_space_race_data.py holds them
# to STACKS).
S_SCANNER: Final = 0
S_ROBOT: Final = 1
S_CRYSTAL: Final = 2
S_POWER_COCKPIT: Final = 3
S_POWER_ENGINE: Final = 4
S_DRONE: Final = 5
S_LOOT: Final = 6
S_CREW: Final = 7
S_FUEL: Final = 8
S_DAMAGE: Final = 9
NSTACK: Final = 10
# The stack a face-up card of each type joins (Power Sources name their stack).
TYPE_STACK: Final = (S_SCANNER, S_ROBOT, S_CRYSTAL, -1, S_DRONE, S_LOOT, S_CREW)


@dataclass(frozen=True)
class SpaceCard:
    """One Space card: its type, colour, robot part, corner VP and on-play effect."""

    id: int
    type: SpaceType
    color: str | None
    part: str | None
    corner_vp: int
    on_play: str | None

    @property
    def name(self) -> str:
        words = [self.color.capitalize()] if self.color else []
        if self.part is not None:
            words += ["Robot", self.part.capitalize()]
        else:
            words.append(TYPE_NAMES[TYPES.index(self.type)])
        return " ".join(words)


@dataclass(frozen=True)
class RankIcon:
    """What one ranking on a Danger card does: x nothing, wrench n, damage n."""

    icon: str
    n: int

    def __str__(self) -> str:
        if self.icon == "x":
            return "x"
        if self.icon == "wrench":
            return f"{self.n} wrench" + ("es" if self.n != 1 else "")
        return f"{self.n} damage"


@dataclass(frozen=True)
class DangerCard:
    """One Danger card: Flight (bid Fuel) or Fight (bid Crew), and the icon for each rank."""

    id: int
    kind: str
    ranks: tuple[RankIcon, ...]

    @property
    def name(self) -> str:
        places = ", ".join(f"{i + 1}{_ORD[i]} {r}" for i, r in enumerate(self.ranks))
        return f"{self.kind.capitalize()} ({places})"


_ORD = ("st", "nd", "rd", "th")


@dataclass(frozen=True)
class DamageCard:
    """One Damage card and its (negative) VP."""

    id: int
    name: str
    vp: int


@dataclass(frozen=True)
class ShipEnd:
    """A Cockpit or an Engine. Cosmetic in these rules: a faction's artwork only."""

    faction: str


@dataclass(frozen=True)
class ScoringValues:
    """The end scoring's numbers (the rulebook's "Scoring"): the robot and Crystal set
    bonuses, the colour bonus per match, the Loot Carrier, Alien Drone, Fuel and Crew
    awards. scoring.py applies them; a data file's ``scoring`` object sets them."""

    robot_bonus: int  # per complete robot
    crystal_set: int  # Crystals in a set
    crystal_set_bonus: int  # per set
    power_match_bonus: int  # per top card matching a scoring Power Source
    loot_most: int  # most Loot Carriers
    loot_second: int  # second most
    drone_per_fewer: int  # per player with strictly fewer Alien Drones
    most_fuel: int
    most_crew: int


# each value's range: a set of at least one Crystal, any award from -99 to 99
_SCORING_RANGES: Final = {
    "robot_bonus": (-99, 99),
    "crystal_set": (1, 99),
    "crystal_set_bonus": (-99, 99),
    "power_match_bonus": (-99, 99),
    "loot_most": (-99, 99),
    "loot_second": (-99, 99),
    "drone_per_fewer": (-99, 99),
    "most_fuel": (-99, 99),
    "most_crew": (-99, 99),
}


@dataclass(frozen=True)
class SpaceRaceData:
    """Every component of one game, as read from a data file."""

    source: str
    space: tuple[SpaceCard, ...]
    danger: tuple[DangerCard, ...]
    damage: tuple[DamageCard, ...]
    cockpits: tuple[ShipEnd, ...]
    engines: tuple[ShipEnd, ...]
    coin: tuple[str, str]
    scoring: ScoringValues
    rounds: int  # rounds of the game, each a draft and a Danger card
    hand_size: int  # Space cards dealt each round, every one of them picked


_TOP_KEYS = frozenset(
    {"status", "space_cards", "danger_cards", "damage_cards", "cockpits", "engines"}
    | {"navigation_coin", "scoring", "rounds", "hand_size"}
)


def load_data(user_path: str | None, players: int) -> SpaceRaceData:
    """The components from the package's data file, or from ``user_path`` if given, checked
    for a game of ``players`` players."""
    raw, name = read_json("dragonlair.space_race", DATA_FILE, user_path, ("rounds", "hand_size"))
    c = Checker(name)
    root = c.obj(raw, "the file")
    _no_unknown_keys(c, root, _TOP_KEYS, "the file")
    if "status" in root:
        c.text(root["status"], "status")
    rounds = c.integer(c.key(root, "rounds", "the file"), "rounds", 1, MAX_ROUNDS)
    hand = c.integer(c.key(root, "hand_size", "the file"), "hand_size", 1, MAX_HAND_SIZE)
    space = _space_cards(c, c.key(root, "space_cards", "the file"), players, rounds, hand)
    danger = _danger_cards(c, c.key(root, "danger_cards", "the file"), rounds)
    damage = _damage_cards(c, c.key(root, "damage_cards", "the file"))
    cockpits = _ship_ends(c, c.key(root, "cockpits", "the file"), "cockpits", players)
    engines = _ship_ends(c, c.key(root, "engines", "the file"), "engines", players)
    coin = c.items(c.key(root, "navigation_coin", "the file"), "navigation_coin", 2)
    faces = (
        c.text(coin[0], "navigation_coin[0]", COIN_FACES),
        c.text(coin[1], "navigation_coin[1]", COIN_FACES),
    )
    if faces[0] == faces[1]:
        c.fail("navigation_coin", "one face 'left' and one face 'right'", list(faces))
    scoring = _scoring(c, c.key(root, "scoring", "the file"))
    return SpaceRaceData(
        name, space, danger, damage, cockpits, engines, faces, scoring, rounds, hand
    )


def _scoring(c: Checker, value: object) -> ScoringValues:
    e = c.obj(value, "scoring")
    _no_unknown_keys(c, e, frozenset(_SCORING_RANGES), "scoring")
    values = {
        k: c.integer(c.key(e, k, "scoring"), f"scoring.{k}", lo, hi)
        for k, (lo, hi) in _SCORING_RANGES.items()
    }
    return ScoringValues(**values)


def _no_unknown_keys(c: Checker, obj: Mapping[str, Any], known: frozenset[str], where: str) -> None:
    extra = sorted(set(obj) - known)
    if extra:
        raise BadDataFile(
            f"{c.name}: {where}: unknown key {extra[0]!r}; expected only "
            + ", ".join(sorted(known))
        )


def _ids_in_order(c: Checker, entry: Mapping[str, Any], i: int, where: str) -> int:
    return c.integer(c.key(entry, "id", where), f"{where}.id", i + 1, i + 1)


_SPACE_KEYS = frozenset({"id", "type", "color", "part", "corner_vp", "on_play"})


def _space_cards(
    c: Checker, value: object, players: int, rounds: int, hand: int
) -> tuple[SpaceCard, ...]:
    items = c.items(value, "space_cards")
    need = players * rounds * hand
    if len(items) < need:
        c.fail(
            "space_cards",
            f"at least {need} cards ({rounds} rounds of {hand} for {players} players)",
            f"{len(items)} cards",
        )
    out = []
    for i, item in enumerate(items):
        where = f"space_cards[{i}]"
        e = c.obj(item, where)
        _no_unknown_keys(c, e, _SPACE_KEYS, where)
        cid = _ids_in_order(c, e, i, where)
        t = TYPES.index(c.text(c.key(e, "type", where), f"{where}.type", TYPES))
        kind = TYPES[t]
        color = c.optional_text(e.get("color"), f"{where}.color", COLOURS)
        if t in COLOURED and color is None:
            c.fail(f"{where}.color", "one of " + ", ".join(COLOURS) + f" for a {kind}", None)
        part = c.optional_text(e.get("part"), f"{where}.part", PARTS)
        if t == ROBOT_PART and part is None:
            c.fail(f"{where}.part", "one of " + ", ".join(PARTS) + " for a robot_part", None)
        if t != ROBOT_PART and part is not None:
            c.fail(f"{where}.part", f"no part for a {kind}", part)
        vp = c.integer(c.key(e, "corner_vp", where), f"{where}.corner_vp", -99, 99)
        on_play = c.optional_text(e.get("on_play"), f"{where}.on_play", ON_PLAY)
        out.append(SpaceCard(cid, kind, color, part, vp, on_play))
    return tuple(out)


_DANGER_KEYS = frozenset({"id", "kind", "ranks"})
_RANK_KEYS = frozenset({"icon", "n"})


def _danger_cards(c: Checker, value: object, rounds: int) -> tuple[DangerCard, ...]:
    items = c.items(value, "danger_cards")
    if len(items) < rounds:
        c.fail("danger_cards", f"at least {rounds} cards (one per round)", f"{len(items)} cards")
    out = []
    for i, item in enumerate(items):
        where = f"danger_cards[{i}]"
        e = c.obj(item, where)
        _no_unknown_keys(c, e, _DANGER_KEYS, where)
        cid = _ids_in_order(c, e, i, where)
        kind = c.text(c.key(e, "kind", where), f"{where}.kind", DANGER_KINDS)
        ranks = c.items(c.key(e, "ranks", where), f"{where}.ranks", RANKS_PER_DANGER)
        icons = []
        for r, rank in enumerate(ranks):
            rw = f"{where}.ranks[{r}]"
            re = c.obj(rank, rw)
            _no_unknown_keys(c, re, _RANK_KEYS, rw)
            icon = c.text(c.key(re, "icon", rw), f"{rw}.icon", ICONS)
            if icon == "x":
                n = c.integer(c.key(re, "n", rw), f"{rw}.n", 0, 0)
            else:
                n = c.integer(c.key(re, "n", rw), f"{rw}.n", 1, 9)
            icons.append(RankIcon(icon, n))
        out.append(DangerCard(cid, kind, tuple(icons)))
    return tuple(out)


_DAMAGE_KEYS = frozenset({"id", "name", "vp"})


def _damage_cards(c: Checker, value: object) -> tuple[DamageCard, ...]:
    items = c.items(value, "damage_cards")
    out = []
    for i, item in enumerate(items):
        where = f"damage_cards[{i}]"
        e = c.obj(item, where)
        _no_unknown_keys(c, e, _DAMAGE_KEYS, where)
        cid = _ids_in_order(c, e, i, where)
        name = c.text(c.key(e, "name", where), f"{where}.name")
        vp = c.integer(c.key(e, "vp", where), f"{where}.vp", -99, 0)
        out.append(DamageCard(cid, name, vp))
    return tuple(out)


_END_KEYS = frozenset({"faction", "ability", "vp"})


def _ship_ends(c: Checker, value: object, key: str, players: int) -> tuple[ShipEnd, ...]:
    items = c.items(value, key)
    if len(items) < players:
        c.fail(key, f"at least {players} (one per player)", f"{len(items)} entries")
    out = []
    for i, item in enumerate(items):
        where = f"{key}[{i}]"
        e = c.obj(item, where)
        _no_unknown_keys(c, e, _END_KEYS, where)
        faction = c.text(c.key(e, "faction", where), f"{where}.faction")
        # Cockpits and Engines are cosmetic (RULINGS.md): a file may say so, never otherwise.
        if e.get("ability") is not None:
            c.fail(f"{where}.ability", "null (cockpits and engines have no ability)", e["ability"])
        vp = e.get("vp", 0)
        if type(vp) is not int or vp != 0:
            c.fail(f"{where}.vp", "0 (cockpits and engines score nothing)", vp)
        out.append(ShipEnd(faction))
    return tuple(out)


@dataclass(frozen=True)
class CardTables:
    """Card properties as tuples indexed by card id (index 0 is unused), for the hot path."""

    space_ids: tuple[int, ...]
    type: tuple[int, ...]
    colour: tuple[int, ...]  # index into COLOURS, -1 for none
    part: tuple[int, ...]  # index into PARTS, -1 for none
    vp: tuple[int, ...]
    peeks: tuple[bool, ...]
    space_name: tuple[str, ...]
    danger_ids: tuple[int, ...]
    danger_kind: tuple[int, ...]  # FLIGHT or FIGHT
    danger_ranks: tuple[tuple[tuple[int, int], ...], ...]  # (icon, n) per rank
    danger_name: tuple[str, ...]
    damage_ids: tuple[int, ...]
    damage_vp: tuple[int, ...]
    damage_name: tuple[str, ...]
    scoring: ScoringValues

    @classmethod
    def build(cls, data: SpaceRaceData) -> CardTables:
        sp = data.space
        dg = data.danger
        dm = data.damage
        return cls(
            space_ids=tuple(c.id for c in sp),
            type=(-1, *(TYPES.index(c.type) for c in sp)),
            colour=(-1, *(_index(COLOURS, c.color) for c in sp)),
            part=(-1, *(_index(PARTS, c.part) for c in sp)),
            vp=(0, *(c.corner_vp for c in sp)),
            peeks=(False, *(c.on_play == "peek_top_danger" for c in sp)),
            space_name=("", *(c.name for c in sp)),
            danger_ids=tuple(d.id for d in dg),
            danger_kind=(-1, *(DANGER_KINDS.index(d.kind) for d in dg)),
            danger_ranks=((), *(tuple((ICONS.index(r.icon), r.n) for r in d.ranks) for d in dg)),
            danger_name=("", *(d.name for d in dg)),
            damage_ids=tuple(d.id for d in dm),
            damage_vp=(0, *(d.vp for d in dm)),
            damage_name=("", *(d.name for d in dm)),
            scoring=data.scoring,
        )


def _index(values: Sequence[str], value: str | None) -> int:
    return -1 if value is None else values.index(value)
