"""The heuristic bot plays legal moves from its view and beats random play."""

from __future__ import annotations

import random

import dragonlair
from dragonlair.core import RandomBot
from dragonlair.space_race import Heuristic


def test_it_is_a_heuristic_bot_that_only_returns_legal_actions() -> None:
    assert Heuristic.level == "heuristic"
    for players in (2, 3, 4):
        game = dragonlair.make("space-race", players=players, options={"scanner": "always"})
        bot = Heuristic(game)
        rng = random.Random(players)
        s = game.new_game(seed=players)
        while not s.is_over:
            seat = s.to_act[rng.randrange(len(s.to_act))]
            legal = s.legal_actions(seat)
            action = bot.choose(s.view(seat), legal, rng)
            assert action in legal
            s.apply(seat, action)


def test_one_heuristic_seat_beats_random_seats_clearly() -> None:
    game = dragonlair.make("space-race", players=4)
    share = 0.0
    games = 40
    for seed in range(games):
        hero = seed % 4
        bots = [Heuristic(game) if s == hero else RandomBot(game) for s in range(4)]
        rng = random.Random(seed)
        s = game.new_game(seed=seed)
        while not s.is_over:
            seat = s.to_act[0]
            s.apply(seat, bots[seat].choose(s.view(seat), s.legal_actions(seat), rng))
        assert s.result is not None
        if hero in s.result.winners:
            share += 1 / len(s.result.winners)
    assert share / games > 0.45  # fair share is 0.25
