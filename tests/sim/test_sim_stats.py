"""Summaries: win shares with Wilson intervals, per seat and per bot, points and lengths."""

from __future__ import annotations

import pytest

from dragonlair.bots import parse_bots
from dragonlair.sim import Job, Outcome, RunResult, summarize, wilson


def test_wilson_matches_the_textbook_values() -> None:
    # Wilson 95% for 5 of 10 and 0 of 10 (Agresti and Coull 1998, Newcombe 1998).
    half = wilson(5, 10)
    assert half.value == 0.5
    assert (half.low, half.high) == (
        pytest.approx(0.2366, abs=1e-4),
        pytest.approx(0.7634, abs=1e-4),
    )
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
