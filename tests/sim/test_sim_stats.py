"""Summaries: win shares with Wilson intervals, per seat and per bot, points and lengths."""

from __future__ import annotations

import pytest

from dragonlair.bots import parse_bots
from dragonlair.sim import Job, Outcome, RunResult, summarize, wilson


def test_wilson_matches_the_textbook_values() -> None:
    # Wilson 95% for 5 of 10 and 0 of 10 (Agresti and Coull 1998, Newcombe 1998).
    half = wilson(5, 10)
    assert half.value == 0.5
    assert half.low == pytest.approx(0.2366, abs=1e-4)
    assert half.high == pytest.approx(0.7634, abs=1e-4)
    none = wilson(0, 10)
    assert none.low == 0.0 and none.high == pytest.approx(0.2775, abs=1e-4)
    shared = wilson(2.5, 10)  # shares of shared wins are fractional
    assert shared.low < 0.25 < shared.high
    assert wilson(0, 0).high == 1.0
    assert str(half) == "50.0% [23.7%, 76.3%]"


def outcome(index: int, points: tuple[int, ...], lineup: tuple[int, ...] = (0, 1, 2)) -> Outcome:
    best = max(points)
    ranks = tuple(1 + sum(1 for q in points if q > p) for p in points)
    winners = tuple(s for s, p in enumerate(points) if p == best)
    return Outcome(index, 100 + index, lineup, points, ranks, winners, 10 + index, "")


def test_summary_per_seat_and_per_bot() -> None:
    job = Job("pebble-auction", 3, tuple(parse_bots("heuristic,random", 3)), n=4, seed=1)
    outs = [
        outcome(0, (5, 1, 1)),
        outcome(1, (5, 5, 0)),  # a shared win: 1/2 each
        outcome(2, (0, 3, 1)),
        outcome(3, (4, 0, 0)),
    ]
    s = summarize(RunResult(job, outs, interrupted=True, seconds=2.0))
    assert (s.games, s.requested, s.interrupted, s.shared_wins) == (4, 4, True, 1)
    assert [line.label for line in s.seats] == [
        "seat 0: heuristic",
        "seat 1: random",
        "seat 2: random",
    ]
    assert [line.win.value for line in s.seats] == [2.5 / 4, 1.5 / 4, 0.0]
    assert sum(line.win.value for line in s.seats) == pytest.approx(1.0)
    heur, rand = s.bots
    assert (heur.label, heur.seats, rand.label, rand.seats) == ("heuristic", 1, "random", 2)
    assert rand.win.value == pytest.approx(1.5 / 4 / 2)
    assert heur.points_mean == pytest.approx(3.5) and heur.rank_mean == pytest.approx(1.5)
    assert (s.length_mean, s.length_min, s.length_max) == (11.5, 10, 13)
    assert s.games_per_s == 2.0 and s.fair_share == pytest.approx(1 / 3)
    assert heur.verdict(1 / 3) == "within"
    d = s.to_dict()
    assert d["bots"][0]["verdict"] == "within" and d["fair_share"] == pytest.approx(1 / 3)


def test_rotated_bots_are_credited_wherever_they_sit() -> None:
    job = Job(
        "pebble-auction", 2, tuple(parse_bots("heuristic,random", 2)), n=2, seed=1, rotate=True
    )
    outs = [outcome(0, (3, 1), (0, 1)), outcome(1, (0, 2), (1, 0))]
    s = summarize(RunResult(job, outs))
    assert [line.label for line in s.seats] == ["seat 0", "seat 1"]
    assert s.bots[0].win.value == 1.0 and s.bots[1].win.value == 0.0
    assert s.bots[0].verdict(0.5) == "within"  # two games prove little
    assert summarize(RunResult(job, [])).bots == []


def test_a_bot_in_every_seat_has_exactly_the_fair_share() -> None:
    # Many shared wins: the float sums of 1/k drift around 1/N; the verdict must not.
    job = Job("pebble-auction", 3, tuple(parse_bots("heuristic", 3)), n=300, seed=1)
    outs = [outcome(i, (5, 5, 5) if i % 3 else (5, 5, 1)) for i in range(300)]
    s = summarize(RunResult(job, outs))
    (line,) = s.bots
    assert line.seats == 3
    assert (line.win.value, line.win.low, line.win.high) == (1 / 3, 1 / 3, 1 / 3)
    assert line.verdict(s.fair_share) == "every seat"
    assert s.to_dict()["bots"][0]["verdict"] == "every seat"
    # a seat of that run still gets its own interval and an ordinary verdict
    assert s.seats[0].verdict(s.fair_share) in {"above", "within"}


def test_verdict_is_not_fooled_by_rounding_at_the_fair_share() -> None:
    from dragonlair.sim.stats import Line, Rate

    near = Line("x", 1, 10_000, Rate(0.25, 0.2468, 0.24999999999999994), 0.0, 0.0, 0.0)
    assert near.verdict(0.25) == "within"
    assert Line("x", 1, 10, Rate(0.2, 0.1, 0.24), 0.0, 0.0, 0.0).verdict(0.25) == "below"
    assert Line("x", 1, 10, Rate(0.3, 0.26, 0.4), 0.0, 0.0, 0.0).verdict(0.25) == "above"
