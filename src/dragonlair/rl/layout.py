"""Observation layouts: a game's view, turned into a fixed-size tensor for learning.

A :class:`Layout` is a list of named :class:`Feature` s. Each feature declares its size,
what it means in words, and how its numbers are computed **from a seat's view** (the
JSON-ready dict ``state.view(seat)``), never from a state's fields: the view is the
engine's single door for hidden information, so a tensor built from it cannot leak what
the seat may not know. The same definition gives the tensor (:meth:`Encoder.encode`) and
the table of offsets, sizes and meanings in ``docs/rl.md`` (:meth:`Encoder.markdown`), so
the documentation cannot drift from the code; a test compares them.

Conventions every layout follows:

- **Observer first.** Everything about seats is rotated so that the observing seat comes
  first, then the others clockwise (seat + 1, seat + 2, ...). A per-seat feature has one
  slot per seat up to the game's *maximum* player count, with zeros for seats that are not
  at the table, so one tensor shape serves every player count of a game (the ``seats``
  feature says which slots are filled).
- **Every number lies in [0, 1]**: counts and amounts are divided by the most they can be
  (taken from the game's data, e.g. all the gems in the box), categories are one-hot. The
  observation spaces of the PettingZoo and Gymnasium environments are ``Box(0, 1)``.
- Sizes may depend on the game's data and options (a user's data file may have more
  stripes), never on a state; the table in the docs is for the built-in data at the
  game's maximum player count.

A layout also says whether its game has simultaneous secret choices (picks, sealed bids):
such a game is registered with OpenSpiel as a simultaneous-move game (with a turn-based
twin for search) and gets a PettingZoo Parallel environment.

A game declares its layout in its manifest (``layout="module:LAYOUT"``, see
:mod:`dragonlair.core.manifest`; the four games' live in :mod:`dragonlair.rl.layouts`) and
:func:`layout_for` finds it by game id; a game whose manifest says ``layout=None`` is not
offered to the RL libraries.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from ..core import DragonlairError, Game, GameManifest, UnknownGame, manifest, manifests

View = Mapping[str, Any]
Values = Sequence[float] | npt.NDArray[np.float32]
T = TypeVar("T")


class NoLayout(DragonlairError, LookupError):
    """A game that has no observation layout, so no RL interface can be made for it."""


class LayoutError(DragonlairError, ValueError):
    """A layout that is malformed, or whose feature gave the wrong number of values."""


class Context:
    """What an encoder knows besides the view: the game (its data and options, never a
    state), the observing seat and the table size. An encoder makes one per seat and
    keeps it, so what follows from the seat (the order of the seats) is worked out once."""

    __slots__ = ("_order", "_pad", "game", "max_players", "memo", "players", "seat")

    def __init__(self, game: Game, seat: int) -> None:
        self.game = game
        self.seat = seat
        self.players: int = game.players
        self.max_players: int = game.spec.max_players
        self._order = tuple((seat + k) % self.players for k in range(self.players))
        self._pad = [0.0] * (self.max_players - self.players)
        # what the features of one encoding share (a figure two features read, kept
        # with the view it is for), emptied by the encoder before each encoding
        self.memo: dict[str, Any] = {}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Context) and other.game is self.game and other.seat == self.seat

    def __hash__(self) -> int:
        return hash((id(self.game), self.seat))

    def __repr__(self) -> str:
        return f"Context({self.game!r}, seat={self.seat})"

    def __reduce__(self) -> tuple[type[Context], tuple[Game, int]]:
        # made again from its game and seat, in both builds (a compiled class would
        # be unpickled without calling __init__)
        return (Context, (self.game, self.seat))

    def rel(self, seat: int) -> int:
        """Where ``seat`` sits counted clockwise from the observer (the observer is 0)."""
        return (seat - self.seat) % self.players

    def seats(self) -> list[int]:
        """The seats at the table, observer first, then clockwise."""
        return list(self._order)

    def per_seat(self, by_seat: Sequence[float]) -> list[float]:
        """Values given by seat number, rotated observer first and padded with zeros to
        the game's maximum player count."""
        return [float(by_seat[s]) for s in self._order] + self._pad

    def in_order(self, by_seat: Sequence[T]) -> list[T]:
        """Items given by seat number, rotated observer first (not padded)."""
        return [by_seat[s] for s in self._order]

    @property
    def pad(self) -> list[float]:
        """The zeros that pad a per-seat block from the table size to the most players
        (a shared list: extend with it, never change it)."""
        return self._pad

    def seat_one_hot(self, seat: int | None) -> list[float]:
        """A one-hot slot for ``seat`` relative to the observer (all zeros for None or -1)."""
        out = [0.0] * self.max_players
        if seat is not None and seat >= 0:
            out[self.rel(seat)] = 1.0
        return out


