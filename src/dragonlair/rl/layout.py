"""Observation layouts: a game's view, turned into a fixed-size tensor for learning.

A :class:`Layout` is a list of named :class:`Feature` s. Each feature declares its size,
what it means in words, and how its numbers are computed **from a seat's view** (the
game's typed view ``state.seat_view(seat)``, see :mod:`dragonlair.core.views`), never from
a state's fields: the view is the engine's single door for hidden information, so a
tensor built from it cannot leak what the seat may not know. The same definition gives
the tensor (:meth:`Encoder.encode`) and the table of offsets, sizes and meanings in
``docs/rl.md`` (:meth:`Encoder.markdown`), so the documentation cannot drift from the
code; a test compares them.

A feature computes its numbers one of two ways. ``encode(view, ctx)`` returns them as a
list, read from the view's keys or attributes: the plain way, for a handful of numbers.
``write(view, ctx, out, at)`` writes only the numbers that are not zero, into ``out`` (the
tensor's float32 memory, zeroed) from position ``at``: the way of a wide block that is
mostly zeros (a one-hot, a card per slot), which then costs only what it holds. Either
reads the typed view's attributes, the cheap way in (its keys are built when first read).

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

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias, TypeVar

import numpy as np
import numpy.typing as npt

from ..core import DragonlairError, Game, GameManifest, UnknownGame, manifest, manifests
from ..core.views import View, view_class

Values = Sequence[float] | npt.NDArray[np.float32]
# a tensor's memory as the features write it: float32 numbers, flat (Encoder.writable)
Out: TypeAlias = "memoryview[float]"
T = TypeVar("T")


class NoLayout(DragonlairError, LookupError):
    """A game that has no observation layout, so no RL interface can be made for it."""


class LayoutError(DragonlairError, ValueError):
    """A layout that is malformed, or whose feature gave the wrong number of values."""


class Context:
    """What an encoder knows besides the view: the game (its data and options, never a
    state), the observing seat and the table size. An encoder makes one per seat and
    keeps it, so what follows from the seat (the order of the seats) is worked out once."""

    __slots__ = ("_pad", "game", "max_players", "memo", "order", "players", "seat")

    def __init__(self, game: Game, seat: int) -> None:
        self.game = game
        self.seat = seat
        self.players: int = game.players
        self.max_players: int = game.spec.max_players
        # the seats at the table, observer first, then clockwise
        self.order = tuple((seat + k) % self.players for k in range(self.players))
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

    def per_seat(self, by_seat: Sequence[float]) -> list[float]:
        """Values given by seat number, rotated observer first and padded with zeros to
        the game's maximum player count (for a feature that returns its values)."""
        return [float(by_seat[s]) for s in self.order] + self._pad

    def seat_one_hot(self, seat: int | None) -> list[float]:
        """A one-hot slot for ``seat`` relative to the observer (all zeros for None or -1)."""
        out = [0.0] * self.max_players
        if seat is not None and seat >= 0:
            out[self.rel(seat)] = 1.0
        return out


Size = int | Callable[[Game], int]
# A game's features read that game's typed view (a View subclass), which a Callable over
# the generic View could not accept; the layout module of each game types them.
Encode = Callable[[Any, Context], Values]
Write = Callable[[Any, Context, Out, int], None]


