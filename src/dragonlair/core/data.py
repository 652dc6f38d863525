"""Reading component data files with precise errors.

Each game ships its data as JSON in its package's ``data/`` folder and accepts a user's
own file through its ``data`` option. Both go through :func:`read_json`, and the game's
loader checks every entry with :class:`Checker`, so a bad file is refused with the file,
the entry and what was expected (``my_game.json: cards[12].effects.shield: expected
an integer from 0 to 3, got "two"``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, NoReturn

from .errors import BadDataFile


def read_json(
    package: str, filename: str, user_path: str | None = None, optional: Sequence[str] = ()
) -> tuple[Any, str]:
    """The parsed JSON of ``user_path`` if given, else of the package's ``data/filename``;
    with the name to use in error messages. A user's file may leave out the top-level
    entries named in ``optional`` (rule values that became data after files were written
    for the older schema): they are the built-in file's."""
    if user_path is not None:
        path = Path(user_path).expanduser()
        name = str(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise BadDataFile(f"cannot read data file {name}: {e.strerror or e}") from None
    else:
        name = filename
        text = resources.files(package).joinpath("data", filename).read_text(encoding="utf-8")
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        raise BadDataFile(f"{name}: not valid JSON: {e.msg} at line {e.lineno}") from None
    missing = [k for k in optional if isinstance(raw, dict) and k not in raw]
    if user_path is not None and missing:
        built_in = json.loads(
            resources.files(package).joinpath("data", filename).read_text(encoding="utf-8")
        )
        raw.update({k: built_in[k] for k in missing})
    return raw, name


class Checker:
    """Typed access into parsed JSON that names the exact entry when something is wrong."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def fail(self, where: str, expected: str, got: object) -> NoReturn:
        raise BadDataFile(f"{self.name}: {where}: expected {expected}, got {got!r}")

    def obj(self, value: object, where: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            self.fail(where, "an object", value)
        return value

    def items(self, value: object, where: str, length: int | None = None) -> Sequence[Any]:
        if not isinstance(value, list):
            self.fail(where, "a list", value)
        if length is not None and len(value) != length:
            self.fail(where, f"a list of {length} entries", f"{len(value)} entries")
        return value

    def key(self, obj: Mapping[str, Any], key: str, where: str) -> Any:
        if key not in obj:
            raise BadDataFile(f"{self.name}: {where}: missing {key!r}")
        return obj[key]

    def integer(
        self, value: object, where: str, lo: int | None = None, hi: int | None = None
    ) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(where, _int_range(lo, hi), value)
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            self.fail(where, _int_range(lo, hi), value)
        return value

    def text(self, value: object, where: str, choices: Sequence[str] | None = None) -> str:
        if not isinstance(value, str) or (choices is not None and value not in choices):
            self.fail(where, "one of " + ", ".join(choices) if choices else "a string", value)
        return value

    def optional_text(
        self, value: object, where: str, choices: Sequence[str] | None = None
    ) -> str | None:
        return None if value is None else self.text(value, where, choices)


def _int_range(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return f"an integer from {lo} to {hi}"
    if lo is not None:
        return f"an integer >= {lo}"
    if hi is not None:
        return f"an integer <= {hi}"
    return "an integer"


def plain(value: Any) -> Any:
    """A dataclass, tuple or mapping of them as JSON-ready data (lists and str keys)."""
    import dataclasses

    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def public_components(value: Any) -> dict[str, Any]:
    """A game's component data as JSON, without ``source`` (the data file's name: a path
    on the server for a user's own file)."""
    out: dict[str, Any] = plain(value)
    out.pop("source", None)
    return out
