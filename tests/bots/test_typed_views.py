"""Typed views: the same keys and values as the JSON view, each worked out when read, and
holding nothing the seat may not see (a state that differs only in what the seat cannot
see gives a typed view holding exactly the same)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import dragonlair
from dragonlair.core import State
from dragonlair.core.views import View

TYPED = ["space-race", "space-dragons", "dragon-stripes", "dragon-race"]


def held(view: View) -> dict[str, Any]:
    """Everything a typed view holds, by slot (the game object aside)."""
    out: dict[str, Any] = {}
    for klass in type(view).__mro__:
        for name in getattr(klass, "__slots__", ()):
            if name not in ("_game", "_got", "_done", "_nbase") and hasattr(view, name):
                out[name] = getattr(view, name)
    return out


def positions(game_id: str, players: int, games: int = 3) -> list[State]:
    game = dragonlair.make(game_id, players=players)
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        s = game.new_game(seed=seed)
        while not s.is_over:
            if rng.random() < 0.3:
                out.append(s.clone())
            seat = rng.choice(s.to_act)
            s.apply(seat, rng.choice(s.legal_actions(seat)))
        out.append(s)
    return out


@pytest.mark.parametrize("game_id", TYPED)
@pytest.mark.parametrize("fewest", [True, False])
def test_a_typed_view_reads_as_the_json_view_key_by_key(game_id: str, fewest: bool) -> None:
    spec = dragonlair.spec(game_id)
    players = spec.min_players if fewest else spec.max_players
    for state in positions(game_id, players):
        for seat in [*range(players), None]:
            wire = state.view(seat)
            typed = state.seat_view(seat)
            assert isinstance(typed, View)
            fresh = state.seat_view(seat)
            for key in reversed(list(wire)):  # any order, each key on its own
                assert fresh[key] == wire[key], key
            assert dict(typed) == wire and list(typed) == list(wire)
            assert json.dumps(typed.json()) == json.dumps(wire)
            assert "hands" not in typed
            with pytest.raises(KeyError):
                typed["hands"]


@pytest.mark.parametrize("game_id", TYPED)
def test_a_typed_view_holds_only_what_its_seat_may_see(game_id: str) -> None:
    game = dragonlair.make(game_id, players=4)
    for state in positions(game_id, 4, games=2):
        for seat in range(4):
            real = state.seat_view(seat)
            assert isinstance(real, View)
            for k in range(3):
                other = game.sample_state(state.view(seat), random.Random(k))
                again = other.seat_view(seat)
                assert isinstance(again, View)
                assert held(again) == held(real)


def test_space_race_scores_are_worked_out_only_when_read() -> None:
    game = dragonlair.make("space-race", players=3)
    state = positions("space-race", 3, games=1)[5]
    typed = state.seat_view(1)
    assert isinstance(typed, View)
    typed["ships"]
    assert typed._got is not None  # the keys read so far (None until the first read)
    assert "score" not in typed._got
    assert typed["score"] == state.view(1)["score"]
    assert game.players == 3


def test_space_race_running_scores_are_worked_out_once_for_every_seat_of_a_position() -> None:
    from dragonlair.space_race import json_view
    from dragonlair.space_race.view import SpaceRaceSeatView

    game = dragonlair.make("space-race", players=4)
    states = positions("space-race", 4, games=1)
    memo = json_view._public_scored
    memo.clear()
    for state in (states[9], states[9].clone(), states[10]):
        for seat in [*range(4), None]:
            typed = state.seat_view(seat)
            assert isinstance(typed, SpaceRaceSeatView)
            assert typed.scores() == state.view(seat)["score"]
    # one entry per row of ships as it is: a clone shares its state's tuples, and the
    # next position's ships have changed (every seat placed a card)
    assert len(memo) == 2, len(memo)
    assert game.players == 4


def test_space_dragons_symbols_and_points_are_counted_once_for_every_seat_of_a_position() -> None:
    from dragonlair.space_dragons import json_view
    from dragonlair.space_dragons.view import SpaceDragonsSeatView

    states = positions("space-dragons", 4, games=1)
    hunt = [s for s in states if s.phase == "hunt"]
    memo = json_view._tallied
    memo.clear()
    for state in (hunt[0], hunt[0].clone(), hunt[1]):
        for seat in [*range(4), None]:
            typed = state.seat_view(seat)
            assert isinstance(typed, SpaceDragonsSeatView)
            wire = state.view(seat)
            assert typed["symbols"] == wire["symbols"]
            assert list(typed.tallies()[1]) == wire["card_points"]
    # one entry per set of cards on the table: a clone shares its state's tuples, and a
    # card was played between the two positions
    assert len(memo) == 2, len(memo)


def test_keys_shown_only_with_an_option_are_there_exactly_when_the_json_has_them() -> None:
    for open_holdings in (False, True):
        game = dragonlair.make(
            "dragon-stripes", players=3, options={"open_holdings": open_holdings}
        )
        state = game.new_game(seed=3)
        for seat in (0, None):
            typed = state.seat_view(seat)
            wire = state.view(seat)
            assert ("lair" in typed) is ("lair" in wire) is open_holdings
            assert ("all_gems" in typed) is open_holdings
            assert dict(typed) == wire


@pytest.mark.parametrize("open_holdings", [False, True])
def test_a_decoyed_typed_view_stays_typed_and_lacks_what_the_view_lacks(
    open_holdings: bool,
) -> None:
    from dragonlair.bots.checks import PeekedAtState, poisoned_view

    game = dragonlair.make("dragon-stripes", players=3, options={"open_holdings": open_holdings})
    state = game.new_game(seed=5)
    typed = state.seat_view(1)
    decoyed = poisoned_view(typed)
    assert isinstance(decoyed, type(typed))
    assert ("lair" in decoyed) is open_holdings
    assert decoyed["pot"] == state.view(1)["pot"]
    with pytest.raises(PeekedAtState):
        len(decoyed["hands"])


@pytest.mark.parametrize("game_id", TYPED)
def test_a_typed_view_is_a_read_only_mapping_that_is_not_copied(game_id: str) -> None:
    """A typed view is registered as a Mapping (not a subclass of one, so that the compiled
    build compiles it) and answers every mapping method as its JSON form does; it is
    neither hashed, copied nor pickled, in either build, with a clear error."""
    import copy
    import pickle
    from collections.abc import Mapping

    state = dragonlair.make(game_id, players=3).new_game(seed=3)
    typed, wire = state.seat_view(1), state.view(1)
    assert isinstance(typed, View) and isinstance(typed, Mapping)
    assert typed == wire and wire == typed and typed == state.seat_view(1)
    other: object = [*wire]  # not a mapping
    assert typed != state.view(2) and typed != other
    assert list(typed) == list(typed.keys()) == list(wire) and len(typed) == len(wire)
    assert list(typed.values()) == list(wire.values()) and dict(typed.items()) == wire
    assert typed.get("seat") == 1 and typed.get("no such key", 7) == 7
    number: object = 3
    assert "seat" in typed and "no such key" not in typed and number not in typed
    with pytest.raises(TypeError):
        hash(typed)
    for copied in (copy.copy, copy.deepcopy, pickle.dumps):
        with pytest.raises(TypeError, match="is not copied or pickled"):
            copied(typed)


def test_a_typed_view_without_a_builder_for_a_key_is_refused_when_made() -> None:
    with pytest.raises(TypeError, match="has no _k_ method for late"):

        class Incomplete(View):
            KEYS = ("late",)