@dataclass(frozen=True)
class Feature:
    """One named block of the tensor: its size (a number, or computed from the game's data
    and options), its meaning in words, and how it is computed from a view: ``encode``
    returns its values, or ``write`` writes those that are not zero (exactly one of the
    two; see the module docstring)."""

    name: str
    size: Size
    meaning: str
    encode: Encode | None = None
    write: Write | None = None

    def __post_init__(self) -> None:
        if (self.encode is None) == (self.write is None):
            raise LayoutError(
                f"feature {self.name!r} needs exactly one of encode (its values) and write "
                "(its values that are not zero)"
            )

    def __reduce__(
        self,
    ) -> tuple[type[Feature], tuple[str, Size, str, Encode | None, Write | None]]:
        # a compiled frozen dataclass cannot be unpickled field by field (its
        # __setstate__ meets the frozen __setattr__), so it pickles as its arguments
        return (Feature, (self.name, self.size, self.meaning, self.encode, self.write))

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
        plan: list[tuple[Write | None, Encode | None, int, int]] = []
        offset = 0
        for f in layout.features:
            n = f.size_for(game)
            rows.append(Row(offset, n, f.name, f.meaning))
            plan.append((f.write, f.encode, offset, n))
            offset += n
        self.rows = tuple(rows)
        self.size = offset
        self._plan = tuple(plan)
        self._contexts = tuple(Context(game, seat) for seat in range(game.players))
        # what a tensor's row is cleared with before it is written
        self._zeros = memoryview(bytes(4 * offset)).cast("f")
        # the game's typed view class (None: its views are JSON dicts)
        self._typed: type[View[Any]] | None = view_class(game)

    def encode(
        self, view: Mapping[str, Any], out: npt.NDArray[np.float32] | None = None
    ) -> npt.NDArray[np.float32]:
        """The tensor of one seat's view, as ``state.seat_view(seat)`` gives it (the
        game's typed view; a game without one, its JSON view): float32, every value in
        [0, 1]. Written into ``out`` when given (a row of a batch, say)."""
        typed = self._typed
        if typed is not None:
            if not isinstance(view, typed):
                raise LayoutError(
                    f"observations of {self.game.spec.name} are made from its typed view "
                    f"(state.seat_view(seat)); got a {type(view).__name__}"
                )
            seat: object = view.seat
        else:
            if not isinstance(view, Mapping) or view.get("game") != self.game.spec.id:
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
        flags = out.flags
        if out.dtype == np.float32 and flags.c_contiguous and flags.writeable:
            self.encode_row(view, seat, self.writable(out), 0)
        else:
            tensor = np.empty(self.size, dtype=np.float32)
            self.encode_row(view, seat, self.writable(tensor), 0)
            out[:] = tensor
        return out

    def batch(self, rows: int) -> npt.NDArray[np.float32]:
        """A zeroed batch of ``rows`` tensors, (rows, size) float32, for :meth:`encode_row`
        (through :meth:`writable`)."""
        return np.zeros((rows, self.size), dtype=np.float32)

    @staticmethod
    def writable(tensors: npt.NDArray[np.float32]) -> Out:
        """The memory of a C-contiguous float32 array (one tensor, or a batch of them) as
        :meth:`encode_row` writes it: flat float32 numbers. Made once per array and kept."""
        if tensors.dtype != np.float32 or not tensors.flags.c_contiguous:
            raise LayoutError("tensors are written into a C-contiguous float32 array")
        return tensors.data.cast("B").cast("f")

    def encode_row(self, view: Mapping[str, Any], seat: int, out: Out, row: int) -> None:
        """Write the tensor of ``seat``'s view into row ``row`` of ``out`` (a batch of
        tensors as :meth:`writable` gives it), allocating nothing but the row's own
        memoryview: the environments' path, which made ``view`` with
        ``state.seat_view(seat)`` themselves, so the checks of :meth:`encode` on where a
        view came from are left out."""
        size = self.size
        at = row * size
        # the row on its own, so that the features' positions are small numbers (Python
        # keeps one object for each int below 257: no int is made for most writes)
        tensor = out[at : at + size]
        tensor[:] = self._zeros
        ctx = self._contexts[seat]
        ctx.memo.clear()
        for write, encode, offset, n in self._plan:
            if write is not None:
                write(view, ctx, tensor, offset)
            elif encode is not None:
                values = encode(view, ctx)
                if len(values) != n:
                    self._wrong_size(offset, len(values))
                k = offset
                for x in values:
                    if x:
                        tensor[k] = x
                    k += 1

    def _wrong_size(self, offset: int, got: int) -> None:
        r = next(r for r in self.rows if r.offset == offset)
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


# The shared features read what every view has: from a typed view's attributes, or from
# the keys of the JSON view of a game that has no typed view.


def _phase_of(view: Mapping[str, Any]) -> str:
    return view.phase if isinstance(view, View) else view["phase"]


def _to_act_of(view: Mapping[str, Any]) -> Sequence[int]:
    return view.to_act if isinstance(view, View) else view["to_act"]


def _window_of(view: Mapping[str, Any]) -> Sequence[int] | None:
    if isinstance(view, View):
        return view.window_next
    window = view.get("window")
    return None if window is None else window["next"]


def _choosing_of(view: Mapping[str, Any]) -> Sequence[int] | None:
    return view.choosing if isinstance(view, View) else view.get("choosing")


