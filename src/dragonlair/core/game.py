"""A game definition: the spec, the options chosen, the data, and the table of actions.

``dragonlair.make(id, players=, options=)`` gives a :class:`Game`; ``game.new_game(seed)``
gives a fresh :class:`~dragonlair.core.state.State`. A game subclass declares:

- ``spec``: its :class:`~dragonlair.core.spec.GameSpec`;
- ``state_class``: its State subclass;
- ``action_kinds`` and ``_define_actions()``: every action in a fixed order (ids);
- ``event_specs``: its table of events and who sees what of them;
- ``phases``: every value ``state.phase`` takes (``GAME_OVER`` included);
- ``view_type``: the ``TypedDict`` (on :class:`~dragonlair.core.view_types.BaseView`) of its views;
- ``_prepare()``: load data files and precompute tables for the chosen options;
- ``max_length``: the most decisions a game can take (the conformance suite holds it to it).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from .actions import Action, ActionKind, ActionTable
from .errors import BadSeat, DragonlairError
from .events import EventSpec, event_text
from .rng import MASK64, RandomLike, mix64
from .spec import GameSpec, OptionValue
from .state import NOT_TAKING_PART, UNKNOWN_CHOICE, State
from .view_types import BaseView


@mypyc_attr(allow_interpreted_subclasses=True)
class Game:
    """A game for a given number of players and options."""

    spec: ClassVar[GameSpec]
    state_class: ClassVar[type[State]]
    action_kinds: ClassVar[tuple[ActionKind, ...]]
    event_specs: ClassVar[Mapping[str, EventSpec]]
    # Every value ``state.phase`` takes, "over" included: each game declares a Literal
    # type of them and this tuple (its ``kinds`` module), for layouts, boards and pages.
    phases: ClassVar[tuple[str, ...]] = ()
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
        s = self.state_class._blank(self, None, mix64(rng.randrange(1 << 62) & MASK64))
        s.phase = str(view["phase"])
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
            from .result import Result

            s._result = Result.from_dict(view["result"])
        s._fill_from_view(dict(view), rng)
        if s._choices is not None and UNKNOWN_CHOICE in s._choices:
            raise AssertionError(f"{type(self).__name__} sampler left a hidden choice unfilled")
        return s

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items() if v != self.spec.option(k).default}
        return f"<{self.spec.name} for {self.players}{' ' + str(changed) if changed else ''}>"
