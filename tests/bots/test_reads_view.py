"""Bots declare whether they read the view, and nothing builds one for a bot that does not."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest

import dragonlair
from dragonlair.bots import BotSpec, make_bot, reads_view
from dragonlair.core import Action, Bot, DragonlairError, State
from dragonlair.core.bot import NO_VIEW, view_for
from dragonlair.sim import Job, run
from dragonlair.web.bots import BotJob, decide


@pytest.fixture
def views_forbidden(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """State.view raises while inside; yields the seats it was asked for."""
    asked: list[int] = []

    def refuse(self: State, seat: int | None) -> dict[str, Any]:
        asked.append(-1 if seat is None else seat)
        raise AssertionError(f"a view of seat {seat} was built")

    monkeypatch.setattr(State, "view", refuse)
    monkeypatch.setattr(State, "seat_view", refuse)
    yield asked


def test_the_random_bot_reads_no_view_and_the_others_do() -> None:
    game = dragonlair.make("space-race", players=3)
    assert make_bot("random", game).reads_view is False
    assert make_bot("heuristic", game).reads_view is True
    assert make_bot("ismcts", game, iterations=5).reads_view is True
    assert [reads_view(level, game) for level in ("random", "heuristic", "ismcts")] == [
        False,
        True,
        True,
    ]


def test_view_for_builds_a_view_only_for_a_bot_that_reads_it() -> None:
    game = dragonlair.make("dragon-stripes", players=3)
    state = game.new_game(seed=1)
    seat = state.to_act[0]
    assert view_for(make_bot("random", game), state, seat) is NO_VIEW
    assert view_for(make_bot("heuristic", game), state, seat) == state.view(seat)


def test_a_bot_that_reads_the_view_it_said_it_would_not_read_fails_clearly() -> None:
    class Liar(Bot):
        reads_view = False

        def choose(
            self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
        ) -> Action:
            return legal[int(view["move"]) % len(legal)]

    game = dragonlair.make("dragon-race", players=2)
    state = game.new_game(seed=2)
    seat = state.to_act[0]
    bot = Liar(game)
    with pytest.raises(DragonlairError, match=r"read view\['move'\] but declares reads_view"):
        bot.choose(view_for(bot, state, seat), state.legal_actions(seat), random.Random(0))
    assert len(NO_VIEW) == 0 and list(NO_VIEW) == [] and "move" not in NO_VIEW


@pytest.mark.parametrize(
    "game_id", ["space-dragons", "space-race", "dragon-stripes", "dragon-race"]
)
def test_simulate_with_random_bots_builds_no_view(game_id: str, views_forbidden: list[int]) -> None:
    game = dragonlair.make(game_id)
    job = Job(game_id, game.players, (BotSpec("random"),) * game.players, n=3, seed=5, data=False)
    result = run(job)
    assert len(result.outcomes) == 3 and views_forbidden == []


def test_simulate_asks_a_view_for_each_heuristic_decision_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[int | None] = []
    real = State.seat_view

    def counting(self: State, seat: int | None) -> Mapping[str, Any]:
        asked.append(seat)
        return real(self, seat)

    monkeypatch.setattr(State, "seat_view", counting)
    bots = (BotSpec("heuristic"), BotSpec("random"))
    run(Job("dragon-race", 2, bots, n=2, seed=3, data=False))
    assert asked and set(asked) == {0}


def test_the_server_sends_a_random_bot_no_view() -> None:
    game = dragonlair.make("space-dragons", players=3)
    state = game.new_game(seed=4)
    seat = state.to_act[0]
    legal = tuple(str(a) for a in state.legal_actions(seat))
    job = BotJob("space-dragons", 3, "{}", "random", "{}", {}, legal, seed=9)
    assert decide(job) in legal