def phase_feature(phases: Sequence[str]) -> Feature:
    """One-hot of the view's ``phase`` among the game's ``phases`` (the last being over)."""
    index = {p: i for i, p in enumerate(phases)}

    def write(view: Mapping[str, Any], ctx: Context, out: Out, at: int) -> None:
        phase = _phase_of(view)
        i = index.get(phase)
        if i is None:
            raise LayoutError(f"unknown phase {phase!r}; the layout knows {list(phases)}")
        out[at + i] = 1.0

    return Feature(
        "phase",
        len(phases),
        "one-hot phase: " + ", ".join(f"`{p}`" for p in phases),
        write=write,
    )


def _acting(view: Mapping[str, Any], ctx: Context, out: Out, at: int) -> None:
    if ctx.seat in _to_act_of(view):
        out[at] = 1.0


def acting_feature() -> Feature:
    """1 when the observer must act now."""
    return Feature("acting", 1, "1 if the observer must act now", write=_acting)


def _max_players(game: Game) -> int:
    return game.spec.max_players


def _seats(view: Mapping[str, Any], ctx: Context, out: Out, at: int) -> None:
    for k in range(ctx.players):
        out[at + k] = 1.0


def seats_feature() -> Feature:
    """Which seat slots are at the table (so, the number of players)."""
    return Feature(
        "seats",
        _max_players,
        "per seat (observer first, clockwise; one slot per seat up to the most players): "
        "1 if that seat is at the table",
        write=_seats,
    )


def write_seat(seat: int | None, ctx: Context, out: Out, at: int) -> None:
    """A 1 in the slot of ``seat`` (observer first) of the per-seat block at ``at``;
    nothing for None or -1 (no seat)."""
    if seat is not None and seat >= 0:
        out[at + (seat - ctx.seat) % ctx.players] = 1.0


def write_ids(ids: tuple[int, ...] | None, out: Out, at: int) -> None:
    """A 1 for each of ``ids`` (card ids, counted from 1) in the block at ``at``."""
    for i in ids or ():
        out[at + i - 1] = 1.0


def write_seats(seats: Iterable[int], ctx: Context, out: Out, at: int) -> None:
    """A 1 in the slot of each of ``seats`` (observer first) of the per-seat block at ``at``."""
    players = ctx.players
    me = ctx.seat
    for s in seats:
        out[at + (s - me) % players] = 1.0


def write_per_seat(by_seat: Sequence[int], most: int, ctx: Context, out: Out, at: int) -> None:
    """A per-seat block (observer first) of the counts ``by_seat`` (by seat number), each
    over ``most`` (not 0); the zeros are left as they are."""
    k = at
    for s in ctx.order:
        x = by_seat[s]
        if x:
            out[k] = x / most
        k += 1


def write_per_seat_in_range(
    by_seat: Sequence[int], low: int, high: int, ctx: Context, out: Out, at: int
) -> None:
    """A per-seat block (observer first) of the values ``by_seat`` (by seat number), each
    placed between ``low`` (0) and ``high`` (1), and kept within them."""
    k = at
    for s in ctx.order:
        x = min(1.0, max(0.0, ratio(by_seat[s] - low, high - low)))
        if x:
            out[k] = x
        k += 1


def _to_act(view: Mapping[str, Any], ctx: Context, out: Out, at: int) -> None:
    write_seats(_to_act_of(view), ctx, out, at)


def to_act_feature() -> Feature:
    """Which seats must act now, observer first."""
    return Feature("to_act", _max_players, "per seat: 1 if that seat must act now", write=_to_act)


def _window(view: Mapping[str, Any], ctx: Context, out: Out, at: int) -> None:
    window = _window_of(view)
    if window is not None:
        write_seats(window, ctx, out, at)


def window_feature() -> Feature:
    """The seats still to be asked in an offer or reaction window after the current one."""
    return Feature(
        "window_next",
        _max_players,
        "per seat: 1 if that seat will still be asked in the open offer or reaction window",
        write=_window,
    )


def _choosing(view: Mapping[str, Any], ctx: Context, out: Out, at: int) -> None:
    choosing = _choosing_of(view)
    if choosing is not None:
        waiting = _to_act_of(view)
        chosen = at + ctx.max_players
        players = ctx.players
        for s in choosing:
            r = (s - ctx.seat) % players
            out[at + r] = 1.0
            if s not in waiting:
                out[chosen + r] = 1.0


def choosing_feature() -> Feature:
    """The seats taking part in the open simultaneous choice, and whether each has chosen."""
    return Feature(
        "choosing",
        lambda g: 2 * g.spec.max_players,
        "per seat: 1 if that seat takes part in the open secret choice; then per seat: 1 if "
        "it has already chosen (what it chose stays hidden)",
        write=_choosing,
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
