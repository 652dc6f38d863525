"""The State protocol for search and samplers, and the clone derived from declared fields."""

from __future__ import annotations

import random

import pytest

import dragonlair
from dragonlair.core import State
from tests.core.example_game import BID0, PebbleAuction, PebbleState


def test_derived_clone_copies_lists_and_shares_the_rest() -> None:
    state = dragonlair.make("pebble-auction", players=3).new_game(seed=4)
    assert isinstance(state, PebbleState)
    copy = state.clone()
    assert type(copy) is type(state) and copy.to_json() == state.to_json()
    assert copy.points is not state.points and copy.hands is not state.hands
    assert copy.discards is state.discards and copy.game is state.game
    copy.points[0] += 5
    assert state.points[0] != copy.points[0]


def test_a_field_without_a_type_or_a_dict_field_is_refused() -> None:
    with pytest.raises(TypeError, match="without a type"):

        class Untyped(PebbleState):
            __slots__ = ("extra",)

    with pytest.raises(TypeError, match="is a dict"):

        class WithDict(PebbleState):
            __slots__ = ("table",)
            table: dict[str, int]


def test_unchecked_protocol_matches_the_checked_surface() -> None:
    state = dragonlair.make("pebble-auction", players=3).new_game(seed=9)
    twin = state.clone()
    rng = random.Random(1)
    while not state.is_over:
        seat = state.to_act[0]
        ids = state.legal_ids_unchecked(seat)
        assert ids == state.legal_action_ids(seat)
        aid = ids[rng.randrange(len(ids))]
        state.apply_unchecked(seat, aid)
        twin.apply_id(seat, aid)
        assert state.to_json() == twin.to_json()


def test_sealed_choice_status_and_the_samplers_fill() -> None:
    game = PebbleAuction(players=3)
    state = game.new_game(seed=2)
    assert state.in_sealed_choice and state.unknown_choices() == []
    first = state.to_act[0]
    state.apply_id(first, state.legal_action_ids(first)[0])
    other = state.to_act[0]
    sample = game.sample_state(state.view(other), random.Random(0))
    assert sample.in_sealed_choice
    assert sample.unknown_choices() == []  # the sampler filled the hidden bid
    assert sample.legal_ids_unchecked(other) == state.legal_ids_unchecked(other)
    with pytest.raises(ValueError, match="no hidden choice"):
        sample.fill_choice(other, BID0)


def test_base_state_has_no_clone_of_its_own() -> None:
    with pytest.raises(NotImplementedError):
        State.clone(State.__new__(State))
