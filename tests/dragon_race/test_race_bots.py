"""The bots of The Great Dragon Race play from views alone; plain ``ismcts`` scores the
leaves of its tree with the heuristic's evaluation of a race in progress (figures in
docs/bots.md), which these tests check against the rules of the race."""

from __future__ import annotations

import random

import pytest

import dragonlair
from dragonlair.bots.checks import check_bot, check_ismcts_defaults
from dragonlair.core import reward
from dragonlair.dragon_race import Heuristic
from tests.dragon_race.race_helpers import act, halt, num, table


@pytest.mark.slow
def test_bots_see_only_views() -> None:
    check_bot("dragon-race", "heuristic")
    check_bot("dragon-race", "ismcts", iterations=20)


def test_declared_ismcts_defaults_are_valid_and_applied() -> None:
    assert check_ismcts_defaults("dragon-race") == {"depth": 0}


def heuristic_race(players: int, seed: int) -> list[dragonlair.State]:
    """Every tenth position of a seeded race among heuristic players, and the last."""
    game = dragonlair.make("dragon-race", players=players)
    bot = Heuristic(game)
    rng = random.Random(seed)
    s = game.new_game(seed=seed)
    out = []
    while not s.is_over:
        if s.move % 10 == 0:
            out.append(s.clone())
        (seat,) = s.to_act
        s.apply(seat, bot.choose(s.view(seat), s.legal_actions(seat), rng))
    return [*out, s]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_evaluations_are_rewards_of_every_seat(players: int) -> None:
    states = heuristic_race(players, seed=players)
    bot = Heuristic(states[0].game)
    for s in states[:-1]:
        for seat in (None, *range(players)):
            values = bot.evaluate(s.view(seat))
            assert len(values) == players and all(0.0 <= v <= 1.0 for v in values)
    last = states[-1]
    assert last.result is not None
    assert bot.evaluate(last.view(None)) == pytest.approx(last.result.rewards())


def test_evaluations_foresee_the_winner_better_than_chance() -> None:
    hits = total = 0
    for seed in range(30):
        states = heuristic_race(4, seed=100 + seed)
        result = states[-1].result
        assert result is not None
        bot = Heuristic(states[0].game)
        for s in states[len(states) // 2 : -1]:
            values = bot.evaluate(s.view(None))
            hits += max(range(4), key=values.__getitem__) in result.winners
            total += 1
    assert hits / total > 0.3  # chance: 0.25


def test_the_pawn_closer_to_the_finish_is_ahead() -> None:
    s = table(pawns=[50, 40, 40, 40], hands=[[num(2)], [num(2, second=True)], [], []])
    bot = Heuristic(s.game)
    values = bot.evaluate(s.view(None))
    assert values[0] == max(values)
    further = table(pawns=[60, 40, 40, 40], hands=[[num(2)], [num(2, second=True)], [], []])
    assert bot.evaluate(further.view(None))[0] > values[0]


def test_a_halt_card_in_hand_is_worth_more_near_the_finish() -> None:
    def gain(spots: int) -> float:
        """What holding HALT! 2 rather than a plain 2 is worth to seat 1, at ``spots``."""
        pawns = [spots, spots, spots - 2, spots - 2]
        holding = table(pawns=pawns, hands=[[num(1)], [halt(2)], [], []])
        without = table(pawns=pawns, hands=[[num(1)], [num(2)], [], []])
        bot = Heuristic(holding.game)
        return bot.evaluate(holding.view(1))[1] - bot.evaluate(without.view(1))[1]

    assert 0 < gain(10) < gain(70)


def test_a_winning_play_still_in_its_window_counts_the_halts_to_come() -> None:
    s = table(hands=[[num(6)], [halt(2), num(1)], [], []], pawns=[73, 10, 10, 10])
    act(s, f"play {num(6)}")
    assert s.phase == "halt-play" and s.pawns[0] == 76
    bot = Heuristic(s.game)
    holder = bot.evaluate(s.view(1))  # seat 1 holds a HALT! card and would halt
    undone = table(hands=[[], [halt(2), num(1)], [], []], pawns=[73, 10, 10, 10], active=0)
    undone.last = s.last  # the active seat has played this turn
    assert holder == pytest.approx(bot.evaluate(undone.view(1)))
    others = bot.evaluate(s.view(2))  # seat 2 can only guess who holds HALT! cards
    assert holder[0] < others[0] < reward(1.0, 1.0, 1.0)
    # with every HALT! card in the discard pile, the play stands: seat 0 has won
    safe = table(
        hands=[[num(6)], [num(1)], [], []],
        pawns=[73, 10, 10, 10],
        discards=[halt(v, second) for v in (1, 2, 3, 4) for second in (False, True)],
    )
    act(safe, f"play {num(6)}")
    assert bot.evaluate(safe.view(2))[0] == pytest.approx(reward(1.0, 1.0, 1.0))
