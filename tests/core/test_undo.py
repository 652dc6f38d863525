"""Undo in every game, in whichever build runs the tests: taking back a decision counts as
one more move, leaves the seat's view as it was before the decision (but for the move
number), and the record with the undo in it replays to the same state."""

from __future__ import annotations

import random

import pytest

import dragonlair

GAMES = ["dragon-stripes", "space-dragons", "space-race", "dragon-race"]


@pytest.mark.parametrize("game_id", GAMES)
def test_undo_is_one_more_move_and_restores_the_seats_view(game_id: str) -> None:
    rng = random.Random(11)
    undone = 0
    for seed in range(20):
        if undone == 5:
            break
        state = dragonlair.make(game_id).new_game(seed=seed)
        for _ in range(150):
            if state.is_over:
                break
            seat = state.to_act[0]
            before = state.view(seat)
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
            if not state.can_undo(seat):
                continue
            move = state.move
            state.undo(seat)
            undone += 1
            assert state.move == move + 1
            assert {**state.view(seat), "move": 0} == {**before, "move": 0}
            assert state.record.actions[-1] == (seat, "undo")
            assert dragonlair.replay(state.record).to_json() == state.to_json()
            break
    assert undone == 5, f"only {undone} of 20 games reached a decision that can be undone"
