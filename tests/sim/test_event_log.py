"""The event log the designer's per-game data is read from (``State.event_log``): every
event in order with its values and audience, which is exactly what ``events_since`` shows
each seat and a spectator, so features read from it in one pass are those the seats saw."""

from __future__ import annotations

import random

import pytest

import dragonlair
from dragonlair.core.events import event_dict
from dragonlair.sim.features import features_module


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    "game_id", ["space-race", "space-dragons", "dragon-stripes", "dragon-race"]
)
def test_the_event_log_is_what_every_seat_and_a_spectator_saw(game_id: str) -> None:
    game = dragonlair.make(game_id, players=4)
    for seed in range(4):
        state = game.new_game(seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
        log = state.event_log()
        assert len(log) == state.event_count
        for who in (None, *range(game.players)):
            seen = [
                d
                for seq, (kind, values, audience) in enumerate(log)
                if (d := event_dict(game.event_specs, seq, kind, values, audience, who)) is not None
            ]
            assert seen == state.events_since(0, who)


@pytest.mark.timeout(120)
def test_the_features_count_what_the_events_say() -> None:
    """Space Race's per-seat features, read from the log: every Space card a seat played
    is counted once, and the rounds are the game's."""
    game = dragonlair.make("space-race", players=3)
    module = features_module("space-race")
    assert module is not None
    state = game.new_game(11)
    rng = random.Random(11)
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
    f = module.features(state)
    assert f["length"] == {"rounds": 3}
    for s in range(3):
        own = [e for e in state.events_since(0, s) if e["type"] == "placed" and e["seat"] == s]
        row = f["seats"][s]
        assert row["cards"].split() == [str(e["card"]) for e in own]
        assert row["fuel_picks"] == sum(1 for e in own if "Fuel" in e["how"]) > 0
        assert len(own) == 3 * 6
