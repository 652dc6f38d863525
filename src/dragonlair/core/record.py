"""Game records: everything needed to play a game again, bit for bit.

A record is the game id, the rules version it was played under, the player count, the
options, the seed and the actions in order (each as ``[seat, "action text"]``). Replaying it
gives the same state, because the state's only source of randomness is its seeded
generator. The JSON form is meant to be read by people too.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import BadRecord
from .spec import OptionValue

RECORD_FORMAT = "dragonlair.record/1"


@dataclass(frozen=True)
class Record:
    game: str
    rules_version: int
    players: int
    options: Mapping[str, OptionValue]
    seed: int
    actions: tuple[tuple[int, str], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "rules_version": self.rules_version,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            "actions": [[s, a] for s, a in self.actions],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: object) -> Record:
        """A record from its dict form; raises BadRecord saying what is missing or wrong."""
        if not isinstance(d, Mapping):
            raise BadRecord(f"a record is a JSON object, not {type(d).__name__}")
        fmt = d.get("format", RECORD_FORMAT)
        if fmt != RECORD_FORMAT:
            raise BadRecord(f"unknown record format {fmt!r}; expected {RECORD_FORMAT!r}")
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
        return cls(
            game=d["game"],
            rules_version=d["rules_version"],
            players=d["players"],
            options=dict(options),
            seed=d["seed"],
            actions=tuple(actions),
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> Record:
        try:
            data = json.loads(text)
        except (ValueError, TypeError) as e:
            raise BadRecord(f"a record must be JSON: {e}") from None
        return cls.from_dict(data)
