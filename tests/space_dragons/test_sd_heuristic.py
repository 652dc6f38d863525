"""The heuristic bot plays only legal actions, from its view alone, and beats random play."""

from __future__ import annotations

import random

import pytest

import dragonlair
from dragonlair.core import Bot, RandomBot
from dragonlair.space_dragons import Heuristic
from tests.space_dragons.sd_helpers import GAME


def play(game: dragonlair.Game, heuristic_seat: int, seed: int) -> dragonlair.Result:
    bots: list[Bot] = [RandomBot(game) for _ in range(game.players)]
    bots[heuristic_seat] = Heuristic(game)
    rng = random.Random(seed)
    s = game.new_game(seed)
    while not s.is_over:
        seat = s.to_act[rng.randrange(len(s.to_act))]
        legal = s.legal_actions(seat)
        choice = bots[seat].choose(s.view(seat), legal, rng)
        assert choice in legal
        s.apply(seat, choice)
    assert s.result is not None
    return s.result


@pytest.mark.parametrize(
    ("players", "options"),
    [(3, {}), (4, {}), (5, {}), (4, {"variant": True}), (4, {"science": "b", "crime": "b"})],
)
def test_heuristic_plays_legal_actions_and_beats_random_seats(
    players: int, options: dict[str, object]
) -> None:
    game = dragonlair.make(GAME, players=players, options=options)
    games = 40
    wins = 0.0
    for i in range(games):
        seat = i % players  # rotate the heuristic round the table
        r = play(game, seat, 100 + i)
        if seat in r.winners:
            wins += 1 / len(r.winners)
    assert wins / games > 1.5 / players


def test_heuristic_is_a_bot_of_this_game_only() -> None:
    assert Heuristic.level == "heuristic"
    with pytest.raises(TypeError, match="cannot play"):
        Heuristic(dragonlair.make("pebble-auction"))
