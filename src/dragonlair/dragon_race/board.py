"""The components of The Great Dragon Race: the board, the cards and the characters.

They are read from ``data/great_dragon_race.json`` (or a user's file with the same schema,
through the game's ``data`` option), checked entry by entry, and kept in frozen dataclasses.
A bad file is refused with :class:`~dragonlair.core.BadDataFile` naming the file, the entry
and what was expected. The schema is documented in ``docs/rules/dragon-race.md``.

The board is a numbered track: spot 0 is the Start Island and ``finish`` the Finish. The
movement rules that depend only on the board (the shortcut, backward moves, the watering
holes ahead and behind a spot) are methods of :class:`Board`, so each lives in one place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final, Literal

from dragonlair.core.data import Checker, read_json
from dragonlair.core.errors import BadDataFile

CardKind = Literal[
    "number", "halt", "bolts", "balls", "updraft", "downdraft", "passing_wind", "tornado"
]

# Card kinds as small ints, for the precomputed tables the rules use on every move. The
# order matters to the rules: every kind up to UPDRAFT is played without a target.
NUMBER: Final = 0
HALT: Final = 1
BOLTS: Final = 2
BALLS: Final = 3
UPDRAFT: Final = 4
DOWNDRAFT: Final = 5
PASSING_WIND: Final = 6
TORNADO: Final = 7
KINDS: Final[tuple[CardKind, ...]] = (
    "number",
    "halt",
    "bolts",
    "balls",
    "updraft",
    "downdraft",
    "passing_wind",
    "tornado",
)
SPECIAL_NAMES: Final[dict[str, str]] = {
    "bolts": "Bolts!",
    "balls": "Balls!",
    "updraft": "Updraft!",
    "downdraft": "Downdraft!",
    "passing_wind": "Passing Wind!",
    "tornado": "Tornado!",
}

DATA_FILE: Final = "great_dragon_race.json"
SCHEMA: Final = "dragonlair.dragon-race.data/1"
MAX_VALUE: Final = 20  # the highest number a card may carry
MAX_FINISH: Final = 1000  # the longest track a data file may describe
MIN_DECK: Final = 24  # enough for four hands of six
MAX_HAND: Final = 20  # the most cards a data file may deal or have drawn up to


@dataclass(frozen=True)
class Card:
    """One card: a number card (with or without an insignia), a HALT! card with its number,
    or one of the six specials (value 0)."""

    id: int
    kind: CardKind
    value: int = 0
    insignia: str | None = None

    @property
    def code(self) -> int:
        return KINDS.index(self.kind)

    @property
    def name(self) -> str:
        """How the card reads in logs and menus: "3 (A)", "4", "HALT! 2", "Tornado!"."""
        if self.kind == "number":
            return f"{self.value} ({self.insignia})" if self.insignia else str(self.value)
        if self.kind == "halt":
            return f"HALT! {self.value}"
        return SPECIAL_NAMES[self.kind]


@dataclass(frozen=True)
class Character:
    """A dragon and rider; seat i plays the i-th character. Only the insignia matters."""

    insignia: str
    name: str


@dataclass(frozen=True)
class Board:
    """The track from the Start Island (spot ``start``, always 0) to the Finish."""

    start: int
    finish: int
    watering_holes: tuple[int, ...]
    entry_arrow: int  # the shortcut's entry arrow, or -1 when the board has no shortcut
    exit_arrow: int  # its exit arrow, or -1
    crossing: tuple[int, int] | None  # where the paths cross; cosmetic
    ballista_bolts: tuple[int, ...]
    flaming_balls: tuple[int, ...]

    def forward(self, spot: int, steps: int) -> int:
        """Where a pawn on ``spot`` ends after moving ``steps`` spots ahead. From the
        shortcut's entry arrow the first spot counted is the exit arrow; a move ends at the
        Finish at most (a greater number than needed still reaches it)."""
        if spot == self.entry_arrow:
            spot = self.exit_arrow - 1
        return min(self.finish, spot + steps)

    def back(self, spot: int, steps: int) -> int:
        """Where a pawn on ``spot`` ends after being sent ``steps`` spots back: along the
        long path (the shortcut is one way), never below the Start."""
        return max(self.start, spot - steps)

    def is_watering_hole(self, spot: int) -> bool:
        return spot in self.watering_holes

    def next_watering_hole(self, spot: int) -> int | None:
        """The first watering hole ahead of ``spot``; None past the last one (the Finish is
        not a watering hole)."""
        for h in self.watering_holes:
            if h > spot:
                return h
        return None

    def watering_hole_behind(self, spot: int) -> int:
        """The last watering hole behind ``spot``, or the Start if there is none."""
        behind = [h for h in self.watering_holes if h < spot]
        return behind[-1] if behind else self.start

    def hazard(self, spot: int) -> str | None:
        """ "ballista bolt", "flaming ball", or None for any other spot."""
        if spot in self.ballista_bolts:
            return "ballista bolt"
        if spot in self.flaming_balls:
            return "flaming ball"
        return None


@dataclass(frozen=True)
class Effects:
    """How far the special cards move pawns (the rulebook's card texts): Ballista Bolts!
    and Flaming Balls! send back, Tornado! sends ahead, and a stolen Updraft! or Downdraft!
    played by a thief who shares the lead moves it ahead."""

    bolts_back: int
    balls_back: int
    tornado_ahead: int
    stolen_draft_ahead: int


@dataclass(frozen=True)
class Hands:
    """How many cards each player is dealt, and how many a turn starts by drawing up to
    (one more after being robbed since the player's last turn)."""

    deal: int
    draw_up_to: int


@dataclass(frozen=True)
class RaceData:
    """Everything a data file describes."""

    source: str
    characters: tuple[Character, ...]
    board: Board
    cards: tuple[Card, ...]
    effects: Effects
    hands: Hands


def load_data(user_path: str | None = None) -> RaceData:
    """The built-in components, or those of the user's file at ``user_path`` (read again
    every time: the user may be editing it)."""
    if user_path is None:
        return _builtin()
    raw, name = read_json(__package__ or "dragonlair.dragon_race", DATA_FILE, user_path, ("hands",))
    return parse_data(raw, name)


@cache
def _builtin() -> RaceData:
    raw, name = read_json(__package__ or "dragonlair.dragon_race", DATA_FILE)
    return parse_data(raw, name)


def parse_data(raw: object, name: str) -> RaceData:
    """Check parsed JSON against the schema and build the components."""
    c = Checker(name)
    top = c.obj(raw, "the file")
    _only(
        c,
        top,
        "the file",
        ("schema", "status", "characters", "effects", "hands", "board", "cards"),
    )
    if "schema" in top and top["schema"] != SCHEMA:
        c.fail("schema", repr(SCHEMA), top["schema"])
    if "status" in top:
        c.text(top["status"], "status")
    characters = _characters(c, c.key(top, "characters", "the file"))
    board = _board(c, c.key(top, "board", "the file"))
    cards = _cards(c, c.key(top, "cards", "the file"), {ch.insignia for ch in characters})
    effects = _effects(c, c.key(top, "effects", "the file"))
    hands = _hands(c, c.key(top, "hands", "the file"))
    return RaceData(name, characters, board, cards, effects, hands)


def _hands(c: Checker, raw: object) -> Hands:
    obj = c.obj(raw, "hands")
    keys = ("deal", "draw_up_to")
    _only(c, obj, "hands", keys)
    return Hands(*(c.integer(c.key(obj, k, "hands"), f"hands.{k}", 1, MAX_HAND) for k in keys))


def _effects(c: Checker, raw: object) -> Effects:
    obj = c.obj(raw, "effects")
    keys = ("bolts_back", "balls_back", "tornado_ahead", "stolen_draft_ahead")
    _only(c, obj, "effects", keys)
    return Effects(
        *(c.integer(c.key(obj, k, "effects"), f"effects.{k}", 0, MAX_FINISH) for k in keys)
    )


def _only(c: Checker, obj: Mapping[str, Any], where: str, keys: Sequence[str]) -> None:
    for k in obj:
        if k not in keys:
            raise BadDataFile(
                f"{c.name}: {where}: unknown key {k!r}; expected only {', '.join(keys)}"
            )


def _characters(c: Checker, raw: object) -> tuple[Character, ...]:
    items = c.items(raw, "characters")
    if len(items) < 2:
        c.fail("characters", "a list of at least 2 characters", f"{len(items)} entries")
    out: list[Character] = []
    for i, item in enumerate(items):
        where = f"characters[{i}]"
        obj = c.obj(item, where)
        _only(c, obj, where, ("insignia", "name"))
        insignia = c.text(c.key(obj, "insignia", where), f"{where}.insignia")
        if not insignia or insignia in {ch.insignia for ch in out}:
            c.fail(f"{where}.insignia", "a non-empty insignia no other character has", insignia)
        name = c.text(c.key(obj, "name", where), f"{where}.name")
        if not name:
            c.fail(f"{where}.name", "a non-empty name", name)
        out.append(Character(insignia, name))
    return tuple(out)


def _spots(c: Checker, raw: object, where: str, finish: int) -> tuple[int, ...]:
    items = c.items(raw, where)
    spots = tuple(c.integer(v, f"{where}[{i}]", 1, finish - 1) for i, v in enumerate(items))
    for i in range(1, len(spots)):
        if spots[i] <= spots[i - 1]:
            c.fail(f"{where}[{i}]", f"a spot after {spots[i - 1]} (in increasing order)", spots[i])
    return spots


def _board(c: Checker, raw: object) -> Board:
    obj = c.obj(raw, "board")
    _only(
        c,
        obj,
        "board",
        (
            "start",
            "finish",
            "watering_holes",
            "shortcut",
            "crossing",
            "ballista_bolts",
            "flaming_balls",
        ),
    )
    start = c.integer(c.key(obj, "start", "board"), "board.start", 0, 0)
    finish = c.integer(c.key(obj, "finish", "board"), "board.finish", 2, MAX_FINISH)
    holes = _spots(c, c.key(obj, "watering_holes", "board"), "board.watering_holes", finish)
    if not holes:
        c.fail("board.watering_holes", "at least one watering hole", "[]")
    entry = exit_ = -1
    short = obj.get("shortcut")
    if short is not None:
        s = c.obj(short, "board.shortcut")
        _only(c, s, "board.shortcut", ("entry_arrow", "exit_arrow", "skipped", "one_way"))
        entry = c.integer(
            c.key(s, "entry_arrow", "board.shortcut"), "board.shortcut.entry_arrow", 1, finish - 3
        )
        exit_ = c.integer(
            c.key(s, "exit_arrow", "board.shortcut"),
            "board.shortcut.exit_arrow",
            entry + 2,
            finish - 1,
        )
        for where, spot in (("entry_arrow", entry), ("exit_arrow", exit_)):
            if spot in holes:
                c.fail(f"board.shortcut.{where}", "a spot that is not a watering hole", spot)
        if "skipped" in s:
            skipped = c.items(s["skipped"], "board.shortcut.skipped")
            if list(skipped) != list(range(entry + 1, exit_)):
                c.fail(
                    "board.shortcut.skipped",
                    f"the spots between the arrows, {list(range(entry + 1, exit_))}",
                    skipped,
                )
        if "one_way" in s and s["one_way"] is not True:
            c.fail("board.shortcut.one_way", "true (the shortcut is one way)", s["one_way"])
    crossing: tuple[int, int] | None = None
    cross = obj.get("crossing")
    if cross is not None:
        x = c.obj(cross, "board.crossing")
        _only(c, x, "board.crossing", ("between_spots", "rule_effect"))
        pair = c.items(
            c.key(x, "between_spots", "board.crossing"), "board.crossing.between_spots", 2
        )
        a = c.integer(pair[0], "board.crossing.between_spots[0]", 0, finish - 1)
        b = pair[1]
        if isinstance(b, bool) or b != a + 1:
            c.fail("board.crossing.between_spots[1]", f"{a + 1}, the spot after {a}", b)
        if x.get("rule_effect") is not None:
            c.fail(
                "board.crossing.rule_effect", "null (the crossing is cosmetic)", x["rule_effect"]
            )
        crossing = (a, b)
    bolts = _spots(c, c.key(obj, "ballista_bolts", "board"), "board.ballista_bolts", finish)
    balls = _spots(c, c.key(obj, "flaming_balls", "board"), "board.flaming_balls", finish)
    for where, spots in (("ballista_bolts", bolts), ("flaming_balls", balls)):
        for i, spot in enumerate(spots):
            if spot in holes:
                c.fail(f"board.{where}[{i}]", "a spot that is not a watering hole", spot)
    for i, spot in enumerate(balls):
        if spot in bolts:
            c.fail(f"board.flaming_balls[{i}]", "a spot without a Ballista Bolt", spot)
    return Board(start, finish, holes, entry, exit_, crossing, bolts, balls)


def _cards(c: Checker, raw: object, insignias: set[str]) -> tuple[Card, ...]:
    items = c.items(raw, "cards")
    if len(items) < MIN_DECK:
        c.fail("cards", f"a deck of at least {MIN_DECK} cards", f"{len(items)} cards")
    out: list[Card] = []
    allowed = sorted(insignias)
    for i, item in enumerate(items):
        where = f"cards[{i}]"
        obj = c.obj(item, where)
        _only(c, obj, where, ("id", "kind", "value", "insignia"))
        cid = c.key(obj, "id", where)
        if isinstance(cid, bool) or cid != i + 1:
            c.fail(f"{where}.id", f"{i + 1} (cards are numbered 1, 2, 3, ... in order)", cid)
        kind: CardKind = c.text(c.key(obj, "kind", where), f"{where}.kind", KINDS)  # type: ignore[assignment]
        if kind in ("number", "halt"):
            value = c.integer(c.key(obj, "value", where), f"{where}.value", 1, MAX_VALUE)
            insignia = c.optional_text(obj.get("insignia"), f"{where}.insignia", allowed)
            if kind == "halt" and insignia is not None:
                c.fail(f"{where}.insignia", "null (HALT! cards carry no insignia)", insignia)
            out.append(Card(cid, kind, value, insignia))
        else:
            for k in ("value", "insignia"):
                if obj.get(k) is not None:
                    c.fail(f"{where}.{k}", f"nothing (a {kind} card has no {k})", obj[k])
            out.append(Card(cid, kind))
    return tuple(out)
