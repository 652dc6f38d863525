"""The heuristic bot plays legal moves from its view and beats random play."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import dragonlair
from dragonlair.core import Action, RandomBot
from dragonlair.space_race import Heuristic
from dragonlair.space_race.archetypes import ARCHETYPES
from dragonlair.space_race.cards import (
    CRYSTAL,
    FLIGHT,
    HAND_SIZE,
    NSTACK,
    ROBOT_PART,
    ROUNDS,
    S_CREW,
    S_FUEL,
)
from dragonlair.space_race.heuristic import row_from_view
from dragonlair.space_race.kinds import UPGRADE
from dragonlair.space_race.scoring import CRYSTAL_SET, SeatGain


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


def reference_pick(bot: Heuristic, view: dict[str, Any], legal: list[Action], rng: Any) -> Action:
    """The heuristic's pick worked out the long way: every candidate valued on its own,
    its gain from ``scoring.SeatGain`` (which the tests hold to the full scoring) and the
    bonuses of the bot's weights, in the order the bot adds them."""
    game = bot.game
    t = game.tables  # type: ignore[attr-defined]
    w = bot.weights
    seat = view["seat"]
    row = row_from_view(view)
    mine = row[seat * NSTACK : (seat + 1) * NSTACK]
    scorer = SeatGain(row, seat, t, game.every_power_source)  # type: ignore[attr-defined]
    picks_left = (ROUNDS - view["round"]) * HAND_SIZE + HAND_SIZE - view["pick"]
    dangers_left = ROUNDS - view["round"] + 1
    top = view["danger_top"]
    flight_seen = None if top is None else t.danger_kind[top] == FLIGHT
    best = best_tie = -math.inf
    choice = legal[0]
    for action in legal:
        aid = game.table.id_of(action)
        card, stack = game.aid_card[aid], game.aid_stack[aid]  # type: ignore[attr-defined]
        value = float(scorer.gain(stack, card))
        if stack in (S_FUEL, S_CREW):
            value += (w.fuel_per_danger if stack == S_FUEL else w.crew_per_danger) * dangers_left
            if flight_seen is not None and flight_seen == (stack == S_FUEL):
                value += w.seen_danger_bonus
        elif t.type[card] == CRYSTAL:
            missing = CRYSTAL_SET - (len(mine[stack]) + 1) % CRYSTAL_SET
            if missing < CRYSTAL_SET and picks_left >= missing:
                value += w.set_progress
        elif t.type[card] == ROBOT_PART:
            counts = [0, 0, 0]
            for c in mine[stack]:
                counts[t.part[c]] += 1
            if counts[t.part[card]] == min(counts) and picks_left >= 2:
                value += w.robot_progress
        tie = rng.random()
        if value > best or (value == best and tie > best_tie):
            best, best_tie, choice = value, tie, action
    return choice


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("options", [{}, {"every_power_source": True}])
def test_the_picks_are_those_of_every_candidate_valued_the_long_way(
    players: int, options: dict[str, bool]
) -> None:
    game = dragonlair.make("space-race", players=players, options=options)
    bots = [Heuristic(game), *(Heuristic(game, a.weights) for a in ARCHETYPES)]
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        s = game.new_game(seed=seed)
        while not s.is_over:
            seat = rng.choice(s.to_act)
            legal = s.legal_actions(seat)
            if s.phase == UPGRADE:
                view = s.view(seat)
                for bot in bots:
                    expected = reference_pick(bot, view, legal, random.Random(checked))
                    for given in (view, s.seat_view(seat)):
                        assert bot.choose(given, legal, random.Random(checked)) == expected
                    checked += 1
            s.apply(seat, rng.choice(legal))
    assert checked > 500
