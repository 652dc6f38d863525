"""The state of one game in progress, and the machinery every game shares.

A game's state class subclasses :class:`State` and fills in a few hooks:

- ``_setup()``: the initial deal; sets ``phase`` and who acts first. A game declares its
  phases as a ``Literal`` type (``Phase``) and annotates its state's ``phase: Phase``, so
  the type checker refuses a phase it does not declare; ``Game.phases`` lists them.
- ``_legal_ids(seat)``: the ids of the legal actions of a seat that is in ``to_act``;
  and, optionally, ``_legal_ids_and_actions(seat)`` with ``_LEGAL_PAIRS = True``: those
  ids and the table's actions for them, for a game that builds both lists in one loop
  (``legal_actions`` then makes no list of actions from the ids).
- ``_step(seat, aid)``: apply an action already checked to be legal (never raises).
- the views, which the game's view module installs for the state class with
  :func:`install_views` (a :class:`GameViews`: what ``seat`` may see as a JSON dict, the
  typed view ``seat_view(seat)`` makes for bots, and the hidden-state sampler), so that
  the rules never import their views; a small game may instead override ``_view(seat,
  out)`` and ``_fill_from_view(view, rng)`` itself.
- ``check_invariants()``: conservation checks, used by the conformance suite.

A game declares its fields in ``__slots__`` with a type annotation each; ``clone()`` is
derived from those declarations once per class (lists are copied, everything else, ints,
tuples and strings, is shared), so no game writes one. A game's state class names its game
class as the type argument (``class XState(State["X"])``), which types ``self.game``.

The shared machinery:

- **Turns.** ``to_act`` is the tuple of seats that must act now; ``apply`` refuses anyone
  else, and anything not in ``legal_actions(seat)``, before changing anything.
- **Simultaneous secret choices.** ``_open_choice(seats)`` asks several seats at once;
  ``_collect(seat, aid)`` stores one seat's hidden choice and says when all are in; the game
  then reveals them together with ``_close_choice()``. A view shows a seat its own choice
  and everyone who is still choosing, never what others chose.
- **Windows** (offers and reactions answered seat by seat): ``_open_window(seats, default)``
  asks the seats one at a time in order; ``_window_next()`` moves to the next one after a
  pass. The ``default`` answer (pass, decline) is what a server applies when time runs out.
- **Randomness.** One SplitMix64 state (an int) per game state; ``_randbelow`` and
  ``_shuffle`` are the only sources of chance.
- **Events.** ``_emit(kind, values, audience)`` appends to a log that is shared between
  clones (a linked chain, so cloning never copies it), ``_emit_batch(events)`` several at
  once; ``events_since`` filters it per seat through the game's event table. Games never
  write the chain's fields themselves.
- **Records and JSON.** Actions are kept in the same kind of chain; ``record`` and
  ``to_json`` walk it.

**The search protocol.** Search bots and hidden-state samplers need a few operations
without the checks of the public surface, the way python-chess documents an unchecked
``push()`` next to its checked moves. They are public and documented, and nothing outside
the core touches a private field:

- ``legal_ids_unchecked(seat)``: a fresh list of legal ids, for a seat the caller knows
  to be in ``to_act`` (or, in a sampler, a seat whose hidden choice it must redraw);
- ``apply_unchecked(seat, aid)``: apply an id just taken from ``legal_ids_unchecked``;
- ``in_sealed_choice``: whether a simultaneous secret choice is open;
- ``unknown_choices()`` and ``fill_choice(seat, aid)``: in a state sampled from a view,
  the seats whose choice was made but hidden, and how the sampler sets one.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Final, Generic, NoReturn, Self, cast

from mypy_extensions import mypyc_attr
from typing_extensions import TypeVar

from .actions import Action, ActionKind, ActionTable
from .chains import (
    Event,
    EventNode,
    HistoryNode,
    decode,
    encode,
    event_nodes,
    events_from,
    events_from_json,
    events_to_json,
    history_nodes,
)
from .clones import COMPILED_CLONES, clone_of_compiled, derive_clone, is_compiled, own_fields
from .errors import BadRecord, BadSeat, DragonlairError, IllegalAction, UnknownAction
from .events import EventSpec, EventValue, event_dict, event_text
from .game_views import GameViews, views_of
from .record import Record, data_digests
from .result import Result
from .rng import GOLDEN, MASK64, RandomLike, mix64, shuffle_steps
from .spec import GameSpec, OptionValue
from .view_types import BaseView

# The game class a state class belongs to: ``self.game`` has this type. (A subclass may not
# redeclare an attribute with a narrower type in the compiled build, so the base is generic.)
G_co = TypeVar("G_co", bound="Game", default="Game", covariant=True)

STATE_FORMAT = "dragonlair.state/1"

GAME_OVER: Final = "over"  # the phase of every finished game
NOT_TAKING_PART = -1
UNKNOWN_CHOICE = -2  # in a state sampled from a view: the game's sampler must fill it in
UNDO = -1  # in the action chain: the seat took back its last decision (see core/undo.py)
UNDO_TEXT = "undo"  # how a record writes it


class Services:
    """The services above the kernel that three of :class:`State`'s methods hand over to.

    The kernel imports nothing above it, so each service puts its functions here when its
    module is imported (at the end of :mod:`dragonlair.core.undo` and
    :mod:`dragonlair.core.position`), and the package :mod:`dragonlair.core`, which Python
    runs before any module in it, imports both: by the time any state exists, they are in
    place."""

    def __init__(self) -> None:
        self.can_undo: Callable[[State, int], bool] | None = None
        self.undo: Callable[[State, int], None] | None = None
        self.to_position: Callable[[State], dict[str, Any]] | None = None


SERVICES: Final = Services()


def _missing(name: str) -> DragonlairError:
    return DragonlairError(f"{name} is not installed: import dragonlair.core first")


@mypyc_attr(allow_interpreted_subclasses=True)
class State(Generic[G_co]):
    """One game in progress. See the module docstring for how games build on it."""

    __slots__ = (
        "_choices",
        "_ev",
        "_hist",
        "_legal",
        "_move",
        "_nev",
        "_origin",
        "_result",
        "_rng",
        "_to_act",
        "_window",
        "_window_default",
        "game",
        "phase",
        "seed",
    )
    _TRANSIENT: ClassVar[frozenset[str]] = frozenset({"game", "_legal", "_hist"})
    _slot_cache: ClassVar[dict[type, tuple[str, ...]]] = {}
    # True in a game that defines _legal_ids_and_actions (see the module docstring).
    _LEGAL_PAIRS: ClassVar[bool] = False

    game: G_co
    seed: int | None
    phase: str
    _rng: int
    _to_act: tuple[int, ...]
    _move: int
    _hist: HistoryNode | None
    _ev: EventNode | None
    _nev: int
    _origin: str | None  # the position the game started from (JSON), None for a new game
    _choices: list[int | None] | None
    _window: tuple[int, ...]
    _window_default: int
    _result: Result | None
    # The legal ids of the seat last asked (seat, ids), until the next action: what
    # apply's common case checks an action against. Only a seat that is an int is ever
    # cached, so a seat that *is* the cached one (``c[0] is seat``: seats are small ints,
    # one object each) needs no type check; any other takes the checked path.
    _legal: tuple[int, list[int]] | None

    # ------------------------------------------------------------------ construction

    @classmethod
    def _blank(cls, game: Game, seed: int | None, rng_state: int) -> Self:
        s = cls.__new__(cls)
        s.game = cast(G_co, game)
        s.seed = seed
        s.phase = ""
        s._rng = rng_state & MASK64
        s._to_act = ()
        s._move = 0
        s._hist = None
        s._ev = None
        s._nev = 0
        s._origin = None
        s._choices = None
        s._window = ()
        s._window_default = -1
        s._result = None
        s._legal = None
        return s

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if is_compiled(cls, State):
            return  # its clone is derived on first use (see clone below)
        if "clone" not in vars(cls):  # a class may still write its own (tests do)
            cls.clone = derive_clone(cls, State)  # type: ignore[method-assign,assignment]
        cls.legal_ids_unchecked = cls._legal_ids  # type: ignore[method-assign]

    def __getstate__(self) -> dict[str, Any]:
        """What pickling keeps: every field of every class (the compiler's own pickling
        would leave out those of an interpreted subclass), the legal-action cache aside."""
        out: dict[str, Any] = {}
        for name in ("game", "_hist", *self._all_slots()):
            if hasattr(self, name):  # a field a game sets only later may be unset
                out[name] = getattr(self, name)
        return out

    def __setstate__(self, fields: dict[str, Any]) -> None:
        for name, value in fields.items():
            setattr(self, name, value)
        self._legal = None

    def clone(self) -> Self:
        """An independent copy: lists are copied, everything else is shared. Derived for
        each game's class from its declared fields (see :mod:`dragonlair.core.clones`)."""
        # Reached only for a class compiled with mypyc, whose clone cannot be set on the
        # class: the build compiled one from the class's source (dragonlair._clones),
        # looked up here once per class.
        derived = COMPILED_CLONES.get(self.__class__)
        if derived is None:
            derived = clone_of_compiled(self, State)
        return cast(Self, derived(self))

    # ------------------------------------------------------------------ game hooks

    def _setup(self) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ the search protocol

    def legal_ids_unchecked(self, seat: int) -> list[int]:
        """A fresh list of the legal action ids of ``seat``, which the caller knows to be
        in ``to_act``: the game's own hook, without the seat check or the cache of
        ``legal_action_ids``. For search and samplers; anything else uses the checked
        methods. (For each game's class this is its ``_legal_ids``.)"""
        return self._legal_ids(seat)

    def apply_unchecked(self, seat: int, aid: int) -> None:
        """Apply an id the caller has just taken from ``legal_ids_unchecked(seat)`` for a
        seat in ``to_act``, without checking either: the search bots' path, where the
        checks would cost a fifth of a rollout. Anything else is undefined behaviour, as
        with python-chess's unchecked ``push()``. Every action, checked or not, is
        recorded and stepped as here (``apply`` and ``apply_id`` repeat these four lines
        in their common case rather than pay for one more call)."""
        self._legal = None
        self._hist = (self._hist, seat, aid)
        self._move += 1
        self._step(seat, aid)

    @property
    def in_sealed_choice(self) -> bool:
        """Whether a simultaneous secret choice is open (the seats in ``to_act`` are still
        choosing, and the choices already made are hidden)."""
        return self._choices is not None

    def unknown_choices(self) -> list[int]:
        """In a state sampled from a view: the seats that made a choice the view hid,
        which the game's sampler must fill with :meth:`fill_choice`."""
        ch = self._choices
        return [] if ch is None else [s for s, c in enumerate(ch) if c == UNKNOWN_CHOICE]

    def fill_choice(self, seat: int, aid: int) -> None:
        """Set the hidden choice of ``seat`` in a sampled state (a sampler's redraw of a
        choice listed by :meth:`unknown_choices`)."""
        ch = self._choices
        if ch is None or ch[seat] != UNKNOWN_CHOICE:
            raise ValueError(f"seat {seat} has no hidden choice to fill")
        ch[seat] = aid

    def _legal_ids(self, seat: int) -> list[int]:
        raise NotImplementedError

    def _legal_ids_and_actions(self, seat: int) -> tuple[list[int], list[Action]]:
        """``_legal_ids(seat)`` and the table's actions of those ids, in the same order:
        what ``legal_actions`` asks of a game with ``_LEGAL_PAIRS`` set."""
        ids = self._legal_ids(seat)
        actions = self.game.table.actions
        return ids, [actions[i] for i in ids]

    def _step(self, seat: int, aid: int) -> None:
        raise NotImplementedError

    def _view(self, seat: int | None, out: dict[str, Any]) -> None:
        """Add what ``seat`` may see to ``out``: the game's installed views (see
        :class:`GameViews`), unless its class overrides this."""
        self._game_views().build(self, seat, out)

    def _fill_from_view(self, view: dict[str, Any], rng: Any) -> None:
        """Redraw what ``view``'s seat cannot see (the hidden-state sampler): the game's
        installed views, unless its class overrides this."""
        self._game_views().sample(self, view, rng)

    def _game_views(self) -> GameViews:
        found = views_of(type(self))
        if found is None:
            raise DragonlairError(
                f"{type(self).__name__} has no views: its game's view module installs them "
                "(install_views) and the game's package imports that module"
            )
        return found

    def check_invariants(self) -> None:
        """Raise AssertionError if a conservation law is broken (games override)."""

    # ------------------------------------------------------------------ public surface

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats that must act now (several during simultaneous choices); () when over."""
        return self._to_act

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def result(self) -> Result | None:
        """Points, ranks, winners and scoring breakdown once the game is over, else None."""
        return self._result

    @property
    def move(self) -> int:
        """How many actions have been applied (the move number clients send back)."""
        return self._move

    @property
    def event_count(self) -> int:
        return self._nev

    # The public entry points take their arguments as ``object`` and check them
    # themselves, so that a wrong type gets the same error in the compiled build (whose
    # typed parameters would raise TypeError first) as in pure Python.

    def legal_actions(self, seat: object) -> list[Action]:
        """The actions ``seat`` (an int) may take now; [] if it is not asked to act."""
        c = self._legal
        if c is not None and c[0] is seat:
            ids = c[1]
        elif type(seat) is not int or seat not in self._to_act:
            self._check_seat(seat)
            return []
        elif self._LEGAL_PAIRS:
            ids, legal = self._legal_ids_and_actions(seat)
            self._legal = (seat, ids)
            return legal
        else:
            ids = self._legal_ids(seat)
            self._legal = (seat, ids)
        actions = self.game.table.actions
        return [actions[i] for i in ids]  # the table's own objects, which apply knows

    def legal_action_ids(self, seat: object) -> list[int]:
        """The ids of ``legal_actions(seat)``, in the same order."""
        c = self._legal
        if c is not None and c[0] is seat:
            return c[1].copy()
        if type(seat) is not int or seat not in self._to_act:
            self._check_seat(seat)
            return []
        return self._cache_legal(seat).copy()

    def _cache_legal(self, seat: int) -> list[int]:
        """The legal ids of ``seat`` (in ``to_act``), kept until the next action."""
        c = self._legal
        if c is not None and c[0] == seat:
            return c[1]
        ids = self._legal_ids(seat)
        self._legal = (seat, ids)
        return ids

    def apply(self, seat: object, action: object) -> None:
        """Apply ``seat``'s action (an Action or its text). Raises UnknownAction for text that
        does not parse and IllegalAction for anything the rules or the turn do not allow;
        the state is unchanged after either."""
        c = self._legal
        if c is not None and c[0] is seat and type(action) is Action:
            # The common case: an action of the seat's legal list just read (the cache
            # holds only a seat asked to act), which is the table's own object and knows
            # its id; anything else takes the checks below, with their errors.
            aid = action._table_id
            if aid in c[1] and self.game.table.actions[aid] is action:
                self._legal = None  # apply_unchecked's four lines
                self._hist = (self._hist, seat, aid)
                self._move += 1
                self._step(seat, aid)
                return
        if type(action) is not Action:
            if isinstance(action, str):
                action = self.game.table.parse(action)
            elif not isinstance(action, Action):
                raise UnknownAction(
                    f"expected an Action or action text, not {type(action).__name__}"
                )
        found = self.game.table.ids.get(action)
        if found is None:
            raise IllegalAction(f"{action} is not an action of {self.game.spec.name}")
        self._apply_checked(seat, found)

    def apply_id(self, seat: object, aid: object) -> None:
        """Apply an action given by its id (for RL and search); checked like ``apply``."""
        c = self._legal
        # The common case first: an id of the seat's legal list just read.
        if c is not None and c[0] is seat and type(aid) is int and aid in c[1]:
            self._legal = None  # apply_unchecked's four lines
            self._hist = (self._hist, seat, aid)
            self._move += 1
            self._step(seat, aid)
            return
        self.game.table.from_id(aid)
        assert type(aid) is int  # from_id refuses anything else
        self._apply_checked(seat, aid)

    def _apply_checked(self, seat: object, aid: int) -> None:
        """Refuse a seat not asked or an action not legal, else apply: the one path every
        action takes into a state."""
        if type(seat) is not int:
            self._refuse_seat(seat)
        c = self._legal
        if (c is None or c[0] != seat) and seat not in self._to_act:
            self._refuse_seat(seat)
        ids = self._cache_legal(seat)
        if aid not in ids:
            self._refuse_action(seat, aid, ids)
        self.apply_unchecked(seat, aid)

    def default_action(self, seat: object) -> Action | None:
        """The answer applied for ``seat`` when it lets an offer or reaction window time
        out (pass, decline); None when ``seat`` is not being asked in a window."""
        if self._window_default >= 0 and seat in self._to_act:
            return self.game.table.actions[self._window_default]
        return None

    def can_undo(self, seat: object) -> bool:
        """Whether ``seat`` may take back its last decision now: it has one, and nothing
        hidden was revealed to anyone since (see :mod:`dragonlair.core.undo`)."""
        self._check_seat(seat)
        assert type(seat) is int  # checked just above
        found = SERVICES.can_undo
        if found is None:
            raise _missing("undo")
        return found(self, seat)

    def undo(self, seat: object) -> None:
        """Take back ``seat``'s last decision and everything played after it; raises
        IllegalAction (and changes nothing) when ``can_undo(seat)`` is False. The record
        keeps both the decision and the undo."""
        self._check_seat(seat)
        assert type(seat) is int  # checked just above
        found = SERVICES.undo
        if found is None:
            raise _missing("undo")
        found(self, seat)

    def to_position(self) -> dict[str, Any]:
        """This position in the game's position format (see ``dragonlair.position``)."""
        found = SERVICES.to_position
        if found is None:
            raise _missing("the position format")
        return found(self)

    def view(self, seat: object) -> dict[str, Any]:
        """Everything ``seat`` (an int) may know now, as a JSON-ready dict; None is a
        spectator."""
        self._check_seat(seat, spectator=True)
        assert seat is None or type(seat) is int  # checked just above
        v = self._base_view(seat)
        self._view(seat, v)
        return v

    def seat_view(self, seat: object) -> Mapping[str, Any]:
        """What ``seat`` may know now as the game's typed view (a
        :class:`~dragonlair.core.views.View`: a read-only mapping with the keys and values
        of ``view(seat)``, each worked out when first read, and typed attributes for
        bots), or ``view(seat)`` itself for a game without one."""
        if type(seat) is not int or not 0 <= seat < self.game.players:
            self._check_seat(seat, spectator=True)  # None, or an error
        assert seat is None or type(seat) is int  # checked just above
        views = views_of(type(self))
        cls = None if views is None else views.seat_view
        if cls is None:
            v = self._base_view(seat)
            self._view(seat, v)
            return v
        # a View is a Mapping (registered as one: see core.views), which mypy cannot see
        return cast("Mapping[str, Any]", cls(self, seat))

    def _base_view(self, seat: int | None) -> dict[str, Any]:
        """The part of ``seat``'s view every game shares (``core.view_types.BaseView``)."""
        return base_keys(self.game, *self._base_figures(seat))

    def _base_figures(self, seat: int | None) -> tuple[Any, ...]:
        """What the part of ``seat``'s view every game shares is made of, as the state holds
        it now: ``base_keys``' arguments after the game (of a simultaneous choice, only what
        the seat may see: who takes part, and its own choice). A typed view keeps them and
        builds the keys when its mapping is first read."""
        ch = self._choices
        return (
            seat,
            self.phase,
            self._move,
            self._to_act,
            None if ch is None else choosing_seats(ch),
            None if ch is None or seat is None else ch[seat],
            self._window,
            self._window_default,
            self._result,
        )

    def events_since(self, n: object, seat: object) -> list[dict[str, Any]]:
        """Events numbered ``n`` (an int) and later, as ``seat`` may see them (None: a
        spectator). Each carries its number as ``seq``; ``event_count`` is the next
        number."""
        if type(n) is not int or n < 0:
            raise ValueError(f"events_since needs an event number >= 0, not {n!r}")
        self._check_seat(seat, spectator=True)
        assert seat is None or type(seat) is int  # checked just above
        first, nodes = events_from(self._ev, self._nev, n)
        specs = self.game.event_specs
        out = []
        for seq, (_, kind, values, audience) in enumerate(nodes, start=first):
            d = event_dict(specs, seq, kind, values, audience, seat)
            if d is not None:
                out.append(d)
        return out

    def event_log(self) -> list[tuple[str, tuple[EventValue, ...], tuple[int, ...] | None]]:
        """Every event so far, oldest first, as ``(kind, values, audience)``: the values in
        the order of the kind's ``EventSpec.fields``, the audience None for a public event
        or the seats that see it. Whatever any seat saw, without building a dict per
        event: for analysing a game (the designer's per-game data), never for a player's
        surface, which asks :meth:`events_since` for what a seat may see."""
        return [(kind, values, audience) for _, kind, values, audience in event_nodes(self._ev)]

    @property
    def record(self) -> Record:
        """Game id, rules version, players, options, seed and actions: replays this state."""
        if self.seed is None:
            raise DragonlairError("this state was sampled from a view and has no record")
        return Record(
            game=self.game.spec.id,
            rules_version=self.game.spec.rules_version,
            players=self.game.players,
            options=dict(self.game.options),
            seed=self.seed,
            actions=tuple(self._action_texts()),
            data_files=data_digests(self.game.spec, self.game.options),
            position=None if self._origin is None else json.loads(self._origin),
        )

    def to_json(self) -> str:
        """The whole state as JSON; ``dragonlair.load`` gives it back exactly."""
        g = self.game
        doc = {
            "format": STATE_FORMAT,
            "game": g.spec.id,
            "rules_version": g.spec.rules_version,
            "players": g.players,
            "options": dict(g.options),
            "seed": self.seed,
            "actions": [[s, a] for s, a in self._action_texts()],
            "state": self._snapshot(),
        }
        if self._origin is not None:
            doc["position"] = json.loads(self._origin)
        return json.dumps(doc, separators=(",", ":"))

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.game.spec.id} move={self._move} "
            f"phase={self.phase!r} to_act={self._to_act}>"
        )

    # ------------------------------------------------------------------ helpers for games

    def _randbelow(self, n: int) -> int:
        """A uniform integer in range(n) from the state's own generator."""
        s = (self._rng + GOLDEN) & MASK64
        self._rng = s
        return (mix64(s) * n) >> 64

    def _shuffle(self, items: list[Any]) -> None:
        """Fisher-Yates with the state's own generator, several swap positions per draw
        (see ``rng.shuffle_plan`` and ``rng.shuffle_steps``)."""
        s = self._rng
        for radix, swaps in shuffle_steps(len(items)):
            s = (s + GOLDEN) & MASK64
            r = (mix64(s) * radix) >> 64
            for i, width in swaps:  # i's swap position is the next digit of r, base i + 1
                j = r % width
                r //= width
                items[i], items[j] = items[j], items[i]
        self._rng = s

    def _emit(
        self, kind: str, values: tuple[EventValue, ...], audience: tuple[int, ...] | None = None
    ) -> None:
        """Append one event: ``kind`` (a key of the game's ``event_specs``), its values in
        the order the spec names them, and who sees it (None: everyone)."""
        self._ev = (self._ev, kind, values, audience)
        self._nev += 1

    def _emit_batch(self, events: Sequence[Event]) -> None:
        """Append several events at once, in order, each ``(kind, values, audience)`` as
        :meth:`_emit` takes them: for a step that tells every seat something (a hand
        passed to each, everyone's pick revealed), one call instead of one per event."""
        ev = self._ev
        for kind, values, audience in events:
            ev = (ev, kind, values, audience)
        self._ev = ev
        self._nev += len(events)

    def _open_choice(self, seats: Sequence[int]) -> None:
        """Ask ``seats`` for a simultaneous secret choice."""
        n = self.game.players
        ch: list[int | None]
        if len(seats) == n:  # every seat (each seat is asked once)
            ch = [None] * n
        else:
            ch = [NOT_TAKING_PART] * n
            for s in seats:
                ch[s] = None
        self._choices = ch
        self._to_act = tuple(seats)

    def _collect(self, seat: int, aid: int) -> bool:
        """Store ``seat``'s choice; True when every asked seat has chosen."""
        self._choices[seat] = aid  # type: ignore[index]
        t = self._to_act
        if seat in t:  # always: _step is only called for a seat in to_act
            rest = _WITHOUT.get(t)
            if rest is None:
                rest = _without(t)
            self._to_act = t = rest[seat]
        return not t

    def _close_choice(self) -> list[int | None]:
        """The choices by seat (-1 for seats not asked); ends the simultaneous choice."""
        ch = self._choices
        assert ch is not None
        self._choices = None
        return ch

    def _open_window(self, seats: Sequence[int], default_aid: int) -> bool:
        """Ask ``seats`` one at a time; False (and nothing changes) if there are none."""
        if not seats:
            return False
        self._to_act = (seats[0],)
        self._window = tuple(seats[1:])
        self._window_default = default_aid
        return True

    def _window_next(self) -> bool:
        """After a pass: ask the next seat and return True, or close the window and
        return False when nobody is left to ask."""
        w = self._window
        if not w:
            self._window_default = -1
            return False
        self._to_act = (w[0],)
        self._window = w[1:]
        return True

    def _close_window(self) -> None:
        self._window = ()
        self._window_default = -1

    def _finish(self, result: Result) -> None:
        self._result = result
        self._to_act = ()
        self._choices = None
        self._close_window()
        self.phase = GAME_OVER

    # ------------------------------------------------------------------ errors

    def _check_seat(self, seat: object, spectator: bool = False) -> None:
        if spectator and seat is None:
            return
        n = self.game.players
        if type(seat) is not int or not 0 <= seat < n:
            extra = ", or None for a spectator" if spectator else ""
            raise BadSeat(f"seat {seat!r} is not at this table: expected 0..{n - 1}{extra}")

    def _refuse_seat(self, seat: object) -> NoReturn:
        self._check_seat(seat)
        if self._result is not None:
            raise IllegalAction(f"the game is over; seat {seat} cannot act")
        waiting = ", ".join(map(str, self._to_act))
        raise IllegalAction(
            f"seat {seat} is not asked to act now ({self.phase}); waiting for seat {waiting}"
        )

    def _refuse_action(self, seat: int, aid: int, ids: list[int]) -> NoReturn:
        actions = self.game.table.actions
        legal = [str(actions[i]) for i in ids]
        shown = ", ".join(legal[:12]) + (f" and {len(legal) - 12} more" if len(legal) > 12 else "")
        raise IllegalAction(
            f"{actions[aid]} is not legal for seat {seat} now ({self.phase}); legal: {shown}"
        )

    # ------------------------------------------------------------------ snapshots

    @classmethod
    def _all_slots(cls) -> tuple[str, ...]:
        found = State._slot_cache.get(cls)
        if found is None:
            names: list[str] = []
            for klass in reversed(cls.__mro__):
                for name in own_fields(klass, names):
                    if name not in State._TRANSIENT:
                        names.append(name)
            found = tuple(names)
            State._slot_cache[cls] = found
        return found

    def _action_texts(self) -> list[tuple[int, str]]:
        actions = self.game.table.actions
        return [
            (seat, UNDO_TEXT if aid == UNDO else str(actions[aid]))
            for _, seat, aid in history_nodes(self._hist)
        ]

    def _snapshot(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in self._all_slots():
            value = getattr(self, name)
            out[name] = events_to_json(value) if name == "_ev" else encode(value)
        return out

    @classmethod
    def _restore(cls, game: Game, snap: object, actions: Sequence[tuple[int, str]]) -> Self:
        if not isinstance(snap, dict):
            raise BadRecord("saved state has no 'state' object")
        s = cls.__new__(cls)
        s.game = cast(G_co, game)
        s._legal = None
        for name in cls._all_slots():
            if name == "_origin" and name not in snap:
                s._origin = None  # saved before games could start from a position
                continue
            if name not in snap:
                raise BadRecord(f"saved state lacks the field {name!r}")
            raw = snap[name]
            if name == "_ev":
                s._ev = events_from_json(raw, game.event_specs)
            else:
                setattr(s, name, decode(raw))
        extra = set(snap) - set(cls._all_slots())
        if extra:
            raise BadRecord(f"saved state has unknown fields {sorted(extra)}")
        hist: HistoryNode | None = None
        for i, (seat, text) in enumerate(actions):
            if text == UNDO_TEXT:
                hist = (hist, seat, UNDO)
                continue
            try:
                aid = game.table.ids[game.table.parse(text)]
            except UnknownAction as e:
                raise BadRecord(f"saved action {i}: {e}") from None
            hist = (hist, seat, aid)
        s._hist = hist
        return s


@mypyc_attr(allow_interpreted_subclasses=True)
class Game:
    """A game for a given number of players and options: the spec, the options chosen,
    the data, and the table of actions.

    ``dragonlair.make(id, players=, options=)`` gives one; ``game.new_game(seed)`` gives a
    fresh :class:`State`. A game subclass declares:

    - ``spec``: its :class:`~dragonlair.core.spec.GameSpec`;
    - ``state_class``: its State subclass;
    - ``action_kinds`` and ``_define_actions()``: every action in a fixed order (ids);
    - ``event_specs``: its table of events and who sees what of them;
    - ``phases``: every value ``state.phase`` takes (``GAME_OVER`` included), the
      arguments of the ``Literal`` its state's ``phase`` is annotated with, and
      ``phase_names``, what a player reads for each;
    - ``terminations``: every way one of its games can end (``Result.termination``);
    - ``view_type``: the ``TypedDict`` (on :class:`~dragonlair.core.view_types.BaseView`)
      of its views;
    - ``_prepare()``: load data files and precompute tables for the chosen options;
    - ``max_length``: the most decisions a game can take (the conformance suite holds it
      to it).
    """

    spec: ClassVar[GameSpec]
    state_class: ClassVar[type[State]]
    action_kinds: ClassVar[tuple[ActionKind, ...]]
    event_specs: ClassVar[Mapping[str, EventSpec]]
    # Every value ``state.phase`` takes, "over" included: each game declares a Literal
    # type of them, ``Phase``, annotates its state's ``phase`` with it, and gives this
    # tuple (``get_args(Phase)``), which positions, views and surfaces check phases against.
    phases: ClassVar[tuple[str, ...]] = ()
    # What a player reads for each of ``phases`` (English message ids, ``N_``-marked,
    # translated where shown); a phase without a name is shown as its id.
    phase_names: ClassVar[Mapping[str, str]] = {}
    # Every way one of its games can end (``Result.termination``): each game declares a
    # Literal type of them, ``Termination``, and this tuple, both in its rules.
    terminations: ClassVar[tuple[str, ...]] = ()
    # The TypedDict every view of the game matches (extending ``BaseView``): its view
    # module declares it, and the conformance suite checks every view against it.
    view_type: ClassVar[Any] = BaseView

    players: int
    options: dict[str, OptionValue]
    table: ActionTable

    def __init__(self, players: object = None, options: Mapping[str, object] | None = None):
        if players is None:
            players = self.spec.default_players
        self.players = self.spec.check_players(players)
        self.options = self.spec.resolve(options)
        self._prepare()
        self.table = ActionTable(self._define_actions(), self.action_kinds, self.spec.name)

    def __reduce__(self) -> tuple[Any, ...]:
        """A game pickles as its class, players and options, and is made again from them
        when unpickled (in both builds; a compiled class has no ``__dict__`` to copy)."""
        return (self.__class__, (self.players, self.options))

    # ------------------------------------------------------------------ hooks

    def _prepare(self) -> None:
        """Load data and build tables for ``self.players`` and ``self.options``."""

    def _define_actions(self) -> Sequence[Action]:
        raise NotImplementedError

    @property
    def max_length(self) -> int:
        """The most decisions (applied actions) one game can take."""
        raise NotImplementedError

    def describe_action(self, action: Action) -> str:
        """A short human description of an action (menus, logs)."""
        return str(action)

    # ------------------------------------------------------------------ public surface

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def rules_version(self) -> int:
        return self.spec.rules_version

    @property
    def num_actions(self) -> int:
        """How many distinct actions the game has; ids run from 0 to num_actions - 1."""
        return len(self.table)

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action, in id order."""
        return self.table.actions

    def new_game(self, seed: object = None) -> State:
        """A fresh game; everything in it follows from ``seed`` (an int from 0 to 2**63-1,
        None for a random one) and the actions applied."""
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "big") >> 1
        if type(seed) is not int or not 0 <= seed < 2**63:
            raise ValueError(f"seed must be an integer from 0 to 2**63-1, not {seed!r}")
        state = self.state_class._blank(self, seed, mix64(seed))
        state._setup()
        return state

    def parse_action(self, text: object) -> Action:
        """The action written as ``text``; UnknownAction if it is not one."""
        return self.table.parse(text)

    def action_id(self, action: object) -> int:
        return self.table.id_of(action)

    def action_from_id(self, aid: object) -> Action:
        return self.table.from_id(aid)

    def event_text(self, event: Mapping[str, Any], names: Sequence[str] | None = None) -> str:
        """One line describing an event as returned by ``events_since``."""
        return event_text(self.event_specs, event, names)

    def sample_state(self, view: Mapping[str, Any], rng: RandomLike) -> State:
        """A full state consistent with ``view``: what its seat can see is kept, everything
        else (unseen cards, secret amounts, others' hidden choices, future chance) is
        redrawn from ``rng``. The result has no record (its seed is None)."""
        if not isinstance(view, Mapping) or view.get("game") != self.spec.id:
            raise DragonlairError(f"not a view of {self.spec.name}")
        if view.get("players") != self.players:
            raise DragonlairError(
                f"view is for {view.get('players')} players, this game has {self.players}"
            )
        seat = view.get("seat")
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players
        ):
            raise BadSeat(f"view has a bad seat {seat!r}")
        phase = view.get("phase")
        if phase not in self.phases:
            raise DragonlairError(f"view has phase {phase!r}; {self.spec.name} has {self.phases}")
        s = self.state_class._blank(self, None, mix64(rng.randrange(1 << 62) & MASK64))
        s.phase = str(phase)
        s._move = int(view["move"])
        s._to_act = tuple(view["to_act"])
        if "choosing" in view:
            choosing = set(view["choosing"])
            ch: list[int | None] = []
            for p in range(self.players):
                if p not in choosing:
                    ch.append(NOT_TAKING_PART)
                elif p in s._to_act:
                    ch.append(None)
                else:
                    ch.append(UNKNOWN_CHOICE)
            if seat is not None and "my_choice" in view:
                ch[seat] = self.table.ids[self.table.parse(view["my_choice"])]
            s._choices = ch
        window = view.get("window")
        if window is not None:
            s._window = tuple(window["next"])
            s._window_default = self.table.ids[self.table.parse(window["default"])]
        if view.get("result") is not None:
            s._result = Result.from_dict(view["result"])
        s._fill_from_view(dict(view), rng)
        if s._choices is not None and UNKNOWN_CHOICE in s._choices:
            raise AssertionError(f"{type(self).__name__} sampler left a hidden choice unfilled")
        return s

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items() if v != self.spec.option(k).default}
        return f"<{self.spec.name} for {self.players}{' ' + str(changed) if changed else ''}>"


# The seats still to choose once one of them has, by the seats asked and the seat that
# chose (a lookup instead of slicing the tuple each time): a few entries per table size.
_WITHOUT: Final[dict[tuple[int, ...], dict[int, tuple[int, ...]]]] = {}


def _without(seats: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    rest = _WITHOUT[seats] = {s: seats[:i] + seats[i + 1 :] for i, s in enumerate(seats)}
    return rest


def choosing_seats(choices: Sequence[int | None]) -> Sequence[int]:
    """The seats taking part in a simultaneous choice (``choices``: by seat, the id
    chosen, None or NOT_TAKING_PART), whether they have chosen yet or not."""
    if NOT_TAKING_PART not in choices:  # everyone, as in most choices
        return range(len(choices))
    return [s for s, c in enumerate(choices) if c != NOT_TAKING_PART]


def base_keys(
    game: Game,
    seat: int | None,
    phase: str,
    move: int,
    to_act: tuple[int, ...],
    choosing: Sequence[int] | None,
    my_choice: int | None,
    window: tuple[int, ...],
    window_default: int,
    result: Result | None,
) -> dict[str, Any]:
    """The keys every view shares (``core.view_types.BaseView``) for ``seat``, from what a
    state holds (during a simultaneous choice, the seats taking part and the seat's own
    choice, None or NOT_TAKING_PART): ``State._base_view``'s, and a typed view's when its
    mapping is first read (``core.views.View``, which keeps these figures as the state
    held them)."""
    v: dict[str, Any] = {
        "game": game.spec.id,
        "players": game.players,
        "seat": seat,
        "phase": phase,
        "move": move,
        "to_act": list(to_act),
        "over": result is not None,
    }
    if choosing is not None:
        v["choosing"] = list(choosing)
        if my_choice is not None and my_choice != NOT_TAKING_PART:
            v["my_choice"] = str(game.table.actions[my_choice])
    if window_default >= 0:
        v["window"] = {
            "next": list(window),
            "default": str(game.table.actions[window_default]),
        }
    if result is not None:
        v["result"] = result.to_dict()
    return v
