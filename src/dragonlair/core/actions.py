"""Actions: small frozen values with a text form that parses back and a stable integer id.

An action is a kind (``"pick"``, ``"bid"``, ``"hold"``) and a few arguments (ints or short
words). Its text is the kind and the arguments separated by spaces (``"pick 12"``), always
lower case, so ``parse(str(a)) == a``. Every game enumerates all of its actions once, in a
fixed order, when it is made; an action's id is its index in that order, which is what RL
libraries and search use. The order depends only on the game's data and options, never on
a state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from .errors import IllegalAction, UnknownAction

Arg = int | str


class Action:
    """An immutable action value, e.g. ``Action("pick", 12)``.

    Equal actions are those with the same text. An action listed in a game's
    :class:`ActionTable` also remembers its id there (``_table_id``, -1 for one no table
    lists), so that the state can recognise an action of its own legal list without
    comparing it (a Python call per comparison); it is a hint that the table confirms by
    identity, never part of what the action is."""

    __slots__ = ("_hash", "_table_id", "_text", "args", "kind")
    kind: str
    args: tuple[Arg, ...]
    _text: str
    _hash: int
    _table_id: int

    def __init__(self, kind: str, *args: Arg) -> None:
        if not kind or kind != kind.lower() or " " in kind:
            raise ValueError(f"action kind must be one lower-case word, not {kind!r}")
        for a in args:
            if isinstance(a, bool) or not isinstance(a, int | str):
                raise TypeError(f"action arguments are ints or words, not {a!r}")
            if isinstance(a, str) and (not a or a != a.lower() or " " in a):
                raise ValueError(f"word arguments must be one lower-case word, not {a!r}")
        text = " ".join([kind, *map(str, args)])
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "args", tuple(args))
        object.__setattr__(self, "_text", text)
        object.__setattr__(self, "_hash", hash(text))
        object.__setattr__(self, "_table_id", -1)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("actions are immutable")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError("actions are immutable")

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if isinstance(other, Action):
            return self._text == other._text
        return NotImplemented

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        inner = ", ".join(repr(x) for x in (self.kind, *self.args))
        return f"Action({inner})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Action, (self.kind, *self.args))


@dataclass(frozen=True)
class ActionKind:
    """Documentation of one kind of action: its word, its arguments and what it does."""

    kind: str
    params: tuple[str, ...] = ()
    help: str = ""

    @property
    def form(self) -> str:
        return " ".join([self.kind, *(f"<{p}>" for p in self.params)])


def normalize(text: str) -> str:
    """The canonical spelling of action text: lower case, single spaces."""
    return " ".join(text.lower().split())


class ActionTable:
    """All actions of one game in their id order, with lookups both ways."""

    __slots__ = ("actions", "by_text", "game_name", "ids", "kinds")

    def __init__(self, actions: Iterable[Action], kinds: Sequence[ActionKind], game_name: str):
        self.actions: tuple[Action, ...] = tuple(actions)
        self.ids: dict[Action, int] = {}
        for i, a in enumerate(self.actions):
            if a in self.ids:
                raise ValueError(f"action {a} is listed twice")
            self.ids[a] = i
            # The latest table to list an action object gives its hint; an action shared
            # by two tables in another order is then only found the slower way by the
            # other (see State.apply).
            object.__setattr__(a, "_table_id", i)
        self.by_text: dict[str, Action] = {str(a): a for a in self.actions}
        self.kinds = tuple(kinds)
        known = {k.kind for k in self.kinds}
        for a in self.actions:
            if a.kind not in known:
                raise ValueError(f"action {a} has an undeclared kind {a.kind!r}")
        self.game_name = game_name

    def __len__(self) -> int:
        return len(self.actions)

    def parse(self, text: object) -> Action:
        if not isinstance(text, str):
            raise UnknownAction(f"action text must be a string, not {type(text).__name__}")
        key = normalize(text)
        found = self.by_text.get(key)
        if found is not None:
            return found
        forms = ", ".join(k.form for k in self.kinds)
        word = key.split(" ", 1)[0] if key else ""
        if not key:
            raise UnknownAction(f"empty action text; {self.game_name} actions look like: {forms}")
        if word not in {k.kind for k in self.kinds}:
            raise UnknownAction(
                f"{text!r} is not an action of {self.game_name}: unknown word {word!r}; "
                f"expected one of: {forms}"
            )
        kind = next(k for k in self.kinds if k.kind == word)
        raise UnknownAction(
            f"{text!r} is not an action of {self.game_name}: expected {kind.form}"
            " with values the game has"
        )

    def id_of(self, action: object) -> int:
        i = self.ids.get(action) if isinstance(action, Action) else None
        if i is None:
            raise IllegalAction(f"{action} is not an action of {self.game_name}")
        return i

    def from_id(self, i: object) -> Action:
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(self.actions):
            raise IllegalAction(
                f"action id {i!r} is out of range for {self.game_name}: "
                f"expected 0..{len(self.actions) - 1}"
            )
        return self.actions[i]
