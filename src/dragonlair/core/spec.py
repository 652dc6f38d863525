"""Declared specs: what a game is called, who can play it, and which options it takes.

Every game module opens with a :class:`GameSpec`. Options are validated here, once, with
messages that name the option, the bad value and what is allowed, so every surface (the
Python API, the CLI's ``--option key=value``, the server's JSON) reports them the same way.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from .errors import BadOptions

OptionValue = bool | int | float | str | None
OptionKind = Literal["bool", "int", "float", "choice", "path"]


@dataclass(frozen=True)
class OptionSpec:
    """One option: its name, default, kind and allowed values, and a short explanation."""

    name: str
    default: OptionValue
    help: str
    kind: OptionKind = "choice"
    choices: tuple[OptionValue, ...] = ()
    min: float | None = None
    max: float | None = None

    def __post_init__(self) -> None:
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"option {self.name}: a choice option needs choices")
        if self.default is not None:
            self.validate(self.default)

    def allowed(self) -> str:
        """What values are allowed, in words."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "one of " + ", ".join(_show(c) for c in self.choices)
        if self.kind == "path":
            return "a path to a readable file (or nothing for the built-in data)"
        lo = "-inf" if self.min is None else _show(self.min)
        hi = "inf" if self.max is None else _show(self.max)
        return f"{'an integer' if self.kind == 'int' else 'a number'} from {lo} to {hi}"

    def validate(self, value: object) -> OptionValue:
        """The value, checked (and for numbers given as text, converted)."""
        bad = BadOptions(f"option {self.name}={value!r} is not allowed: expected {self.allowed()}")
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in _BOOL_WORDS:
                return _BOOL_WORDS[value.lower()]
            raise bad
        if self.kind == "choice":
            for c in self.choices:
                if value == c and type(value) is type(c):
                    return c
                if isinstance(value, str) and not isinstance(c, str) and value == _show(c):
                    return c
            raise bad
        if self.kind == "path":
            if value is None or value == "":
                return None
            if isinstance(value, str):
                return value
            raise bad
        number: float | int
        if isinstance(value, bool):
            raise bad
        if isinstance(value, int | float):
            number = value
        elif isinstance(value, str):
            try:
                number = int(value) if self.kind == "int" else float(value)
            except ValueError:
                raise bad from None
        else:
            raise bad
        if self.kind == "int":
            if isinstance(number, float):
                if not number.is_integer():
                    raise bad
                number = int(number)
        else:
            number = float(number)
            if not math.isfinite(number):
                raise bad
        if (self.min is not None and number < self.min) or (
            self.max is not None and number > self.max
        ):
            raise bad
        return number


_BOOL_WORDS = {
    "true": True,
    "yes": True,
    "on": True,
    "1": True,
    "false": False,
    "no": False,
    "off": False,
    "0": False,
}


def _show(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


@dataclass(frozen=True)
class GameSpec:
    """What a game is: id, name, player range, options and rules version."""

    id: str
    name: str
    min_players: int
    max_players: int
    rules_version: int
    summary: str
    options: tuple[OptionSpec, ...] = field(default_factory=tuple)

    @property
    def default_players(self) -> int:
        """The player count used when none is given: 4 where allowed."""
        return max(self.min_players, min(4, self.max_players))

    def option(self, name: str) -> OptionSpec:
        for o in self.options:
            if o.name == name:
                return o
        raise BadOptions(self._unknown(name))

    def _unknown(self, name: str) -> str:
        known = ", ".join(o.name for o in self.options) or "none"
        return f"{self.name} has no option {name!r}; its options are: {known}"

    def check_players(self, players: object) -> int:
        if isinstance(players, bool) or not isinstance(players, int):
            raise BadOptions(
                f"players must be a whole number from {self.min_players} to {self.max_players}, "
                f"not {players!r}"
            )
        if not self.min_players <= players <= self.max_players:
            raise BadOptions(
                f"{self.name} is for {self.min_players} to {self.max_players} players, "
                f"not {players}"
            )
        return players

    def resolve(self, options: Mapping[str, object] | None) -> dict[str, OptionValue]:
        """All options with defaults filled in; raises BadOptions naming the first problem."""
        if options is not None and not isinstance(options, Mapping):
            raise BadOptions(f"options must be a mapping of names to values, not {options!r}")
        given = dict(options or {})
        out: dict[str, OptionValue] = {}
        for name in given:
            if not isinstance(name, str) or name not in {o.name for o in self.options}:
                raise BadOptions(self._unknown(str(name)))
        for o in self.options:
            out[o.name] = o.validate(given[o.name]) if o.name in given else o.default
        return out

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready description, for menus, the lobby and ``dragonlair games``."""
        return {
            "id": self.id,
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "rules_version": self.rules_version,
            "summary": self.summary,
            "options": [
                {
                    "name": o.name,
                    "kind": o.kind,
                    "default": o.default,
                    "choices": list(o.choices),
                    "min": o.min,
                    "max": o.max,
                    "help": o.help,
                }
                for o in self.options
            ],
        }