Size = int | Callable[[Game], int]
# A game's encoders read that game's declared view type (a TypedDict on the core's
# BaseView), which a Callable over the generic View could not accept; the layout module
# of each game types them (its ``View`` is its game's view type).
Encode = Callable[[Any, Context], Values]


@dataclass(frozen=True)
class Feature:
    """One named block of the tensor: its size (a number, or computed from the game's data
    and options), its meaning in words, and how it is computed from a view."""

    name: str
    size: Size
    meaning: str
    encode: Encode

    def __reduce__(self) -> tuple[type[Feature], tuple[str, Size, str, Encode]]:
        # a compiled frozen dataclass cannot be unpickled field by field (its
        # __setstate__ meets the frozen __setattr__), so it pickles as its arguments
        return (Feature, (self.name, self.size, self.meaning, self.encode))

    def size_for(self, game: Game) -> int:
        """The block's size in ``game``."""
        n = self.size(game) if callable(self.size) else self.size
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise LayoutError(f"feature {self.name!r} has size {n!r}; expected a positive int")
        return n


@dataclass(frozen=True)
class Row:
    """One line of a layout's table: where a feature sits in the tensor and what it means."""

    offset: int
    size: int
    name: str
    meaning: str

    def __reduce__(self) -> tuple[type[Row], tuple[int, int, str, str]]:
        return (Row, (self.offset, self.size, self.name, self.meaning))  # as Feature's


class Layout:
    """A game's observation layout: its features in order."""

    def __init__(
        self, game_id: str, features: Sequence[Feature], *, simultaneous: bool = False
    ) -> None:
        names = [f.name for f in features]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise LayoutError(f"layout for {game_id!r} names a feature twice: {twice}")
        if not features:
            raise LayoutError(f"layout for {game_id!r} has no features")
        self.game_id = game_id
        self.features = tuple(features)
        self.simultaneous = simultaneous

    def bind(self, game: Game) -> Encoder:
        """The encoder for ``game`` (its player count, options and data)."""
        if game.spec.id != self.game_id:
            raise LayoutError(f"layout for {self.game_id!r} cannot encode {game.spec.id!r}")
        return Encoder(self, game)

    def __repr__(self) -> str:
        return f"<Layout {self.game_id} {len(self.features)} features>"


