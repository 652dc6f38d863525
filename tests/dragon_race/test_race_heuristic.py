"""The heuristic bot: legal choices from the view alone, and clearly better than random."""

from __future__ import annotations

import random

import pytest

import dragonlair
from dragonlair.core import Bot, RandomBot
from dragonlair.dragon_race import Heuristic
from tests.dragon_race.race_helpers import act, halt, num, table


def play(game: dragonlair.Game, bots: list[Bot], seed: int) -> tuple[int, ...]:
    rng = random.Random(seed)
    s = game.new_game(seed)
    while not s.is_over:
        (seat,) = s.to_act
        legal = s.legal_actions(seat)
        choice = bots[seat].choose(s.view(seat), legal, rng)
        assert choice in legal
        s.apply(seat, choice)
    assert s.result is not None
    return s.result.winners


@pytest.mark.parametrize("players", [2, 3, 4])
def test_heuristic_chooses_only_legal_actions(players: int) -> None:
    game = dragonlair.make("dragon-race", players=players, options={"bonus_play": "must"})
    bots = [Heuristic(game) for _ in range(players)]
    for seed in range(3):
        play(game, bots, seed)  # type: ignore[arg-type]


def test_heuristic_beats_random_players() -> None:
    game = dragonlair.make("dragon-race", players=4)
    wins = 0.0
    games = 24
    for i in range(games):
        seat = i % 4
        bots: list[Bot] = [RandomBot(game) for _ in range(4)]
        bots[seat] = Heuristic(game)
        winners = play(game, bots, 1000 + i)
        if seat in winners:
            wins += 1 / len(winners)
    assert wins / games > 0.5  # fair share is 0.25


def test_heuristic_halts_a_winning_move() -> None:
    s = table(hands=[[num(6)], [halt(2), num(1)], [], []], pawns=[73, 10, 10, 10])
    act(s, f"play {num(6)}")
    bot = Heuristic(s.game)
    assert str(bot.choose(s.view(1), s.legal_actions(1), random.Random(0))) == f"halt {halt(2)}"


def test_heuristic_takes_the_finish() -> None:
    s = table(hands=[[num(1), num(6), 45]], pawns=[72, 10, 10, 10])
    bot = Heuristic(s.game)
    assert str(bot.choose(s.view(0), s.legal_actions(0), random.Random(0))) == f"play {num(6)}"


def test_heuristic_is_for_this_game_only() -> None:
    with pytest.raises(TypeError):
        Heuristic(dragonlair.make("pebble-auction"))
