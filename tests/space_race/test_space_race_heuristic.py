"""The heuristic bot plays legal moves from its view and beats random play."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import Any

import pytest

import dragonlair
from dragonlair.core import Action, Game, RandomBot, State
from dragonlair.space_race import Heuristic
from dragonlair.space_race.archetypes import ARCHETYPES
from dragonlair.space_race.cards import (
    CRYSTAL,
    DAMAGE,
    FLIGHT,
    NSTACK,
    ROBOT_PART,
    S_CREW,
    S_DAMAGE,
    S_FUEL,
    WRENCH,
)
from dragonlair.space_race.heuristic import row_from_view
from dragonlair.space_race.kinds import DANGER, UPGRADE
from dragonlair.space_race.scoring import SeatGain


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
    rounds, hand = game.rounds, game.hand_size  # type: ignore[attr-defined]
    picks_left = (rounds - view["round"]) * hand + hand - view["pick"]
    dangers_left = rounds - view["round"] + 1
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
            per_set = t.scoring.crystal_set
            missing = per_set - (len(mine[stack]) + 1) % per_set
            if missing < per_set and picks_left >= missing:
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


def positions(game: Game, phase: str, games: int) -> Iterator[tuple[State, int, list[Action]]]:
    """Every position in ``phase`` along random games with seeds 0 to ``games`` - 1: the
    state, the seat asked and its legal actions (the game goes on once it is back)."""
    for seed in range(games):
        rng = random.Random(seed)
        s = game.new_game(seed=seed)
        while not s.is_over:
            seat = rng.choice(s.to_act)
            legal = s.legal_actions(seat)
            if s.phase == phase:
                yield s, seat, legal
            s.apply(seat, rng.choice(legal))


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("options", [{}, {"every_power_source": True}])
def test_the_picks_are_those_of_every_candidate_valued_the_long_way(
    players: int, options: dict[str, bool]
) -> None:
    game = dragonlair.make("space-race", players=players, options=options)
    bots = [Heuristic(game), *(Heuristic(game, a.weights) for a in ARCHETYPES)]
    checked = 0
    for s, seat, legal in positions(game, UPGRADE, games=6):
        view = s.view(seat)
        for bot in bots:
            expected = reference_pick(bot, view, legal, random.Random(checked))
            for given in (view, s.seat_view(seat)):
                assert bot.choose(given, legal, random.Random(checked)) == expected
            checked += 1
    assert checked > 500


def reference_bid(bot: Heuristic, view: dict[str, Any], legal: list[Action]) -> Action:
    """The heuristic's bid worked out the long way: the total each bid leaves from
    ``scoring.SeatGain.bid_totals`` (which the tests hold to the full scoring), the rank
    it reaches against rivals bidding about half of what they hold, and the best value
    with the smaller bid of two worth the same."""
    game = bot.game
    t = game.tables  # type: ignore[attr-defined]
    seat = view["seat"]
    row = row_from_view(view)
    card = view["danger"]
    stack = S_FUEL if t.danger_kind[card] == FLIGHT else S_CREW
    left = SeatGain(row, seat, t, game.every_power_source).bid_totals(stack)  # type: ignore[attr-defined]
    rivals = [len(row[s * NSTACK + stack]) for s in range(game.players) if s != seat]
    expected = {(n + 1) // 2 for n in rivals}
    damage_vp = [t.damage_vp[c] for c in t.damage_ids]
    average = sum(damage_vp) / len(damage_vp)
    mine = sorted(t.damage_vp[c] for c in row[seat * NSTACK + S_DAMAGE])
    later = bot.weights.keep_per_danger * (bot.game.rounds - view["round"])  # type: ignore[attr-defined]
    best: tuple[float, int] = (-math.inf, 0)
    choice = legal[0]
    for action in legal:
        b = int(action.args[0])
        icon, n = t.danger_ranks[card][sum(e > b for e in expected)]
        effect = -float(sum(mine[:n])) if icon == WRENCH else n * average if icon == DAMAGE else 0.0
        if (effect + left[b] - b * later, -b) > best:
            best, choice = (effect + left[b] - b * later, -b), action
    return choice


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", [{}, {"every_power_source": True}])
def test_the_bids_are_those_of_the_totals_seat_gain_gives(
    players: int, options: dict[str, bool]
) -> None:
    game = dragonlair.make("space-race", players=players, options=options)
    bots = [Heuristic(game), *(Heuristic(game, a.weights) for a in ARCHETYPES)]
    checked = 0
    for s, seat, legal in positions(game, DANGER, games=12):
        view = s.view(seat)
        for bot in bots:
            expected = reference_bid(bot, view, legal)
            for given in (view, s.seat_view(seat)):
                assert bot.choose(given, legal, random.Random(0)) == expected
            checked += 1
    assert checked > 60 * players
