"""Numbers inside a game's data file, as parameters a search can set.

A designer names a value of a component data file by the game's data option and a path
into its JSON: ``data:start_gems`` (a key), ``data:stripes.3`` (an entry of a list, from
0), ``data:crew[number=13].points`` (the entry of a list whose ``number`` is 13). A
:class:`DataValue` is such a name, with the range to search and whether the value is an
integer (as it is in the file). :func:`write_data` writes the base file with some values
replaced to a new file, which the game's own loader then checks like any data file.

The base file is the one the data option names (``-o data=my-cards.json``) or, without
it, the game's built-in file (the one JSON file in its package's ``data`` folder, or, with
other decks beside it, the one named after the package: ``dragon_stripes.json``).

:func:`game_options` is how every command reads its ``-o`` options: a data value given
one value (``-o data:scoring.crystal_set_bonus=7``) is written with the base file's other
values into a data file of its own, kept by its contents' SHA-256 in the user's cache
(``$XDG_CACHE_HOME/dragonlair/data``, else ``~/.cache/dragonlair/data``), and the data
option names that file: results, records and replays then name and hash it like any
data file, and the same values always give the same file.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ..core import DragonlairError, make, manifest, spec
from ..core.spec import OptionValue

# one step of a path: a key or list index, or a [field=value] selector of a list entry
_STEP = re.compile(r"(?P<key>[^.\[\]]+)|\[(?P<field>[^\[\]=]+)=(?P<value>[^\[\]]+)\]")


def split_setting(item: str) -> tuple[str, str]:
    """``key=value`` as its key and value, split at the first ``=`` outside brackets (a
    data path's selector, ``data:crew[number=13].points=1``, has one inside)."""
    depth = 0
    for i, ch in enumerate(item):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth = max(0, depth - 1)
        elif ch == "=" and depth == 0 and item[:i].strip():
            return item[:i].strip(), item[i + 1 :].strip()
    raise BadDataValue(f"options are key=value, not {item!r}")


class BadDataValue(DragonlairError, ValueError):
    """A data value that cannot be searched: no such option or path, not a number, a bad
    range, or a value the game's data checks refuse."""


@dataclass(frozen=True)
class DataValue:
    """A number in a data file: ``option:path``, searched over ``low..high``."""

    option: str
    path: str
    steps: tuple[str | tuple[str, str], ...]
    low: float
    high: float
    integer: bool

    @property
    def name(self) -> str:
        return f"{self.option}:{self.path}"


def is_data_param(game_id: str, text: str) -> bool:
    """Whether ``--param text`` names a data value (``option:path=...``) of ``game_id``."""
    head = text.partition(":")[0].strip()
    return ":" in text and head in path_options(game_id)


def path_options(game_id: str) -> list[str]:
    """The options of ``game_id`` that name a data file."""
    return [o.name for o in spec(game_id).options if o.kind == "path"]


def parse_steps(path: str) -> tuple[str | tuple[str, str], ...]:
    """``crew[number=13].points`` as ``("crew", ("number", "13"), "points")``."""
    steps: list[str | tuple[str, str]] = []
    pos = 0
    while pos < len(path):
        if steps and path[pos] == ".":
            pos += 1
        m = _STEP.match(path, pos)
        if m is None or m.end() == pos:
            raise BadDataValue(
                f"{path!r} is not a path into the data: keys and list positions joined by "
                f"dots, a list entry chosen by [field=value], as in crew[number=13].points"
            )
        if m.group("key") is not None:
            steps.append(m.group("key").strip())
        else:
            steps.append((m.group("field").strip(), m.group("value").strip()))
        pos = m.end()
    if not steps:
        raise BadDataValue("a data value needs a path into the data, as in data:start_gems")
    return tuple(steps)


def _locate(doc: Any, steps: Sequence[str | tuple[str, str]], name: str) -> tuple[Any, Any]:
    """The container holding the value at ``steps`` and its key or index there."""
    node = doc
    container: Any = None
    key: Any = None
    for i, step in enumerate(steps):
        where = name if i == 0 else f"{name} (at step {i + 1})"
        if isinstance(step, tuple):
            field, value = step
            if not isinstance(node, list):
                raise BadDataValue(f"{where}: [{field}={value}] selects from a list, not here")
            found = [
                k
                for k, e in enumerate(node)
                if isinstance(e, Mapping) and field in e and _same(e[field], value)
            ]
            if len(found) != 1:
                raise BadDataValue(
                    f"{where}: {len(found)} entries have {field} = {value}; "
                    "a selector must choose exactly one"
                )
            container, key = node, found[0]
        elif isinstance(node, list):
            if not step.isdigit() or int(step) >= len(node):
                raise BadDataValue(
                    f"{where}: {step!r} is not a position in a list of {len(node)} (from 0)"
                )
            container, key = node, int(step)
        elif isinstance(node, Mapping):
            if step not in node:
                keys = ", ".join(map(str, node))
                raise BadDataValue(f"{where}: there is no {step!r}; the keys are: {keys}")
            container, key = node, step
        else:
            raise BadDataValue(f"{where}: {step!r} goes into {node!r}, which is a single value")
        node = container[key]
    return container, key


def _same(found: Any, text: str) -> bool:
    return str(found).lower() == text.lower() if isinstance(found, bool) else str(found) == text


def base_file(game_id: str, options: Mapping[str, Any], option: str) -> Path:
    """The data file ``option`` names in ``options``, or the game's built-in one."""
    given = options.get(option)
    if isinstance(given, str) and given:
        return Path(given).expanduser()
    package = manifest(game_id).package
    found = []
    if package is not None:
        folder = resources.files(package) / "data"
        found = [p for p in folder.iterdir() if p.name.endswith(".json") and p.is_file()]
        if len(found) > 1:  # other decks beside it: the one named after the package
            found = [p for p in found if p.name == f"{package.rpartition('.')[2]}.json"]
    if len(found) != 1:
        raise BadDataValue(
            f"{game_id} has no single built-in data file to start from: "
            f"give one with -o {option}=FILE"
        )
    return Path(str(found[0]))


def read_base(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise BadDataValue(f"cannot read the data file {path}: {e}") from None


def parse_data_value(game_id: str, text: str, base: Mapping[str, Any]) -> DataValue:
    """``option:path=lo..hi`` as a :class:`DataValue`, checked against the base data of
    each option (``base``: option -> parsed JSON)."""
    head, _, rest = text.partition(":")
    option = head.strip()
    path, sep, rng = rest.rpartition("=")
    if not sep or ".." not in rng:
        raise BadDataValue(
            f"--param {text!r}: a data value needs a range, as in {option}:PATH=lo..hi"
        )
    steps, integer = _number_at(option, path.strip(), base)
    name = f"{option}:{path.strip()}"
    lo_text, _, hi_text = rng.partition("..")
    try:
        low, high = float(lo_text), float(hi_text)
    except ValueError:
        raise BadDataValue(f"--param {text!r}: a range is lo..hi, as in {name}=1..9") from None
    if low >= high:
        raise BadDataValue(f"--param {text!r}: a range is lo..hi with lo < hi")
    if integer and not (low.is_integer() and high.is_integer()):
        raise BadDataValue(f"{name} is a whole number in the data: give a whole range")
    return DataValue(option, path.strip(), steps, low, high, integer)


def _number_at(
    option: str, path: str, base: Mapping[str, Any]
) -> tuple[tuple[str | tuple[str, str], ...], bool]:
    """The steps of ``path`` into ``base[option]`` and whether the number there is whole;
    BadDataValue when the path leads nowhere or to something else than a number."""
    steps = parse_steps(path)
    name = f"{option}:{path}"
    container, key = _locate(base[option], steps, name)
    current = container[key]
    if isinstance(current, bool) or not isinstance(current, int | float):
        shown = repr(current) if len(repr(current)) <= 40 else f"{repr(current)[:37]}..."
        raise BadDataValue(f"{name} is {shown}, not a number")
    return steps, isinstance(current, int)


def parse_data_setting(text: str, base: Mapping[str, Any]) -> tuple[DataValue, float]:
    """``option:path=value`` (one value, as a sweep lists them) as the value and its
    :class:`DataValue` (whose range is that value)."""
    head, _, rest = text.partition(":")
    option = head.strip()
    path, sep, value = rest.rpartition("=")
    if not sep or not path.strip():
        raise BadDataValue(f"{text!r}: a data value is set as {option}:PATH=value")
    steps, integer = _number_at(option, path.strip(), base)
    name = f"{option}:{path.strip()}"
    try:
        number = float(value)
    except ValueError:
        raise BadDataValue(f"{text!r}: {value!r} is not a number") from None
    if integer and not number.is_integer():
        raise BadDataValue(f"{name} is a whole number in the data, not {value}")
    return DataValue(option, path.strip(), steps, number, number, integer), number


def replaced(base: Any, values: Mapping[DataValue, float]) -> Any:
    """A copy of the parsed ``base`` data with ``values`` set."""
    doc = copy.deepcopy(base)
    for dv, v in values.items():
        container, key = _locate(doc, dv.steps, dv.name)
        container[key] = int(v) if dv.integer else float(v)
    return doc


def write_data(path: Path, doc: Any) -> None:
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")


def check_range(
    game_id: str,
    players: int | None,
    options: Mapping[str, OptionValue],
    base: Mapping[str, Any],
    dv: DataValue,
    folder: Path,
) -> None:
    """Refuse ``dv`` (BadDataValue, with the game's own message) when the game does not
    accept a data file with its low or its high value."""
    for end in (dv.low, dv.high):
        doc = replaced(base[dv.option], {dv: end})
        path = folder / "range-check.json"
        write_data(path, doc)
        try:
            make(game_id, players=players, options={**options, dv.option: str(path)})
        except DragonlairError as e:
            shown = int(end) if dv.integer else end
            raise BadDataValue(f"{dv.name}={shown} is not accepted: {e}") from None
        finally:
            path.unlink(missing_ok=True)


def data_cache() -> Path:
    """Where data files made from data values are kept (see :func:`game_options`)."""
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(root).expanduser() / "dragonlair" / "data"


def game_options(game_id: str, items: Sequence[str]) -> dict[str, object]:
    """Command-line options (``key=value``) as the game's options, every data value among
    them (``option:PATH=value``) written into a data file for its option (the base file
    with those values, kept in :func:`data_cache` under its SHA-256) that the option then
    names. BadDataValue for a malformed item, a path that leads nowhere, a value that is
    not a number, or a cache that cannot be written; the game checks the file when made."""
    options: dict[str, object] = {}
    values: list[str] = []
    for item in items:
        key, value = split_setting(item)
        if is_data_param(game_id, key):
            values.append(f"{key}={value}")
        else:
            options[key] = value
    if not values:
        return options
    bases: dict[str, Any] = {}
    chosen: dict[str, dict[DataValue, float]] = {}
    for item in values:
        opt = item.partition(":")[0].strip()
        if opt not in bases:
            bases[opt] = read_base(base_file(game_id, options, opt))
        dv, v = parse_data_setting(item, bases)
        chosen.setdefault(opt, {})[dv] = v
    folder = data_cache()
    for opt, picked in chosen.items():
        text = json.dumps(replaced(bases[opt], picked), indent=2) + "\n"
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        path = folder / f"{game_id}.{opt}.{digest[:16]}.json"
        if not path.is_file():
            try:
                folder.mkdir(parents=True, exist_ok=True)
                partial = path.with_suffix(f".{os.getpid()}.partial")
                partial.write_text(text, encoding="utf-8")
                partial.replace(path)  # whole or not at all, also for a concurrent run
            except OSError as e:
                raise BadDataValue(
                    f"cannot write the data file for {', '.join(values)} into {folder}: {e}"
                ) from None
        options[opt] = str(path)
    return options
