"""The shared rule for answers a seat does not have to give."""

from __future__ import annotations

import random

import dragonlair
from dragonlair.core.autoplay import ANSWER_DELAY_MAX, ANSWER_DELAY_MIN, answer_delay, forced_action


def test_forced_action_only_when_single_choice() -> None:
    state = dragonlair.make("dragon-race", players=3).new_game(seed=5)
    seen_forced = seen_free = 0
    rng = random.Random(1)
    while not state.is_over:
        for seat in range(3):
            acts = state.legal_actions(seat)
            got = forced_action(state, seat)
            if len(acts) == 1:
                assert got == acts[0]
                seen_forced += 1
            else:
                assert got is None
                seen_free += seat in state.to_act
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert seen_forced and seen_free


def test_answer_delay_in_range_and_not_the_games_generator() -> None:
    rng = random.Random(3)
    delays = [answer_delay(rng) for _ in range(200)]
    assert all(ANSWER_DELAY_MIN <= d <= ANSWER_DELAY_MAX for d in delays)
    assert len(set(delays)) > 100
    assert ANSWER_DELAY_MIN <= answer_delay() <= ANSWER_DELAY_MAX
