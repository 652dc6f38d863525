"""Events: what happened, as each seat may see it.

A game declares its kinds of event once, in a table of :class:`EventSpec`. An event is
stored as ``(kind, values, audience)``: ``audience`` is ``None`` when everyone may see all
of it, or the seats that may; everyone else sees only the fields the spec lists as
``public``. This table is the whole privacy policy for events, so it can be read and
reviewed in one place. An event given an audience should have public fields, so that the
others see at least that it happened: a gap in their numbering would tell them anyway (the
conformance suite checks that every seat sees every event number).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..i18n import _, plural, template, words

EventValue = int | str | bool | None | tuple[Any, ...]


@dataclass(frozen=True)
class EventSpec:
    """One kind of event: its fields, which of them everyone sees, how it reads, and
    which fields name a seat (``seat_fields``: each holds one seat number, which texts
    show by the seat's name; the browser gets the same list in its catalog)."""

    fields: tuple[str, ...]
    text: str
    public: tuple[str, ...] | None = None
    public_text: str = ""
    seat_fields: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        unknown_seats = set(self.seat_fields) - set(self.fields)
        if unknown_seats:
            raise ValueError(f"seat fields {sorted(unknown_seats)} are not fields")
        if self.public is not None:
            unknown = set(self.public) - set(self.fields)
            if unknown:
                raise ValueError(f"public fields {sorted(unknown)} are not fields")
            if self.public and not self.public_text:
                raise ValueError("an event with public fields needs a public_text")


CORE_EVENTS: Mapping[str, EventSpec] = {
    "undo": EventSpec(
        ("seat", "actions"),
        plural(
            "{seat} takes back their last decision ({actions} action undone)",
            "{seat} takes back their last decision ({actions} actions undone)",
            "actions",
        ),
        seat_fields=("seat",),
    ),
}
"""Events the engine itself emits, in every game (kinds no game may use)."""


def event_dict(
    specs: Mapping[str, EventSpec],
    seq: int,
    kind: str,
    values: tuple[EventValue, ...],
    audience: tuple[int, ...] | None,
    seat: int | None,
) -> dict[str, Any] | None:
    """The event as ``seat`` sees it (None: it sees nothing of it)."""
    spec = specs[kind] if kind in specs else CORE_EVENTS[kind]
    if audience is None or (seat is not None and seat in audience):
        d: dict[str, Any] = {"seq": seq, "type": kind}
        for name, v in zip(spec.fields, values, strict=True):
            d[name] = list(v) if isinstance(v, tuple) else v
        return d
    if not spec.public:
        return None
    d = {"seq": seq, "type": kind, "redacted": True}
    for name, v in zip(spec.fields, values, strict=True):
        if name in spec.public:
            d[name] = list(v) if isinstance(v, tuple) else v
    return d


def event_text(
    specs: Mapping[str, EventSpec], event: Mapping[str, Any], names: Sequence[str] | None = None
) -> str:
    """A one-line description of an event dict, with the seats of its declared
    ``seat_fields`` shown by name, in the current language (:mod:`dragonlair.i18n`): the
    template and the words among its values (``face up``, ``left``) are translated."""
    kind = event["type"]
    spec = specs[kind] if kind in specs else CORE_EVENTS[kind]
    text = spec.public_text if event.get("redacted") else spec.text
    seats = spec.seat_fields
    values: dict[str, Any] = {}
    for k, v in event.items():
        if names is not None and k in seats and isinstance(v, int) and not isinstance(v, bool):
            values[k] = names[v] if 0 <= v < len(names) else v
        elif isinstance(v, list):
            values[k] = ", ".join(str(_word(x)) for x in v) if v else _("none")
        else:
            values[k] = _word(v)
    try:
        return template(text, values).format(**values)
    except (KeyError, IndexError):
        return f"{event['type']} " + " ".join(f"{k}={v}" for k, v in event.items() if k != "type")


def _word(value: Any) -> Any:
    """A word among an event's values in the current language (others unchanged)."""
    return words(value) if isinstance(value, str) and value else value
