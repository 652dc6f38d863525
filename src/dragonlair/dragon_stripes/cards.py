"""Dragon Stripes components: the dragon's stripes, the deck, the gems and the price table.

The values live in ``data/dragon_stripes.json`` (or a user's own file with the same
schema, through the ``data`` option) and are loaded once per game into the frozen
:class:`Components`. Every entry is checked, and a bad file is refused with
:class:`~dragonlair.core.errors.BadDataFile` naming the file, the entry and what was
expected. The schema is documented in ``docs/rules/dragon-stripes.md``.

Cards are small ints in the state: a footprint card is its number of steps (1 or more),
a Stop card is ``STOP`` (0) and a Danger card is ``DANGER`` (-1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dragonlair.core.data import Checker, read_json
from dragonlair.core.errors import BadDataFile

STOP = 0
DANGER = -1
DANGER_CARDS = 3  # the rules name a first, a second and a third Danger card
# The dragon by the number of Danger cards drawn: the phase card shows the closed eye until
# the second Danger flips it to half awake; the third removes it.
DRAGON_PHASES = ("asleep", "stirring", "half awake", "awake")

DATA_FILE = "dragon_stripes.json"
_KEYS = (
    "note",
    "stripes",
    "footprint_cards",
    "stop_cards",
    "danger_cards",
    "gems",
    "start_gems",
    "takeover_prices",
    "penalty_divisor",
    "reward_multiplier",
)
# The two halves of the game the rules set apart: before the second Danger card, and from
# it on (the dragon half awake; kinds.SECOND_DANGER), as the data file's penalty_divisor
# and reward_multiplier name them.
HALVES = ("before_second_danger", "from_second_danger")


@dataclass(frozen=True)
class FootprintCards:
    """``count`` footprint cards that each move the knight ``steps`` stripes."""

    steps: int
    count: int


@dataclass(frozen=True)
class GemKind:
    """``count`` gems of value ``value`` (crystal 1, ruby 5, sapphire 10)."""

    value: int
    count: int


@dataclass(frozen=True)
class PriceBand:
    """A pot worth ``low``..``high`` gems (``high`` None: or more) costs ``price`` to take."""

    low: int
    high: int | None
    price: int


@dataclass(frozen=True)
class Components:
    """Everything printed on the components, as the data file gives it."""

    stripes: tuple[int, ...]  # gems shown on stripe 1, 2, ... (the last is next to the head)
    footprints: tuple[FootprintCards, ...]
    stop_cards: int
    danger_cards: int
    gems: tuple[GemKind, ...]
    start_gems: int
    takeover: tuple[PriceBand, ...]
    source: str  # the file name used in error messages
    # a Stop or Danger costs 1/divisor of the holder's gems, rounded down; a stripe gives
    # its gems times the multiplier: each before the second Danger, and from it on
    penalty_divisor: tuple[int, int]
    reward_multiplier: tuple[int, int]

    @property
    def total_gems(self) -> int:
        """The value of all the gems in the box (350 with the published gems)."""
        return sum(g.value * g.count for g in self.gems)

    def deck(self) -> tuple[int, ...]:
        """Every card as its code (steps, STOP or DANGER), in a fixed order."""
        cards: list[int] = []
        for f in self.footprints:
            cards += [f.steps] * f.count
        cards += [STOP] * self.stop_cards
        cards += [DANGER] * self.danger_cards
        return tuple(cards)

    def price(self, pot: int) -> int:
        """The takeover price for a pot of ``pot`` gems. A pot below the first band
        (an empty pot, when the lair has run dry) costs the first band's price: the
        rulebook's words are "less than 10"."""
        for band in self.takeover:
            if band.high is None or pot <= band.high:
                return band.price
        raise AssertionError("the last price band is open-ended")  # checked when loaded


def card_name(code: int) -> str:
    """How a card reads in views and events: "footprint 3", "stop", "danger"."""
    if code == STOP:
        return "stop"
    if code == DANGER:
        return "danger"
    return f"footprint {code}"


def load_components(user_path: str | None = None) -> Components:
    """The built-in components, or those of the user's file; BadDataFile if malformed."""
    raw, name = read_json(
        "dragonlair.dragon_stripes", DATA_FILE, user_path, ("penalty_divisor", "reward_multiplier")
    )
    return parse_components(raw, name)


