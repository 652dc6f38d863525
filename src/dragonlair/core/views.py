"""The declared shape of a view: the part every game's view shares.

A view is a plain JSON-ready dict (that is what goes over the wire and into golden
transcripts), and each game declares its whole shape as a ``TypedDict``
that extends :class:`~dragonlair.core.view_types.BaseView` (``Game.view_type``, in the
game's ``view_types`` module, which stays interpreted in the compiled build). Bots,
layouts and boards read views through that type, so ``mypy --strict`` checks every key
they read; the conformance suite checks at run time that every view a game builds
matches its declared type, key for key and value for value (``check_view``), so the
declaration cannot drift from the code that builds the view.

**Typed views.** A game may also give its views a typed object, a subclass of
:class:`View` (``GameViews.seat_view``, see
:func:`~dragonlair.core.game_views.install_views`): made from the state for one seat, it
keeps only what that seat may see, sharing the state's immutable parts (tuples) and
copying nothing it does not need. It is a read-only mapping with exactly the keys and
values of the declared ``TypedDict`` (its JSON form, :meth:`View.json`, equals
``state.view(seat)``, which the game's ``build_view`` fills directly; the tests hold the
two to each other), but each key is worked out only when first read, so a figure nobody
reads (Space Race's running scores) is never computed; and it has typed attributes for
what bots need without parsing the JSON back (a Space Race ship as its stacks of card
ids). Bots and the RL layouts get it from ``state.seat_view(seat)``; the wire and golden
transcripts get ``state.view(seat)``.
"""

from __future__ import annotations

from collections.abc import (
    Callable,
    ItemsView,
    Iterator,
    KeysView,
    Mapping,
    Sequence,
    ValuesView,
)
from typing import Any, ClassVar, Generic, NoReturn, cast

from mypy_extensions import mypyc_attr

from .game_views import views_of
from .state import G_co, Game, State, base_keys
from .view_types import BaseView


def view_class(game: Game) -> type[View[Any]] | None:
    """The typed view class of ``game``'s states (``State._view_class``), None for a game
    whose views are only JSON dicts."""
    views = views_of(game.state_class)
    found = None if views is None else views.seat_view
    return None if found is None else cast("type[View[Any]]", found)


def seat_of(view: Mapping[str, Any] | View[Any]) -> int:
    """The seat a view is for; ``ValueError`` for a spectator's view (a bot always plays
    a seat, so its view has one)."""
    # a typed view's seat is an attribute: reading its key would build its shared keys
    seat: int | None = view.seat if isinstance(view, View) else view["seat"]
    if seat is None:
        raise ValueError("a spectator's view has no seat to play")
    return seat


def check_view(view: object, view_type: Any) -> None:
    """Raise ``TypeError`` saying what is wrong if ``view`` does not match ``view_type``
    (a ``TypedDict``): a key missing or not declared, or a value of another type, checked
    through every list and dict. Used by the conformance suite (it needs ``typeguard``,
    which the test dependencies install)."""
    from typeguard import CollectionCheckStrategy, TypeCheckError, check_type

    try:
        check_type(view, view_type, collection_check_strategy=CollectionCheckStrategy.ALL_ITEMS)
    except TypeCheckError as e:
        raise TypeError(f"the view does not match {view_type.__name__}: {e}") from None


def own_keys(view_type: Any) -> tuple[str, ...]:
    """The keys a game's view ``TypedDict`` adds to :class:`BaseView`, in declared order
    (a :class:`View` subclass's ``KEYS``)."""
    return tuple(k for k in view_type.__annotations__ if k not in BaseView.__annotations__)


class _Absent:
    """What a key's builder returns for a key this view does not have (``NotRequired``)."""

    __slots__ = ()


ABSENT: Any = _Absent()


