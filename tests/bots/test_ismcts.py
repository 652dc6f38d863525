"""The ISMCTS bot: legal, reproducible, within its budget, and honest about sealed choices."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

import dragonlair
from dragonlair.bots import (
    UnknownBot,
    make_bot,
    parse_bot,
)
from dragonlair.bots import ismcts as ismcts_module
from dragonlair.bots.ismcts import DEFAULT_ITERATIONS, ISMCTSBot, game_defaults
from dragonlair.core import GameManifest, Result
from dragonlair.core.conformance import check_game
from tests.bots.pennies import Pennies
from tests.core.pebble_auction.heuristic import PebbleHeuristic
from tests.core.pebble_auction.manifest import heuristic, registered, replaced

GAME = "pebble-auction"


@pytest.fixture
def pennies() -> Iterator[dragonlair.Game]:
    bare = GameManifest(
        game=Pennies,
        heuristic=None,
        ismcts={},
        layout=None,
        terminal=None,
        browser_board=None,
        catalog=None,
        package=None,
    )
    with registered(bare):
        yield dragonlair.make("matching-pennies")


def play(bot: ISMCTSBot, seed: int, players: int = 3) -> list[str]:
    """A whole game with ``bot`` in every seat; the moves as text."""
    state = dragonlair.make(GAME, players=players).new_game(seed=seed)
    rng = random.Random(seed)
    moves = []
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        action = bot.choose(state.view(seat), legal, rng)
        assert action in legal
        state.apply(seat, action)
        moves.append(str(action))
    return moves


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(
    ("rollout", "opponents"),
    [
        ("random", "search"),
        ("heuristic", "rollout"),
        ("heuristic", "search"),
        ("random", "heuristic"),
    ],
)
def test_plays_whole_games_legally(players: int, rollout: str, opponents: str) -> None:
    game = dragonlair.make(GAME, players=players)
    bot = ISMCTSBot(game, iterations=30, rollout=rollout, opponents=opponents)
    assert len(play(bot, seed=players, players=players)) > 0


def test_same_view_and_seed_give_the_same_search() -> None:
    game = dragonlair.make(GAME, players=4)
    state = game.new_game(seed=9)
    seat = state.to_act[0]
    bot = ISMCTSBot(game, iterations=200)
    a = bot.search(state.view(seat), state.legal_actions(seat), random.Random(5))
    b = bot.search(state.view(seat), state.legal_actions(seat), random.Random(5))
    assert a.action == b.action
    assert [(s.visits, s.mean) for s in a.stats] == [(s.visits, s.mean) for s in b.stats]
    quick = ISMCTSBot(game, iterations=40)
    assert play(quick, seed=3, players=4) == play(quick, seed=3, players=4)


def test_iteration_budget_is_exact_and_every_root_action_is_tried() -> None:
    game = dragonlair.make(GAME, players=3)
    state = game.new_game(seed=2)
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    search = ISMCTSBot(game, iterations=123).search(state.view(seat), legal, random.Random(1))
    assert search.iterations == 123
    assert sum(s.visits for s in search.stats) == 123
    assert all(s.visits > 0 for s in search.stats)
    assert [s.action for s in search.stats] == legal
    assert search.action == max(search.stats, key=lambda s: s.visits).action
    assert ISMCTSBot(game).iterations == DEFAULT_ITERATIONS


def test_time_budget_stops_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    # A fake clock that advances 10 ms per reading: the budget logic, not real timing.
    ticks = iter(range(10**6))
    monkeypatch.setattr(ismcts_module, "perf_counter", lambda: next(ticks) * 0.01)
    game = dragonlair.make(GAME, players=3)
    state = game.new_game(seed=2)
    seat = state.to_act[0]
    bot = ISMCTSBot(game, time=0.1)
    search = bot.search(state.view(seat), state.legal_actions(seat), random.Random(1))
    assert search.iterations == 9  # readings at 0.01..0.09 are inside the budget
    both = ISMCTSBot(game, time=0.1, iterations=4)
    assert (
        both.search(state.view(seat), state.legal_actions(seat), random.Random(1)).iterations == 4
    )


def test_one_legal_action_needs_no_search() -> None:
    game = dragonlair.make(GAME, players=2)
    state = game.new_game(seed=1)
    seat = state.to_act[0]
    only = state.legal_actions(seat)[:1]
    assert (
        ISMCTSBot(game, iterations=10**9).choose(state.view(seat), only, random.Random())
        == (only[0])
    )


def test_sealed_choices_are_made_without_seeing_the_others(pennies: dragonlair.Game) -> None:
    """In matching pennies a seat that could see the other coin would rate its moves near
    1. Decoupled selection at sealed rounds keeps every rating near 1/2, whether the other
    seat has still to choose or has already chosen in secret."""
    assert check_game("matching-pennies", games=2).games == 2
    bot = ISMCTSBot(pennies, iterations=3000, rollout="random")
    for seat in (0, 1):
        state = pennies.new_game(seed=4)
        search = bot.search(state.view(seat), state.legal_actions(seat), random.Random(seat))
        assert all(0.3 < s.mean < 0.7 for s in search.stats), search.stats
        other = 1 - seat
        state.apply(other, "heads")  # hidden from ``seat``
        search = bot.search(state.view(seat), state.legal_actions(seat), random.Random(seat))
        assert all(0.3 < s.mean < 0.7 for s in search.stats), search.stats


def test_rewards_value_wins_then_rank_then_points() -> None:
    sole = Result((10, 5, 5, 0), (1, 2, 2, 4), (0,)).rewards()
    assert sole[0] == pytest.approx(1.0) and sole[3] == pytest.approx(0.0)
    assert sole[1] == sole[2] and 0 < sole[1] < 0.5
    shared = Result((7, 7, 1), (1, 1, 3), (0, 1)).rewards()
    assert shared[0] == shared[1] and 0.5 < shared[0] < 0.6
    assert all(0.0 <= r <= 1.0 for r in (*sole, *shared))
    level = Result((3, 3), (1, 1), (0, 1)).rewards()
    assert level[0] == level[1]


def test_win_shares_split_a_shared_win_and_add_up_to_one() -> None:
    sole = Result((10, 5, 5, 0), (1, 2, 2, 4), (0,))
    assert sole.win_shares() == [1.0, 0.0, 0.0, 0.0]
    shared = Result((7, 7, 1), (1, 1, 3), (0, 1))
    assert [shared.win_share(s) for s in range(3)] == [0.5, 0.5, 0.0]
    assert sum(shared.win_shares()) == pytest.approx(1.0)


def test_defaults_follow_whether_the_game_has_a_heuristic() -> None:
    game = dragonlair.make(GAME, players=3)
    bot = ISMCTSBot(game)
    assert (bot.rollout, bot.opponents, bot.paired) == ("random", "heuristic", False)
    assert ISMCTSBot(game, paired=True).rollout == "heuristic"
    with heuristic(GAME, None):
        bot = ISMCTSBot(game)
        assert (bot.rollout, bot.opponents) == ("random", "search")
        for params in ({"rollout": "heuristic"}, {"opponents": "heuristic"}, {"paired": True}):
            with pytest.raises(UnknownBot, match="Pebble Auction has no heuristic bot"):
                ISMCTSBot(game, **params)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"iterations": 0}, "iterations must be a whole number >= 1, not 0"),
        ({"iterations": 2.5}, "iterations must be a whole number"),
        ({"iterations": True}, "iterations must be a whole number"),
        ({"time": 0}, r"time must be seconds per move in \(0, 3600\], not 0"),
        ({"time": "fast"}, "time must be seconds per move"),
        ({"c": -1}, "c must be a number from 0 to 100"),
        ({"rollout": "smart"}, "rollout must be one of random, heuristic, not 'smart'"),
        ({"opponents": "all"}, "opponents must be one of search, rollout, heuristic, not 'all'"),
        ({"width": 3}, "the ismcts bot does not take width=3; its parameters are iterations,"),
    ],
)
def test_bad_parameters_are_refused_clearly(params: dict[str, object], message: str) -> None:
    with pytest.raises(UnknownBot, match=message):
        make_bot("ismcts", dragonlair.make(GAME), **params)


def test_refuses_to_move_for_a_seat_not_asked() -> None:
    game = dragonlair.make(GAME, players=2)
    state = game.new_game(seed=1)
    state.apply(0, state.legal_actions(0)[0])
    view = state.view(0)  # seat 0 has bid and waits for seat 1
    with pytest.raises(dragonlair.DragonlairError, match="seat 0, which is not to act"):
        ISMCTSBot(game, iterations=5).search(view, state.legal_actions(1), random.Random())


def test_a_sampler_that_contradicts_the_view_is_reported() -> None:
    game = dragonlair.make(GAME, players=2)
    state = game.new_game(seed=1)
    mine = set(state.legal_actions(0))
    other = next(
        s
        for s in (game.new_game(seed=k) for k in range(2, 200))
        if not set(s.legal_actions(0)) & mine
    )
    game.sample_state = lambda view, rng: other.clone()  # type: ignore[method-assign]
    bot = ISMCTSBot(game, iterations=5)
    with pytest.raises(dragonlair.DragonlairError, match="sampler gave a state in which"):
        bot.search(state.view(0), state.legal_actions(0), random.Random())


def test_paired_evaluation_tries_every_root_action_on_every_sample() -> None:
    game = dragonlair.make(GAME, players=3)
    state = game.new_game(seed=2)
    seat = state.to_act[0]
    view, legal = state.view(seat), state.legal_actions(seat)
    bot = ISMCTSBot(game, iterations=40, paired=True)
    search = bot.search(view, legal, random.Random(1))
    k = len(legal)
    assert search.iterations == 40 // k * k
    assert {s.visits for s in search.stats} == {40 // k}
    again = bot.search(view, legal, random.Random(1))
    assert again.action == search.action and again.stats == search.stats
    # one sample is no evidence: the heuristic's own choice stands
    one = ISMCTSBot(game, iterations=1, paired=True).search(view, legal, random.Random(1))
    assert one.iterations == k
    assert one.action == PebbleHeuristic(game).choose(view, legal, random.Random())
    assert len(play(bot, seed=4)) > 0


def test_paired_needs_the_heuristic_as_the_opponents_policy() -> None:
    game = dragonlair.make(GAME)
    with pytest.raises(UnknownBot, match="paired plays every seat with the heuristic"):
        ISMCTSBot(game, paired=True, rollout="random")
    with pytest.raises(UnknownBot, match="neither rollout=random nor opponents=search"):
        ISMCTSBot(game, paired=True, opponents="search")
    with pytest.raises(UnknownBot, match="paired must be true or false"):
        ISMCTSBot(game, paired="yes")


class Scorer(PebbleHeuristic):
    """The example game's heuristic with an evaluation of unfinished games that records
    the views it is given."""

    seen: list[dict[str, object]] = []

    def evaluate(self, view: Mapping[str, Any]) -> list[float]:
        Scorer.seen.append(dict(view))
        points = view["points"]
        return [1.0 if p == max(points) else 0.0 for p in points]


@pytest.fixture
def scorer() -> Iterator[type[Scorer]]:
    Scorer.seen = []
    with heuristic(GAME, Scorer):
        yield Scorer


def test_cut_off_needs_an_evaluation_and_a_depth_from_zero() -> None:
    game = dragonlair.make(GAME, players=3)
    with pytest.raises(UnknownBot, match="depth needs Pebble Auction's heuristic to score"):
        ISMCTSBot(game, depth=5)
    with pytest.raises(UnknownBot, match="depth must be a whole number >= 0 .*not -1"):
        ISMCTSBot(game, depth=-1)
    with pytest.raises(UnknownBot, match="depth must be a whole number"):
        ISMCTSBot(game, depth=2.5)


@pytest.mark.parametrize("depth", [0, 3])
def test_cut_off_rollouts_are_scored_from_the_searching_seats_view(
    scorer: type[Scorer], depth: int
) -> None:
    game = dragonlair.make(GAME, players=3)
    bot = ISMCTSBot(game, iterations=50, depth=depth)
    state = game.new_game(seed=3)
    seat = state.to_act[0]
    search = bot.search(state.view(seat), state.legal_actions(seat), random.Random(1))
    assert search.action in state.legal_actions(seat)
    assert scorer.seen and all(v["seat"] == seat and not v["over"] for v in scorer.seen)
    assert len(play(bot, seed=5)) > 0


def test_depth_counts_the_moves_played_out_beyond_the_tree(scorer: type[Scorer]) -> None:
    game = dragonlair.make(GAME, players=3)
    state = game.new_game(seed=3)
    seat = state.to_act[0]
    moves = []
    for depth in (0, 3):
        scorer.seen.clear()
        bot = ISMCTSBot(game, iterations=1, depth=depth)
        bot.search(state.view(seat), state.legal_actions(seat), random.Random(1))
        (leaf,) = scorer.seen
        moves.append(int(leaf["move"]))  # type: ignore[call-overload]
    assert state.move < moves[0] and moves[1] == moves[0] + 3


def test_paired_evaluation_can_cut_its_rollouts_too(scorer: type[Scorer]) -> None:
    game = dragonlair.make(GAME, players=3)
    state = game.new_game(seed=2)
    seat = state.to_act[0]
    view, legal = state.view(seat), state.legal_actions(seat)
    search = ISMCTSBot(game, iterations=40, paired=True, depth=2).search(
        view, legal, random.Random(1)
    )
    assert search.action in legal
    assert scorer.seen and all(v["seat"] == seat for v in scorer.seen)


def test_a_games_declared_defaults_apply_under_the_callers_parameters() -> None:
    game = dragonlair.make(GAME, players=3)
    with replaced(GAME, ismcts={"paired": True, "c": 0.3, "iterations": 60}):
        assert game_defaults(game) == {"paired": True, "c": 0.3, "iterations": 60}
        bot = ISMCTSBot(game)
        assert (bot.paired, bot.c, bot.iterations, bot.rollout) == (True, 0.3, 60, "heuristic")
        assert make_bot("ismcts", game, c=1.5).c == 1.5  # type: ignore[attr-defined]
        # the caller's contrary choice wins over a declared default, not an error
        plain = ISMCTSBot(game, rollout="random")
        assert (plain.paired, plain.rollout, plain.opponents, plain.c) == (
            False,
            "random",
            "heuristic",
            0.3,
        )
        assert ISMCTSBot(game, opponents="search").paired is False
        # a time budget alone keeps the declared iteration cap; none lifts it
        assert ISMCTSBot(game, time=0.5).iterations == 60
        assert ISMCTSBot(game, time=0.5, iterations=None).iterations is None
        assert "paired=True" in repr(bot) and "c=0.3" in repr(bot)


def test_a_bad_declared_default_is_reported_as_the_games() -> None:
    game = dragonlair.make(GAME, players=3)
    with (
        replaced(GAME, ismcts={"dept": 0}),
        pytest.raises(UnknownBot, match="Pebble Auction declares an ismcts default dept=0"),
    ):
        ISMCTSBot(game)
    with replaced(GAME, ismcts={"c": -2}):
        with pytest.raises(UnknownBot, match="c must be a number from 0 to 100, not -2"):
            ISMCTSBot(game)
        assert ISMCTSBot(game, c=1).c == 1.0  # the caller's value replaces the bad one


def test_none_on_the_command_line_lifts_a_default() -> None:
    spec = parse_bot("ismcts:depth=none:time=0.1")
    assert spec.params == {"depth": None, "time": 0.1}
    assert spec.text == "ismcts:depth=none:time=0.1"


def test_quick_draws_stay_in_range() -> None:
    draws = ismcts_module._QuickDraws(random.Random(3))
    assert {draws.randrange(5) for _ in range(500)} == set(range(5))
    assert {draws.randrange(2, 9, 3) for _ in range(500)} == {2, 5, 8}
    assert {draws.randrange(4, 6) for _ in range(200)} == {4, 5}