class Encoder:
    """A layout bound to one game: fixed offsets and size, and the encoding itself."""

    def __init__(self, layout: Layout, game: Game) -> None:
        self.layout = layout
        self.game = game
        rows: list[Row] = []
        offset = 0
        for f in layout.features:
            n = f.size_for(game)
            rows.append(Row(offset, n, f.name, f.meaning))
            offset += n
        self.rows = tuple(rows)
        self.size = offset
        self._encoders = tuple(f.encode for f in layout.features)
        self._contexts = tuple(Context(game, seat) for seat in range(game.players))
        # the whole tensor written in one call, straight into the output's memory
        self._pack = struct.Struct(f"{self.size}f").pack_into

    def encode(
        self, view: View, out: npt.NDArray[np.float32] | None = None
    ) -> npt.NDArray[np.float32]:
        """The tensor of one seat's view (float32, every value in [0, 1]); written into
        ``out`` when given (a row of a batch, say: nothing else is allocated then)."""
        is_view = type(view) is dict or isinstance(view, Mapping)  # a dict: no ABC check
        if not is_view or view.get("game") != self.game.spec.id:
            raise LayoutError(f"not a view of {self.game.spec.name}")
        seat = view.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise LayoutError(
                f"observations are made from a seat's view; got a view for seat {seat!r}"
            )
        if out is None:
            out = np.empty(self.size, dtype=np.float32)
        elif out.shape != (self.size,):
            raise LayoutError(f"output array has shape {out.shape}; expected ({self.size},)")
        if not 0 <= seat < self.game.players:
            raise LayoutError(f"no seat {seat} at a table of {self.game.players}")
        values = self._values(view, seat)
        flags = out.flags
        if out.dtype == np.float32 and flags.c_contiguous and flags.writeable:
            self._pack(out.data, 0, *values)
        else:
            out[:] = values
        return out

    def batch(self, rows: int) -> npt.NDArray[np.float32]:
        """A zeroed batch of ``rows`` tensors, (rows, size) float32, for :meth:`encode_row`."""
        return np.zeros((rows, self.size), dtype=np.float32)

    def encode_row(self, view: View, seat: int, batch: npt.NDArray[np.float32], row: int) -> None:
        """Write the tensor of ``seat``'s view into row ``row`` of ``batch`` (made by
        :meth:`batch`, or a C-contiguous float32 array of one tensor and row 0), in one
        call and allocating nothing else: the environments' path, which made ``view``
        with ``state.view(seat)`` themselves, so the checks of :meth:`encode` on where a
        view came from are left out."""
        self._pack(batch.data, 4 * self.size * row, *self._values(view, seat))

    def _values(self, view: View, seat: int) -> list[float]:
        ctx = self._contexts[seat]
        ctx.memo.clear()
        values: list[float] = []
        for encode in self._encoders:
            values += encode(view, ctx)
        if len(values) != self.size:  # one check of the total; then the culprit is found
            self._wrong_size(view, ctx)
        return values

    def _wrong_size(self, view: View, ctx: Context) -> None:
        for f, r in zip(self.layout.features, self.rows, strict=True):
            got = len(f.encode(view, ctx))
            if got != r.size:
                raise LayoutError(
                    f"{self.game.spec.name} feature {r.name!r} gave {got} values; "
                    f"its declared size is {r.size}"
                )

    def slices(self) -> dict[str, slice]:
        """Each feature's slice of the tensor, by name."""
        return {r.name: slice(r.offset, r.offset + r.size) for r in self.rows}

    def markdown(self) -> str:
        """The table of offsets, sizes and meanings, as it appears in docs/rl.md."""
        lines = ["| offset | size | feature | meaning |", "|---:|---:|---|---|"]
        for r in self.rows:
            lines.append(f"| {r.offset} | {r.size} | `{r.name}` | {r.meaning} |")
        lines.append(f"| | **{self.size}** | | total |")
        return "\n".join(lines)


# ---------------------------------------------------------------------- the registry


def layout_for(game_id: str) -> Layout:
    """The layout ``game_id``'s manifest declares; NoLayout says which games have one."""
    try:
        m: GameManifest | None = manifest(game_id)
    except UnknownGame:
        m = None
    layout = None if m is None else m.load_layout()
    if m is None or layout is None:
        raise NoLayout(
            f"no observation layout for {game_id!r}; layouts exist for: "
            f"{', '.join(layout_ids()) or 'none'} (a game declares one in its manifest)"
        )
    if not isinstance(layout, Layout) or layout.game_id != game_id:
        raise LayoutError(f"{game_id}'s manifest layout {m.layout} is not a Layout for it")
    return layout


def layout_ids() -> list[str]:
    """The ids of the games whose manifests declare a layout."""
    return [m.id for m in manifests() if m.layout is not None]


def encoder_for(game: Game) -> Encoder:
    """The encoder of ``game``'s layout, bound to its players, options and data."""
    return layout_for(game.spec.id).bind(game)


# ---------------------------------------------------------------------- shared features