@mypyc_attr(allow_interpreted_subclasses=True)
class View(Generic[G_co]):
    """A seat's view as a typed object (see the module docstring).

    A game's subclass captures in ``__init__`` (after calling this one) what the seat
    may see, and names its keys in JSON order in ``KEYS``; for each key ``k`` a method
    ``_k_k`` returns its JSON value (or :data:`ABSENT` when the view has no such key),
    called at most once, on first read. The keys every view shares come first: what they
    are made of is kept as the state held it (its tuples, a copy of its one list), and the
    keys are built only when the mapping is first read, since a bot reading typed
    attributes never needs them. A view never holds the state itself, so it stays what
    the seat saw when it was made.

    It is a read-only :class:`~collections.abc.Mapping` (registered as one, with the
    mapping methods written out here) rather than a subclass of it: the compiled build
    compiles the views, and a compiled class cannot extend an abstract base class of the
    standard library (docs/engine.md, "The compiled build"). It is neither copied nor
    pickled (in either build): a view is cheap to make again from the state, and its JSON
    form (:meth:`json`) is what is kept or sent.
    """

    __slots__ = ("_done", "_game", "_got", "_nbase", "_shared", "phase", "seat")
    KEYS: ClassVar[tuple[str, ...]] = ()
    _game: G_co  # a game's subclass names its game class: View["SpaceRace"]
    _shared: tuple[Any, ...]
    # the keys read so far (a dict; bots.checks puts a read-only decoy mapping there)
    _got: Any
    _done: bool
    _nbase: int
    seat: int | None  # the seat the view is for (None: a spectator)
    phase: str

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _builders_of(cls)  # a missing _k_ method is an error at once

    def __init__(self, state: State[G_co], seat: int | None) -> None:
        # what the keys every view shares are made of; the keys themselves are built on
        # the first read
        self._game = state.game
        self._shared = state._base_figures(seat)
        self._got = None
        self._done = False
        self._nbase = 0
        self.seat = seat
        self.phase = state.phase

    def _read(self) -> dict[str, Any]:
        """The keys read so far, the shared ones first (built now if not yet)."""
        got: dict[str, Any] | None = self._got
        if got is None:
            # the shared keys first, then every game key as it is read (so the first
            # _nbase entries are always the shared ones, in order)
            got = self._got = base_keys(self._game, *self._shared)
            self._nbase = len(got)
        return got

    def __getitem__(self, key: str) -> Any:
        got = self._got
        if got is None:
            got = self._read()
        value = got.get(key, ABSENT)
        if value is ABSENT:
            build = _builders_of(type(self)).get(key)
            if build is None or self._done:
                raise KeyError(key)
            value = got[key] = build(self)
            if value is ABSENT:
                raise KeyError(key)
        return value

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        try:
            self[key]
        except KeyError:
            return False
        return True

    def json(self) -> dict[str, Any]:
        """The view as the JSON-ready dict of the game's declared view type (the wire's
        form): every key, in order. (The same dict each time: copy it
        before changing it.)"""
        got = self._read()
        if self._done:
            return got
        if len(got) == self._nbase:
            out = got  # no game key read yet: add them all in order
        else:
            out = dict(list(got.items())[: self._nbase])
        for key, build in _builders_of(type(self)).items():
            value = got.get(key, ABSENT)
            if value is ABSENT:
                value = build(self)
            if value is not ABSENT:
                out[key] = value
        self._got = out
        self._done = True
        return out

    # what every view shares, typed, read without building its keys (the observation
    # layouts' features read these)

    @property
    def game(self) -> G_co:
        """The game the view is of (its data and options: nothing of a state)."""
        return self._game

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats that must act now (the key ``to_act``)."""
        to_act: tuple[int, ...] = self._shared[3]
        return to_act

    @property
    def choosing(self) -> Sequence[int] | None:
        """The seats taking part in the open simultaneous choice (None: no choice open)."""
        choosing: Sequence[int] | None = self._shared[4]
        return choosing

    @property
    def my_choice(self) -> int | None:
        """The id of the action the seat chose in the open simultaneous choice (None when
        it has not chosen, takes no part, or no choice is open): the key ``my_choice``."""
        mine: int | None = self._shared[5]
        return None if mine is None or mine < 0 else mine

    @property
    def window_next(self) -> tuple[int, ...] | None:
        """The seats still to be asked in the open offer or reaction window after the
        current one (None: no window open): the key ``window``'s ``next``."""
        if self._shared[7] < 0:
            return None
        window: tuple[int, ...] = self._shared[6]
        return window

    def __iter__(self) -> Iterator[str]:
        return iter(self.json())

    def __len__(self) -> int:
        return len(self.json())

    # what Mapping would add, written out (see the class docstring)

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def keys(self) -> KeysView[str]:
        return self.json().keys()

    def values(self) -> ValuesView[Any]:
        return self.json().values()

    def items(self) -> ItemsView[str, Any]:
        return self.json().items()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, View):
            return self.json() == other.json()
        if isinstance(other, Mapping):
            return self.json() == dict(other.items())
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # a mapping is unhashable, as Mapping's are

    def __reduce__(self) -> NoReturn:
        raise TypeError(
            f"a {type(self).__name__} is not copied or pickled: make the view again from "
            "the state (state.seat_view(seat)), or keep its JSON form (view.json())"
        )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seat={self.seat} phase={self.phase!r}>"


Mapping.register(View)

# By view class, its key builders in JSON order (the _k_ methods), found on first use.
_BUILDERS: dict[type, dict[str, Callable[[Any], Any]]] = {}


def _builders_of(cls: type[View[Any]]) -> dict[str, Callable[[Any], Any]]:
    found = _BUILDERS.get(cls)
    if found is None:
        missing = [k for k in cls.KEYS if not hasattr(cls, "_k_" + k)]
        if missing:
            raise TypeError(f"{cls.__name__} has no _k_ method for {', '.join(missing)}")
        found = _BUILDERS[cls] = {k: getattr(cls, "_k_" + k) for k in cls.KEYS}
    return found
