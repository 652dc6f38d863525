"""The batch emit: several events appended in one call, as one call each would."""

from __future__ import annotations

import dragonlair
from dragonlair.core.chains import Event


def test_a_batch_is_the_same_events_as_one_call_each() -> None:
    state = dragonlair.make("space-dragons", players=3).new_game(seed=5)
    one_by_one, batched = state.clone(), state.clone()
    start = state.event_count
    events: list[Event] = [
        ("passed", ("passed left",), None),
        ("received", (0, (1, 2)), (0,)),
        ("received", (1, (3, 4)), (1,)),
        ("received", (2, (5, 6)), (2,)),
    ]
    for kind, values, audience in events:
        one_by_one._emit(kind, values, audience)
    batched._emit_batch(events)
    batched._emit_batch([])  # nothing to add changes nothing
    assert batched.event_count == one_by_one.event_count == start + 4
    for seat in (None, 0, 1, 2):
        mine = batched.events_since(start, seat)
        assert mine == one_by_one.events_since(start, seat)
        # in order, each seat told its own hand and only that others received one
        assert [e["type"] for e in mine] == ["passed", "received", "received", "received"]
        for e in mine[1:]:
            assert ("redacted" in e) == (e["seat"] != seat)