def phase_feature(phases: Sequence[str]) -> Feature:
    """One-hot of the view's ``phase`` among the game's ``phases`` (the last being over)."""
    index = {p: i for i, p in enumerate(phases)}
    n = len(phases)

    def encode(view: View, ctx: Context) -> list[float]:
        out = [0.0] * n
        i = index.get(view["phase"])
        if i is None:
            raise LayoutError(f"unknown phase {view['phase']!r}; the layout knows {list(phases)}")
        out[i] = 1.0
        return out

    return Feature("phase", n, "one-hot phase: " + ", ".join(f"`{p}`" for p in phases), encode)


def acting_feature() -> Feature:
    """1 when the observer must act now."""
    return Feature(
        "acting",
        1,
        "1 if the observer must act now",
        lambda v, c: [1.0 if c.seat in v["to_act"] else 0.0],
    )


def _max_players(game: Game) -> int:
    return game.spec.max_players


def seats_feature() -> Feature:
    """Which seat slots are at the table (so, the number of players)."""
    return Feature(
        "seats",
        _max_players,
        "per seat (observer first, clockwise; one slot per seat up to the most players): "
        "1 if that seat is at the table",
        lambda v, c: [1.0] * c.players + [0.0] * (c.max_players - c.players),
    )


def to_act_feature() -> Feature:
    """Which seats must act now, observer first."""

    def encode(view: View, ctx: Context) -> list[float]:
        out = [0.0] * ctx.max_players
        for s in view["to_act"]:
            out[ctx.rel(s)] = 1.0
        return out

    return Feature("to_act", _max_players, "per seat: 1 if that seat must act now", encode)


def window_feature() -> Feature:
    """The seats still to be asked in an offer or reaction window after the current one."""

    def encode(view: View, ctx: Context) -> list[float]:
        out = [0.0] * ctx.max_players
        window = view.get("window")
        if window is not None:
            for s in window["next"]:
                out[ctx.rel(s)] = 1.0
        return out

    return Feature(
        "window_next",
        _max_players,
        "per seat: 1 if that seat will still be asked in the open offer or reaction window",
        encode,
    )


def choosing_feature() -> Feature:
    """The seats taking part in the open simultaneous choice, and whether each has chosen."""

    def encode(view: View, ctx: Context) -> list[float]:
        out = [0.0] * (2 * ctx.max_players)
        choosing = view.get("choosing")
        if choosing is not None:
            waiting = set(view["to_act"])
            for s in choosing:
                out[ctx.rel(s)] = 1.0
                if s not in waiting:
                    out[ctx.max_players + ctx.rel(s)] = 1.0
        return out

    return Feature(
        "choosing",
        lambda g: 2 * g.spec.max_players,
        "per seat: 1 if that seat takes part in the open secret choice; then per seat: 1 if "
        "it has already chosen (what it chose stays hidden)",
        encode,
    )


GAMES_REMEMBERED = 64  # games whose derived facts per_game keeps


def per_game(compute: Callable[[Game], T]) -> Callable[[Game], T]:
    """``compute`` (a fact derived from a game's data and options, such as a scale)
    remembered per game object, so encoders do not redo it for every view. The last
    :data:`GAMES_REMEMBERED` games are kept (a compiled game takes no weak reference)."""
    memo: dict[Game, T] = {}

    def get(game: Game) -> T:
        try:
            return memo[game]
        except KeyError:
            if len(memo) >= GAMES_REMEMBERED:
                del memo[next(iter(memo))]
            value = memo[game] = compute(game)
            return value

    get.__doc__ = compute.__doc__
    return get


def ratio(value: float, most: float) -> float:
    """``value / most``, for a ``most`` that bounds ``value`` by construction (0 if most is 0)."""
    return float(value) / most if most else 0.0


def one_hot(index: int, size: int) -> list[float]:
    """A list of ``size`` zeros with a 1 at ``index`` (all zeros when out of range)."""
    out = [0.0] * size
    if 0 <= index < size:
        out[index] = 1.0
    return out
