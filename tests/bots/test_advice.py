"""Hints: one estimator ranks the choices, the pick is its first, and every win chance is
shown to the precision its own playout count supports."""

from __future__ import annotations

import itertools

import pytest

from dragonlair.bots.advice import STEPS, Advice, advise, shown, step
from dragonlair.bots.checks import PeekedAtState, PoisonedView, poisoned
from dragonlair.bots.interval import wilson_interval
from dragonlair.core import DragonlairError
from dragonlair.core.puzzles import Puzzle, puzzle, puzzles

NAMES = [p.name for p in puzzles()]


def advice_on(p: Puzzle, **kw: object) -> Advice:
    state = p.state(seed=3)
    seat = p.seat if p.seat is not None else state.to_act[0]
    return advise(state.game, state.view(seat), state.legal_actions(seat), seed=5, **kw)  # type: ignore[arg-type]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", NAMES)
def test_the_pick_is_the_top_of_the_ranking_shown_to_the_precision_of_its_playouts(
    name: str,
) -> None:
    p = puzzle(name)
    state = p.state(seed=3)
    seat = p.seat if p.seat is not None else state.to_act[0]
    # a generous budget and a playout cap: the same advice on any machine
    a = advice_on(p, budget=600.0, max_playouts=40)
    assert {str(c.action) for c in a.choices} == {str(x) for x in state.legal_actions(seat)}
    assert a.pick == a.choices[0].action
    assert a.to_dict()["pick"] == a.to_dict()["choices"][0]["action"]
    ranked = [(-c.win, -c.points) for c in a.choices]
    assert ranked == sorted(ranked)  # ranked by the numbers shown, best first
    best = a.choices[0]
    for c in a.choices:
        assert 16 <= c.playouts <= 40  # every choice its opening rounds, none beyond the cap
        low, high = wilson_interval(c.win * c.playouts, c.playouts)
        assert c.low == pytest.approx(min(low, c.win)) and c.high == pytest.approx(max(high, c.win))
        half = (c.high - c.low) * 100 / 2
        # the step: the coarsest that is no wider than half the interval
        assert c.step == max([s for s in STEPS if s <= half + 1e-9], default=1)
        value, lo, hi = c.to_dict()["shown"]["value"], c.shown[1], c.shown[2]
        assert value % c.step == 0 and lo % c.step == 0 and (hi % c.step == 0 or hi == 100)
        assert lo <= c.low * 100 + 1e-6 and c.high * 100 - 1e-6 <= hi
        assert abs(value - c.win * 100) <= c.step / 2 + 1e-6
        overlaps = c.low <= best.high and best.low <= c.high
        assert c.close == overlaps  # about as good: its interval overlaps the best's
    why = a.why()
    assert why["best"]["action"] == str(a.pick)
    assert why["kind"] == (
        "clear"
        if not any(c.close for c in a.choices[1:])
        else "even"
        if all(c.close for c in a.choices)
        else "close"
    )


def test_the_steps_follow_the_interval() -> None:
    assert step(0.3, 0.7) == 10  # 20 points either side
    assert step(0.44, 0.56) == 5
    assert step(0.47, 0.53) == 2
    assert step(0.49, 0.51) == 1
    # more playouts, a finer step: 20 games, 400 and 10 000 at an even chance
    steps = [step(*wilson_interval(n / 2, n)) for n in (20, 400, 10_000)]
    assert steps == [10, 2, 1]
    assert shown(0.437, 0.33, 0.55) == (40, 30, 60)
    assert shown(0.437, 0.41, 0.46) == (44, 40, 46)  # a step of 2, widened outwards


def test_the_advice_reads_only_the_seats_view() -> None:
    p = puzzle("dragon-stripes/offered-for-forty")
    state = p.state(seed=3)
    game, view, legal = state.game, state.view(1), state.legal_actions(1)
    with poisoned(state):
        blind = advise(game, PoisonedView(view), legal, seed=5, budget=600.0, max_playouts=20)
        with pytest.raises(PeekedAtState):
            state.view(1)
    seen = advise(game, state.view(1), legal, seed=5, budget=600.0, max_playouts=20)
    assert blind.to_dict() == seen.to_dict()  # and the same arguments, the same advice


def test_the_playouts_stop_when_the_budget_has_passed() -> None:
    """A clock that moves one second each time it is read: a budget of 40 seconds buys
    the opening rounds and not many more, however fast the playouts are."""
    ticks = itertools.count()
    a = advice_on(puzzle("space-dragons/last-trick"), budget=40.0, clock=lambda: float(next(ticks)))
    assert 16 <= a.rounds < 40
    assert all(c.playouts <= a.rounds for c in a.choices)


def test_playouts_go_to_the_close_choices() -> None:
    """The fifth pick: a card clearly worse than the best stops being played out while it
    is clear of it; the best, always in question, gets every round."""
    a = advice_on(puzzle("space-dragons/fifth-pick"), budget=600.0, max_playouts=300)
    assert a.rounds == 300 and a.choices[0].playouts == 300
    assert min(c.playouts for c in a.choices) < 200


def test_a_clear_choice_is_said_to_be_clear() -> None:
    """Three stripes from the head with a pot of 36: drawing wins far more often."""
    a = advice_on(puzzle("dragon-stripes/near-the-head"), budget=600.0, max_playouts=200)
    assert str(a.pick) == "draw"
    assert a.why()["kind"] == "clear" and a.why()["other"]["action"] == "hold"


def test_bad_arguments_are_refused() -> None:
    p = puzzle("dragon-stripes/near-the-head")
    state = p.state(seed=1)
    game, legal = state.game, state.legal_actions(0)
    with pytest.raises(DragonlairError, match="not asked"):
        advise(game, state.view(1), legal)
    with pytest.raises(DragonlairError, match="max_playouts"):
        advise(game, state.view(0), legal, max_playouts=0)
    with pytest.raises(DragonlairError, match="budget"):
        advise(game, state.view(0), legal, budget=0)
    with pytest.raises(DragonlairError, match="no legal action"):
        advise(game, state.view(0), [])
