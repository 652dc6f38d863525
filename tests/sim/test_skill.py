"""Skill: Bradley-Terry ratings recover known strengths, and ``tournament --matrix`` plays
every pair and ranks the bots."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from dragonlair.cli import app
from dragonlair.sim.skill import ELO, bradley_terry

runner = CliRunner()


def test_bradley_terry_recovers_the_strengths() -> None:
    strengths = [1.0, 0.0, -1.0]
    met = [[0 if i == j else 10_000 for j in range(3)] for i in range(3)]
    won = [
        [0.0 if i == j else 10_000 / (1 + math.exp(strengths[j] - strengths[i])) for j in range(3)]
        for i in range(3)
    ]
    ratings = bradley_terry(["a", "b", "c"], won, met)
    assert [r.label for r in ratings] == ["a", "b", "c"]
    for r, s in zip(ratings, strengths, strict=True):
        assert r.rating == pytest.approx(ELO * s, abs=2) and 0 < r.se < 20
    assert sum(r.rating for r in ratings) == pytest.approx(0, abs=1e-6)


def test_the_round_robin_ranks_heuristic_above_random() -> None:
    args = ["tournament", "pebble-auction", "-p", "2", "--matrix", "--bots", "random,heuristic"]
    result = runner.invoke(app, [*args, "-n", "60", "--json"])
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    assert d["bots"] == ["random", "heuristic"] and d["games_per_pair"] == 60
    assert d["meetings"][0][1] == d["meetings"][1][0] == 60
    assert d["matrix"][1][0] == pytest.approx(1 - d["matrix"][0][1])
    assert d["matrix"][1][0] > 0.5
    top = max(d["ratings"], key=lambda r: r["rating"])
    assert top["label"] == "heuristic"
    # every cell has its interval around it, and every bot its standing over all its seats
    low, high = d["matrix_ci"][1][0]
    assert low < d["matrix"][1][0] < high and d["matrix_ci"][0][0] is None
    random_row, heuristic_row = d["standing"]
    assert random_row["bot"] == "random" and random_row["seats"] == 60  # 60 games, 1 seat each
    assert heuristic_row["win_low"] < heuristic_row["win_share"] < heuristic_row["win_high"]
    assert heuristic_row["win_share"] > random_row["win_share"]
    assert sum(heuristic_row["rank_shares"]) == pytest.approx(1.0)
    assert heuristic_row["rank_mean"] < random_row["rank_mean"]
    # the run's rules: every option and the data behind them
    assert d["options"] and d["seed"] == 1 and isinstance(d["data_files"], dict)


def test_the_round_robin_shows_intervals_meetings_and_standing() -> None:
    args = ["tournament", "pebble-auction", "-p", "2", "--matrix", "--bots", "random,heuristic"]
    result = runner.invoke(app, [*args, "-n", "20"], terminal_width=200)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.replace("│", " ").split())
    assert "(95% CI, meetings)" in text and "per bot over all its games" in text
    assert "rank sd" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "random,random"], "at least two different bots"),
        (["--bots", "random,heuristic", "--out", "x.csv"], "writes no --out"),
        (["--bots", "random,nobot"], "nobot"),
    ],
)
def test_bad_matrices_are_refused(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["tournament", "pebble-auction", "--matrix", "-n", "4", *args])
    assert result.exit_code != 0
    assert message in " ".join(result.output.replace("│", " ").split())
