"""The heuristic bot: legal moves only, from the view alone, and clearly better than random."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

import dragonlair
from dragonlair.bots import Bot, RandomBot
from dragonlair.dragon_stripes import Heuristic
from dragonlair.dragon_stripes.rules import DragonStripes
from tests.dragon_stripes.stripes_helpers import act, new, set_pot, stack


@pytest.mark.parametrize("players", range(2, 7))
def test_the_heuristic_only_chooses_legal_actions(players: int) -> None:
    game = dragonlair.make("dragon-stripes", players=players)
    bot = Heuristic(game)
    assert bot.level == "heuristic"
    rng = random.Random(players)
    for seed in range(15):
        s = game.new_game(seed)
        while not s.is_over:
            seat = s.to_act[0]
            legal = s.legal_actions(seat)
            choice = bot.choose(s.view(seat), legal, rng)
            assert choice in legal
            s.apply(seat, choice)


def test_the_heuristic_decides_from_the_view_alone() -> None:
    s = new(open_holdings=True)
    bot = Heuristic(s.game)
    rng = random.Random(0)
    stack(s, 4)
    act(s, 0, "draw")
    view = s.view(0)
    sampled = s.game.sample_state(view, random.Random(1))
    assert bot.choose(view, s.legal_actions(0), rng) == bot.choose(
        sampled.view(0), sampled.legal_actions(0), rng
    )


def test_the_heuristic_pushes_on_with_a_small_pot_and_holds_a_big_one() -> None:
    s = new()
    bot = Heuristic(s.game)
    rng = random.Random(0)
    stack(s, 2)
    act(s, 0, "draw")
    assert str(bot.choose(s.view(0), s.legal_actions(0), rng)) == "draw"
    set_pot(s, 60)
    assert str(bot.choose(s.view(0), s.legal_actions(0), rng)) == "hold"


def test_the_heuristic_takes_a_bargain_and_declines_a_dear_knight() -> None:
    s = new()
    bot = Heuristic(s.game)
    rng = random.Random(0)
    stack(s, 4, 4)
    act(s, 0, "draw", "draw")
    set_pot(s, 40)  # price 20 for 40 gems
    act(s, 0, "hold")
    assert str(bot.choose(s.view(1), s.legal_actions(1), rng)) == "take"
    s2 = new()
    stack(s2, 1)
    act(s2, 0, "draw")
    set_pot(s2, 41)  # price 40 for 41 gems
    act(s2, 0, "hold")
    assert str(bot.choose(s2.view(1), s2.legal_actions(1), rng)) == "decline"


def test_one_heuristic_seat_wins_clearly_more_than_its_fair_share() -> None:
    share = win_share(players=4, games=160, seed=2)
    assert share > 0.35  # fair share 0.25; about 0.48 over 1000 games


def win_share(players: int, games: int, seed: int = 0) -> float:
    """The heuristic's share of the wins over ``games`` games, its seat rotating."""
    game = dragonlair.make("dragon-stripes", players=players)
    heuristic, rand = Heuristic(game), RandomBot(game)
    rng = random.Random(seed)
    won = 0.0
    for i in range(games):
        mine = i % players
        s = game.new_game(seed=seed * 1_000_003 + i)
        while not s.is_over:
            seat = s.to_act[0]
            bot: Bot = heuristic if seat == mine else rand
            s.apply(seat, bot.choose(s.view(seat), s.legal_actions(seat), rng))
        assert s.result is not None
        if mine in s.result.winners:
            won += 1 / len(s.result.winners)
    return won / games


def test_the_lair_floor_is_never_above_the_estimate_and_a_draw_is_valued_as_in_full() -> None:
    """The heuristic works out the lair's estimate only when ``lair_floor`` cannot settle a
    footprint's worth: the floor must never exceed the estimate, and the value of a draw
    must be that of the full sum (every footprint against the estimate)."""
    from dragonlair.dragon_stripes.cards import DANGER, STOP
    from dragonlair.dragon_stripes.heuristic import draw_value, lair_estimate, lair_floor

    def in_full(view: Any, pot: int, gems: int) -> float:
        lair = lair_estimate(view, (4, 2))
        size, knight, dangers = view["deck_size"], view["knight"], view["dangers"]
        stripes, double = view["stripes"], view["reward_multiplier"]
        value = 0.0
        for name, count in view["deck_left"].items():
            if count == 0:
                continue
            p = count / size
            code = STOP if name == "stop" else DANGER if name == "danger" else int(name[10:])
            if code == STOP:
                value -= p * (pot + gems // (2 if dangers >= 2 else 4))
            elif code == DANGER:
                lost = gems if dangers + 1 == 3 else gems // (2 if dangers + 1 >= 2 else 4)
                value -= p * (pot + lost)
            else:
                to = knight + code
                value += p * (lair if to > len(stripes) else min(lair, stripes[to - 1] * double))
        return value

    checked = shortcut = 0
    for players in (2, 4, 6):
        game = cast(DragonStripes, dragonlair.make("dragon-stripes", players=players))
        rng = random.Random(players)
        for seed in range(12):
            s = game.new_game(seed)
            while not s.is_over:
                seat = s.to_act[0]
                if s.view(seat)["deck_size"]:
                    views: list[Any] = [s.view(seat), s.seat_view(seat)]
                    for view in views:
                        floor, estimate = lair_floor(view), lair_estimate(view, game.divisors)
                        assert floor <= estimate
                        pot, gems = view["pot"], view["gems"]
                        assert draw_value(view, pot, gems, game) == in_full(view, pot, gems)
                        checked += 1
                        shortcut += floor >= 34 and view["knight"] + 4 <= 17
                legal = s.legal_actions(seat)
                s.apply(seat, legal[rng.randrange(len(legal))])
    assert checked > 1000 and shortcut > checked // 4
