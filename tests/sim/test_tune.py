"""``dragonlair tune``: an Optuna search over numeric options toward stated targets,
reproducible from its seed, with clear errors for what cannot be searched."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from dragonlair.cli import app

runner = CliRunner()
ARGS = ["tune", "pebble-auction", "-p", "3", "--bots", "heuristic,random", "-n", "20"]


def test_the_search_reports_the_best_trial_reproducibly() -> None:
    args = [*ARGS, "--param", "start_points=0..5", "--target", "fair=10", "--target", "margin=3"]
    first = runner.invoke(app, [*args, "--trials", "4", "--json"])
    assert first.exit_code == 0, first.output
    d = json.loads(first.stdout)
    assert len(d["trials"]) == 4
    scores = [t["objective"] for t in d["trials"]]
    assert d["best"]["objective"] == min(scores) and scores == sorted(scores)
    best = d["best"]
    assert best["objective"] == pytest.approx(best["fair_distance"] + abs(best["margin"] - 3))
    assert 0 <= best["values"]["start_points"] <= 5
    assert d["met"] == (best["fair_distance"] <= 10)
    again = runner.invoke(app, [*args, "--trials", "4", "--json"])
    assert json.loads(again.stdout)["trials"] == d["trials"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--param", "nope", "--target", "fair"], "'nope' is not a numeric option"),
        (["--param", "start_points=3..1", "--target", "fair"], "lo < hi"),
        (["--param", "start_points=0..9", "--target", "fair"], "is not allowed"),
        (["--param", "start_points", "--target", "speed=3"], "targets are fair"),
        (["--param", "start_points", "--target", "margin"], "needs a goal"),
    ],
)
def test_bad_searches_are_refused(args: list[str], message: str) -> None:
    result = runner.invoke(app, [*ARGS, *args])
    assert result.exit_code != 0
    assert message in " ".join(result.output.replace("│", " ").split())
