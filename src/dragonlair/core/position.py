"""Positions: any moment of a game, written by hand, read back as a state.

A position is a TOML or JSON document: a header (``format``, ``game``, ``players``,
``options``) and the game's own fields (what each seat holds, decks top first, what is on
the table, the phase, whose turn), defined by the game's position format and
documented in its rules page (``docs/rules/<id>.md``). Hidden parts a position leaves out
are dealt at random, from the seed, from what remains.

``dragonlair.position(game_id, text_or_dict, seed=...)`` reads one; ``state.to_position()``
writes any state back, so that reading it again gives the same position. A position that
cannot be read raises :class:`BadPosition` naming the field and builds nothing. A game
started from a position keeps it in its record, which replays exactly.

A game's position format, which its manifest names (``position``), provides
``write(state) -> dict`` and ``read(state, fields, rng)``: ``read`` fills a blank state
from :class:`Fields` (which checks types and names the field in every error) and deals
what was left out with ``rng``. Simultaneous choices under way are read and written here,
for every game: ``chosen`` maps the seats that have chosen to their (secret) choice.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from .errors import DragonlairError, UnknownAction
from .manifest import manifest
from .rng import Rng, derive_seed, mix64
from .state import GAME_OVER, NOT_TAKING_PART, SERVICES, Game, State

POSITION_FORMAT = "dragonlair.position/1"
HEADER = ("format", "game", "players", "options", "rules_version")
NOTES = ("title", "source", "notes", "seat", "question")
"""Keys a position may carry for people (a puzzle's title, where it comes from, the seat
it asks about); they are not part of the state."""

T = TypeVar("T")


class BadPosition(DragonlairError, ValueError):
    """A position that cannot be set up; ``field`` names where it is wrong."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"position field {field!r}: {message}")


class PositionCodec(Protocol):
    def write(self, state: Any) -> dict[str, Any]: ...

    def read(self, state: Any, fields: Fields, rng: Rng) -> None: ...


def codec_for(game: Game) -> PositionCodec:
    """The game's position reader and writer: the one its manifest declares."""
    found = manifest(game.spec.id).load_position()
    if found is None:
        raise DragonlairError(f"{game.spec.name} has no position format")
    return found  # type: ignore[return-value]


# ---------------------------------------------------------------------- reading fields


