"""Game records: everything needed to play a game again, bit for bit.

A record is the game id, the rules version it was played under, the player count, the
options, the seed, the position the game started from (absent for a game dealt from the
seed) and the actions in order (each as ``[seat, "action text"]``; ``[seat, "undo"]`` is
that seat taking back its last decision). Replaying it gives the same state, because the
state's only source of randomness is its seeded generator. The JSON form is meant to be
read by people too.

Format ``dragonlair.record/2`` added the position and undo; ``dragonlair.record/1``
records (without either) still load.

An option that names a data file (a ``path`` option) is only a path: the record also keeps
the SHA-256 of the file's contents (``data_files``: option -> hex digest), and replay
refuses a record whose file has changed since, which would otherwise quietly replay other
rules.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import BadRecord
from .spec import GameSpec, OptionValue

_DIGEST = re.compile(r"^[0-9a-f]{64}$")
_digests: dict[tuple[str, int, int], str] = {}  # (path, size, mtime) -> SHA-256


def file_digest(path: str) -> str:
    """The SHA-256 of a file's contents in hex (remembered while its size and time stay)."""
    p = Path(path).expanduser()
    st = p.stat()
    key = (str(p.resolve()), st.st_size, st.st_mtime_ns)
    digest = _digests.get(key)
    if digest is None:
        digest = hashlib.sha256(p.read_bytes()).hexdigest()
        _digests[key] = digest
    return digest


def data_digests(spec: GameSpec, options: Mapping[str, OptionValue]) -> dict[str, str]:
    """The SHA-256 of every data file the options name: option -> hex digest."""
    out = {}
    for opt in spec.options:
        value = options.get(opt.name)
        if opt.kind == "path" and isinstance(value, str) and value:
            out[opt.name] = file_digest(value)
    return out


RECORD_FORMAT = "dragonlair.record/2"
RECORD_FORMATS = ("dragonlair.record/1", RECORD_FORMAT)


@dataclass(frozen=True)
class Record:
    game: str
    rules_version: int
    players: int
    options: Mapping[str, OptionValue]
    seed: int
    actions: tuple[tuple[int, str], ...]
    data_files: Mapping[str, str] = field(default_factory=dict)  # option -> SHA-256
    position: Mapping[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "rules_version": self.rules_version,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            "actions": [[s, a] for s, a in self.actions],
        }
        if self.data_files:
            d["data_files"] = dict(self.data_files)
        if self.position is not None:
            d["position"] = dict(self.position)
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: object) -> Record:
        """A record from its dict form; raises BadRecord saying what is missing or wrong."""
        if not isinstance(d, Mapping):
            raise BadRecord(f"a record is a JSON object, not {type(d).__name__}")
        fmt = d.get("format", RECORD_FORMAT)
        if fmt not in RECORD_FORMATS:
            raise BadRecord(
                f"unknown record format {fmt!r}; expected one of {', '.join(RECORD_FORMATS)}"
            )
        position = d.get("position")
        if position is not None and (fmt != RECORD_FORMAT or not isinstance(position, Mapping)):
            raise BadRecord(f"record's 'position' should be an object in {RECORD_FORMAT}")
        for key, typ in (
            ("game", str),
            ("rules_version", int),
            ("players", int),
            ("seed", int),
            ("options", Mapping),
            ("actions", list),
        ):
            if key not in d:
                raise BadRecord(f"record has no {key!r}")
            v = d[key]
            if not isinstance(v, typ) or (typ is int and isinstance(v, bool)):
                raise BadRecord(f"record's {key!r} should be {typ.__name__}, not {v!r}")
        actions: list[tuple[int, str]] = []
        for i, item in enumerate(d["actions"]):
            if (
                not isinstance(item, list | tuple)
                or len(item) != 2
                or isinstance(item[0], bool)
                or not isinstance(item[0], int)
                or not isinstance(item[1], str)
            ):
                raise BadRecord(f'record action {i} should be [seat, "action text"], not {item!r}')
            actions.append((item[0], item[1]))
        options = d["options"]
        for k, v in options.items():
            if not isinstance(k, str) or not (v is None or isinstance(v, bool | int | float | str)):
                raise BadRecord(f"record option {k!r}={v!r} is not a plain value")
        files = d.get("data_files", {})
        if not isinstance(files, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) and _DIGEST.match(v) for k, v in files.items()
        ):
            raise BadRecord("record's 'data_files' should map options to SHA-256 hex digests")
        return cls(
            game=d["game"],
            rules_version=d["rules_version"],
            players=d["players"],
            options=dict(options),
            seed=d["seed"],
            actions=tuple(actions),
            data_files=dict(files),
            position=None if position is None else dict(position),
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> Record:
        try:
            data = json.loads(text)
        except (ValueError, TypeError) as e:
            raise BadRecord(f"a record must be JSON: {e}") from None
        return cls.from_dict(data)