def parse_components(raw: object, name: str) -> Components:
    """Check every entry of parsed JSON and build the components."""
    c = Checker(name)
    top = c.obj(raw, "the file")
    for key in top:
        if key not in _KEYS:
            c.fail(f"key {key!r}", "one of " + ", ".join(_KEYS), key)
    if "note" in top:
        c.text(top["note"], "note")

    stripes_raw = c.items(c.key(top, "stripes", "the file"), "stripes")
    if not 1 <= len(stripes_raw) <= 100:
        c.fail("stripes", "a list of 1 to 100 stripe values", f"{len(stripes_raw)} entries")
    stripes = tuple(c.integer(v, f"stripes[{i}]", 0, 1000) for i, v in enumerate(stripes_raw))

    footprints = _footprints(c, top)

    stop_cards = c.integer(c.key(top, "stop_cards", "the file"), "stop_cards", 0, 500)
    danger_cards = c.integer(c.key(top, "danger_cards", "the file"), "danger_cards")
    if danger_cards != DANGER_CARDS:
        c.fail("danger_cards", "3 (the rules have a first, second and third Danger)", danger_cards)

    gems = _gem_kinds(c, top)
    start_gems = c.integer(c.key(top, "start_gems", "the file"), "start_gems", 0)

    bands = _price_bands(c, top)
    penalty = _halves(c, c.key(top, "penalty_divisor", "the file"), "penalty_divisor", 1, 100)
    reward = _halves(c, c.key(top, "reward_multiplier", "the file"), "reward_multiplier", 0, 10)

    return Components(
        stripes=stripes,
        footprints=tuple(footprints),
        stop_cards=stop_cards,
        danger_cards=danger_cards,
        gems=tuple(gems),
        start_gems=start_gems,
        takeover=tuple(bands),
        source=name,
        penalty_divisor=penalty,
        reward_multiplier=reward,
    )


def _footprints(c: Checker, top: Mapping[str, Any]) -> list[FootprintCards]:
    """The footprint cards: each step value once, with its count."""
    footprints: list[FootprintCards] = []
    for i, entry in enumerate(
        c.items(c.key(top, "footprint_cards", "the file"), "footprint_cards")
    ):
        where = f"footprint_cards[{i}]"
        obj = _entry(c, entry, where, ("steps", "count"))
        steps = c.integer(obj["steps"], f"{where}.steps", 1, 100)
        if any(f.steps == steps for f in footprints):
            c.fail(f"{where}.steps", "a step value not listed before", steps)
        footprints.append(FootprintCards(steps, c.integer(obj["count"], f"{where}.count", 0, 500)))
    return footprints


def _gem_kinds(c: Checker, top: Mapping[str, Any]) -> list[GemKind]:
    """The gems: at least one kind, each value once, with its count."""
    gems: list[GemKind] = []
    for i, entry in enumerate(c.items(c.key(top, "gems", "the file"), "gems")):
        where = f"gems[{i}]"
        obj = _entry(c, entry, where, ("value", "count"))
        value = c.integer(obj["value"], f"{where}.value", 1, 1000)
        if any(g.value == value for g in gems):
            c.fail(f"{where}.value", "a gem value not listed before", value)
        gems.append(GemKind(value, c.integer(obj["count"], f"{where}.count", 0, 10_000)))
    if not gems:
        c.fail("gems", "at least one kind of gem", "an empty list")
    return gems


def _price_bands(c: Checker, top: Mapping[str, Any]) -> list[PriceBand]:
    """The takeover prices: bands from 1 on without gaps, the last one open-ended."""
    bands: list[PriceBand] = []
    raw_bands = c.items(c.key(top, "takeover_prices", "the file"), "takeover_prices")
    if not raw_bands:
        c.fail("takeover_prices", "at least one price band", "an empty list")
    for i, entry in enumerate(raw_bands):
        where = f"takeover_prices[{i}]"
        obj = _entry(c, entry, where, ("from", "to", "price"))
        prev_high = bands[-1].high if bands else 0
        assert prev_high is not None  # only the last band is open-ended
        low = c.integer(obj["from"], f"{where}.from")
        if low != prev_high + 1:
            why = "(the first band starts at 1)" if i == 0 else "(bands follow on without gaps)"
            c.fail(f"{where}.from", f"{prev_high + 1} {why}", low)
        last = i == len(raw_bands) - 1
        if last:
            if obj["to"] is not None:
                c.fail(f"{where}.to", "null (the last band has no upper end)", obj["to"])
            high = None
        else:
            high = c.integer(obj["to"], f"{where}.to", low)
        bands.append(PriceBand(low, high, c.integer(obj["price"], f"{where}.price", 0)))
    return bands


def _halves(c: Checker, raw: object, where: str, lo: int, hi: int) -> tuple[int, int]:
    """A value before the second Danger and one from it on (``HALVES``)."""
    obj = _entry(c, raw, where, HALVES)
    first, second = (c.integer(obj[k], f"{where}.{k}", lo, hi) for k in HALVES)
    return first, second


def check_players(comp: Components, players: int) -> None:
    """Refuse components whose gems cannot give every player their starting gems."""
    need = comp.start_gems * players
    if need > comp.total_gems:
        raise BadDataFile(
            f"{comp.source}: start_gems: expected at most {comp.total_gems // players} so that "
            f"{players} players can each start with it (the gems are worth "
            f"{comp.total_gems} in all), got {comp.start_gems}"
        )


def _entry(c: Checker, entry: object, where: str, keys: Sequence[str]) -> Mapping[str, Any]:
    obj = c.obj(entry, where)
    for k in obj:
        if k not in keys:
            c.fail(f"{where}: key {k!r}", "one of " + ", ".join(keys), k)
    for k in keys:
        c.key(obj, k, where)
    return obj
