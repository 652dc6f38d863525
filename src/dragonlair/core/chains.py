"""The chains a state keeps its history in, and a state's fields as JSON.

Actions and events are linked chains shared between clones, newest first: a node is a
tuple whose first item is the previous node (None ends the chain), so a clone shares its
original's whole history and an action adds one node. Walking a chain (the record, the
events a seat may see, the saved state) is done here; adding to it is the state's
(``State._emit``, ``State._emit_batch``). A saved state (``State.to_json``) writes each
field as plain JSON with :func:`encode` (tuples, dicts and results tagged so that they
come back as they were) and reads it back with :func:`decode`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import BadRecord
from .events import CORE_EVENTS, EventValue
from .result import Result

# A chain node: (previous node, seat, action id). None is the empty chain.
HistoryNode = tuple[Any, int, int]
# An event node: (previous node, kind, values, audience).
EventNode = tuple[Any, str, tuple[EventValue, ...], tuple[int, ...] | None]
# An event as a game emits it: (kind, values, audience).
Event = tuple[str, tuple[EventValue, ...], tuple[int, ...] | None]


def history_nodes(node: HistoryNode | None) -> list[HistoryNode]:
    """The action chain ending at ``node``, oldest first."""
    out: list[HistoryNode] = []
    while node is not None:
        out.append(node)
        node = node[0]
    out.reverse()
    return out


def event_nodes(node: EventNode | None) -> list[EventNode]:
    """The event chain ending at ``node``, oldest first."""
    out: list[EventNode] = []
    while node is not None:
        out.append(node)
        node = node[0]
    out.reverse()
    return out


def events_from(node: EventNode | None, count: int, n: int) -> tuple[int, list[EventNode]]:
    """Of the ``count`` events of the chain ending at ``node``, those numbered ``n`` and
    later, oldest first, with the number of the first (``count`` when there are none)."""
    nodes: list[EventNode] = []
    i = count
    while node is not None and i > n:
        nodes.append(node)
        node = node[0]
        i -= 1
    nodes.reverse()
    return i, nodes


def events_to_json(node: EventNode | None) -> list[list[Any]]:
    """The event chain as a saved state writes it: ``[kind, values, audience]`` each,
    oldest first."""
    return [
        [kind, encode(values), encode(audience)] for _, kind, values, audience in event_nodes(node)
    ]


def events_from_json(raw: object, kinds: Mapping[str, object]) -> EventNode | None:
    """The event chain a saved state wrote; ``kinds``: the game's event table (the
    core's own kinds are known too). BadRecord for anything else."""
    if not isinstance(raw, list):
        raise BadRecord("saved state's events should be a list")
    node: EventNode | None = None
    for item in raw:
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], str)):
            raise BadRecord(f"malformed saved event {item!r}")
        if item[0] not in kinds and item[0] not in CORE_EVENTS:
            raise BadRecord(f"unknown event kind {item[0]!r} in saved state")
        node = (node, item[0], decode(item[1]), decode(item[2]))
    return node


def encode(v: Any) -> Any:
    """A state's field as plain JSON (see the module's docstring)."""
    if v is None or isinstance(v, bool | int | float | str):
        return v
    if isinstance(v, list):
        return [encode(x) for x in v]
    if isinstance(v, tuple):
        return {"t": [encode(x) for x in v]}
    if isinstance(v, dict):
        return {"d": [[encode(k), encode(x)] for k, x in v.items()]}
    if isinstance(v, Result):
        return {"r": v.to_dict()}
    raise TypeError(f"state fields must be plain data, not {type(v).__name__}")


def decode(v: Any) -> Any:
    """A field as :func:`encode` wrote it; BadRecord for anything else."""
    if v is None or isinstance(v, bool | int | float | str):
        return v
    if isinstance(v, list):
        return [decode(x) for x in v]
    if isinstance(v, dict) and len(v) == 1:
        ((tag, inner),) = v.items()
        try:
            if tag == "t":
                return tuple(decode(x) for x in inner)
            if tag == "d":
                return {decode(k): decode(x) for k, x in inner}
            if tag == "r":
                return Result.from_dict(inner)
        except (TypeError, ValueError, KeyError) as e:
            raise BadRecord(f"malformed saved value {v!r}: {e}") from None
    raise BadRecord(f"malformed saved value {v!r}")