class Fields:
    """The fields of a position, read with checks that name the field on any error.

    Every key must be read (or the position has an unknown field); ``path`` is how errors
    name this table inside the document."""

    def __init__(self, data: Mapping[str, Any], path: str = "") -> None:
        if not isinstance(data, Mapping):
            raise BadPosition(path or "position", f"should be a table, not {data!r}")
        self.data = dict(data)
        self.path = path
        self.seen: set[str] = set()

    def name(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def has(self, key: str) -> bool:
        return key in self.data

    def fail(self, key: str, message: str) -> BadPosition:
        return BadPosition(self.name(key), message)

    def raw(self, key: str, default: Any = ...) -> Any:
        self.seen.add(key)
        if key in self.data:
            return self.data[key]
        if default is not ...:
            return default
        raise self.fail(key, "is missing")

    def number(
        self, key: str, lo: int | None = None, hi: int | None = None, default: Any = ...
    ) -> Any:
        if key not in self.data and default is not ...:
            self.seen.add(key)
            return default
        v = self.raw(key)
        return check_int(self.name(key), v, lo, hi)

    def flag(self, key: str, default: Any = ...) -> Any:
        if key not in self.data and default is not ...:
            self.seen.add(key)
            return default
        v = self.raw(key)
        if not isinstance(v, bool):
            raise self.fail(key, f"should be true or false, not {v!r}")
        return v

    def text(self, key: str, choices: Sequence[str] | None = None, default: Any = ...) -> Any:
        if key not in self.data and default is not ...:
            self.seen.add(key)
            return default
        v = self.raw(key)
        if not isinstance(v, str):
            raise self.fail(key, f"should be a string, not {v!r}")
        if choices is not None and v not in choices:
            raise self.fail(key, f"is {v!r}; expected one of {', '.join(choices)}")
        return v

    def items(self, key: str, default: Any = ..., size: int | None = None) -> Any:
        if key not in self.data and default is not ...:
            self.seen.add(key)
            return default
        v = self.raw(key)
        if not isinstance(v, list):
            raise self.fail(key, f"should be a list, not {v!r}")
        if size is not None and len(v) != size:
            raise self.fail(key, f"should have {size} entries (one per seat), not {len(v)}")
        return v

    def sub(self, key: str, default: Any = ...) -> Any:
        if key not in self.data and default is not ...:
            self.seen.add(key)
            return default
        v = self.raw(key)
        return Fields(v, self.name(key))

    def seat(self, key: str, players: int, default: Any = ...) -> Any:
        return self.number(key, 0, players - 1, default)

    def finish(self) -> None:
        extra = sorted(set(self.data) - self.seen)
        if extra:
            raise self.fail(extra[0], "is not a field of this game's positions")


def check_int(name: str, v: object, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise BadPosition(name, f"should be a whole number, not {v!r}")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        span = f"{lo}..{hi}" if hi is not None else f"at least {lo}"
        raise BadPosition(name, f"is {v}; expected {span}")
    return v


def names_to_ids(name: str, items: object, lookup: Callable[[object], T | None]) -> list[T]:
    """A list of component names (or numbers) read with ``lookup``; errors name the entry."""
    if not isinstance(items, list):
        raise BadPosition(name, f"should be a list, not {items!r}")
    out = []
    for i, item in enumerate(items):
        found = lookup(item)
        if found is None:
            raise BadPosition(f"{name}[{i}]", f"{item!r} is not a component of this game")
        out.append(found)
    return out


class Pool:
    """The components that are still unplaced while a position is read: taking one twice,
    or one that is not in the game, is an error naming the field; ``deal`` hands out the
    rest at random for the parts a position leaves out."""

    def __init__(self, components: Iterable[Any], label: Callable[[Any], str] = str) -> None:
        self.left: dict[Any, int] = {}
        for c in components:
            self.left[c] = self.left.get(c, 0) + 1
        self.total = dict(self.left)
        self.label = label
        self.where: dict[Any, str] = {}

    def take(self, name: str, items: Iterable[Any]) -> None:
        for c in items:
            n = self.left.get(c, 0)
            if n == 0:
                if c not in self.total:
                    raise BadPosition(name, f"{self.label(c)} is not in the game")
                twice = self.where.get(c, name)
                extra = "" if self.total[c] == 1 else f" (the game has {self.total[c]})"
                raise BadPosition(
                    name, f"{self.label(c)} is already placed in {twice}{extra}: a card twice"
                )
            self.left[c] = n - 1
            self.where[c] = name

    def remaining(self) -> list[Any]:
        out = []
        for c, n in self.left.items():
            out.extend([c] * n)
        return out

    def part(
        self, name: str, raw: object, lookup: Callable[[object], Any], default: int | None = None
    ) -> list[Any] | int:
        """A hidden part written either as its components (taken now) or as how many there
        are (a number, or left out when ``default`` says how many): dealt later with
        :meth:`deal`, once every part given in full is taken."""
        if raw is None and default is not None:
            return default
        if isinstance(raw, int) and not isinstance(raw, bool):
            return check_int(name, raw, 0)
        items = names_to_ids(name, raw, lookup)
        self.take(name, items)
        return items

    def fill(self, name: str, part: list[Any] | int, rng: Rng) -> list[Any]:
        """``part`` as components: as given, or ``part`` of them dealt at random."""
        return part if isinstance(part, list) else self.deal(name, part, rng)

    def deal(self, name: str, count: int, rng: Rng) -> list[Any]:
        rest = self.remaining()
        if count > len(rest):
            raise BadPosition(name, f"needs {count} more components, only {len(rest)} are left")
        rng.shuffle(rest)
        chosen = rest[:count]
        self.take(name, chosen)
        return chosen


# ---------------------------------------------------------------------- documents


def parse(source: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    """A position document from TOML or JSON text, or a dict."""
    if isinstance(source, Mapping):
        return dict(source)
    if isinstance(source, bytes):
        try:
            source = source.decode("utf-8")
        except UnicodeDecodeError as e:
            raise BadPosition("position", f"is not UTF-8 text: {e}") from None
    if not isinstance(source, str):
        raise BadPosition("position", f"should be TOML or JSON text, not {type(source).__name__}")
    text = source.strip()
    if text.startswith("{"):
        try:
            doc = json.loads(text)
        except ValueError as e:
            raise BadPosition("position", f"is not valid JSON: {e}") from None
        if not isinstance(doc, dict):
            raise BadPosition("position", "should be a JSON object")
        return doc
    try:
        return tomllib.loads(source)
    except tomllib.TOMLDecodeError as e:
        raise BadPosition("position", f"is not valid TOML: {e}") from None


def build(game: Game, doc: Mapping[str, Any], seed: int | None = None) -> State:
    """The state of ``doc`` for an already made ``game`` (whose players and options the
    header must agree with)."""
    import os

    doc = dict(doc)
    fmt = doc.get("format", POSITION_FORMAT)
    if fmt != POSITION_FORMAT:
        raise BadPosition("format", f"is {fmt!r}; expected {POSITION_FORMAT!r}")
    if doc.get("game", game.spec.id) != game.spec.id:
        raise BadPosition("game", f"is {doc.get('game')!r}; expected {game.spec.id!r}")
    if doc.get("players", game.players) != game.players:
        raise BadPosition("players", f"is {doc.get('players')!r}; this table has {game.players}")
    version = doc.get("rules_version", game.spec.rules_version)
    if version != game.spec.rules_version:
        raise BadPosition(
            "rules_version",
            f"is {version!r}; these are {game.spec.name} rules version {game.spec.rules_version}",
        )
    options = doc.get("options", {})
    if not isinstance(options, Mapping):
        raise BadPosition("options", f"should be a table, not {options!r}")
    for k, v in options.items():
        if game.options.get(k, ...) != v:
            raise BadPosition(f"options.{k}", f"is {v!r}; this table plays {game.options.get(k)!r}")
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "big") >> 1
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ValueError(f"seed must be an integer from 0 to 2**63-1, not {seed!r}")
    codec = codec_for(game)
    state = game.state_class._blank(game, seed, mix64(seed))
    body = {k: v for k, v in doc.items() if k not in HEADER and k not in NOTES}
    chosen = body.pop("chosen", None)
    check_phase(game, body.get("phase"))
    fields = Fields(body)
    codec.read(state, fields, Rng(derive_seed(seed, 0x7051)))
    fields.finish()
    check_phase(game, state.phase)
    if chosen is not None:
        _read_chosen(state, chosen)
    try:
        state.check_invariants()
    except AssertionError as e:
        raise BadPosition("position", f"is impossible: {e}") from None
    for seat in state.to_act:
        if not state.legal_actions(seat):
            raise BadPosition("phase", f"seat {seat} is asked to act but has no legal action")
    state._legal = None
    state._origin = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    return state


def check_phase(game: Game, phase: object) -> None:
    """Refuse ``phase`` as a position's unless it is one of the phases ``game`` declares
    (``Game.phases``) in which a game is still in progress; None (no ``phase`` key) is left
    to the game's position format to refuse or fill in."""
    if phase is None:
        return
    playing = [p for p in game.phases if p != GAME_OVER]
    if phase == GAME_OVER:
        raise BadPosition("phase", "a position is of a game in progress")
    if phase not in playing:
        raise BadPosition("phase", f"is {phase!r}; expected one of {', '.join(playing)}")


def _read_chosen(state: State, raw: object) -> None:
    """Choices already made in a simultaneous choice: ``{seat: "action"}``."""
    ch = state._choices
    if ch is None:
        raise BadPosition("chosen", f"there is no simultaneous choice in phase {state.phase!r}")
    if not isinstance(raw, Mapping):
        raise BadPosition("chosen", f"should be a table of seat = action, not {raw!r}")
    for key, text in raw.items():
        name = f"chosen.{key}"
        try:
            seat = int(key)
        except (TypeError, ValueError):
            raise BadPosition(name, "should be a seat number") from None
        if seat not in state._to_act:
            raise BadPosition(name, f"seat {seat} is not choosing now")
        if not isinstance(text, str):
            raise BadPosition(name, f"should be an action, not {text!r}")
        try:
            aid = state.game.table.ids[state.game.table.parse(text)]
        except UnknownAction as e:
            raise BadPosition(name, str(e)) from None
        if aid not in state._legal_ids(seat):
            raise BadPosition(name, f"{text} is not a legal choice for seat {seat}")
        ch[seat] = aid
        state._to_act = tuple(s for s in state._to_act if s != seat)
    if not state._to_act:
        raise BadPosition("chosen", "every seat has chosen: the choice would be over")


def to_position(state: State) -> dict[str, Any]:
    """``state`` in its game's position format (JSON and TOML ready: no nulls)."""
    if state.is_over:
        raise DragonlairError("the game is over: a position is of a game in progress")
    g = state.game
    out: dict[str, Any] = {"format": POSITION_FORMAT, "game": g.spec.id, "players": g.players}
    options = {
        k: v for k, v in g.options.items() if v is not None and v != g.spec.option(k).default
    }
    if options:
        out["options"] = options
    out.update(codec_for(g).write(state))
    ch = state._choices
    if ch is not None:
        made = {
            str(s): str(g.table.actions[c])
            for s, c in enumerate(ch)
            if c is not None and c != NOT_TAKING_PART and c >= 0
        }
        if made:
            out["chosen"] = made
    return out


def to_toml(doc: Mapping[str, Any]) -> str:
    """A position document as TOML, compact enough to read and edit: one line per field,
    lists and small tables inline, a list of tables one entry per line. Whatever this
    layout cannot write exactly (it is checked by reading it back) is written by
    ``tomli-w`` instead."""
    plain, tables = [], []
    for key, value in doc.items():
        if isinstance(value, Mapping):
            tables.append((key, value))
        else:
            plain.append(f"{_key(key)} = {_inline(value, top=True)}")
    for key, value in tables:
        plain.append(f"\n[{_key(key)}]")
        plain.extend(f"{_key(k)} = {_inline(v, top=True)}" for k, v in value.items())
    text = "\n".join(plain) + "\n"
    try:
        if tomllib.loads(text) == dict(doc):
            return text
    except tomllib.TOMLDecodeError:
        pass
    import tomli_w  # only here: the rules engine itself needs nothing beyond the standard library

    return tomli_w.dumps(dict(doc))


def _key(key: object) -> str:
    k = str(key)
    return k if k and all(c.isalnum() or c in "_-" for c in k) and k.isascii() else json.dumps(k)


def _inline(value: Any, top: bool = False) -> str:
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_inline(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        if top and value and all(isinstance(v, Mapping | list) for v in value):
            lines = [f"    {_inline(v)}," for v in value]
            return "[\n" + "\n".join(lines) + "\n]"
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    return json.dumps(value)


def open_turn(state: State, seats: Sequence[int]) -> None:
    """For a game's ``read``: ``seats`` act now, one at a time."""
    state._to_act = tuple(seats)


def open_choice(state: State, seats: Sequence[int]) -> None:
    """For a game's ``read``: ``seats`` are asked for a simultaneous choice (the ones that
    have already chosen are read from ``chosen`` afterwards)."""
    state._open_choice(seats)


def open_window(state: State, seats: Sequence[int], default_aid: int) -> None:
    """For a game's ``read``: ``seats`` are asked in order (an offer or reaction window)."""
    if not state._open_window(seats, default_aid):
        raise BadPosition("to_act", "a window needs at least one seat to ask")


def window_seats(state: State) -> list[int]:
    """For a game's ``write``: the seat asked now and those still to be asked, in order."""
    return [*state._to_act, *state._window]


SERVICES.to_position = to_position
