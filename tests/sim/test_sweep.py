"""Sweeps: ``-o key=a,b,c`` plays every setting on the same seeds as one job and compares
each with the first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dragonlair.cli import app
from dragonlair.cli.sweep import grid

runner = CliRunner()


def test_the_grid_is_every_combination() -> None:
    assert grid(["a=1", "b=x"]) is None
    assert grid(["a=1,2", "b=x", "c=3,4"]) == [
        ["a=1", "b=x", "c=3"],
        ["a=1", "b=x", "c=4"],
        ["a=2", "b=x", "c=3"],
        ["a=2", "b=x", "c=4"],
    ]


def test_a_sweep_compares_every_setting_with_the_first(tmp_path: Path) -> None:
    out = tmp_path / "s.csv"
    args = ["simulate", "pebble-auction", "-p", "3", "--bots", "heuristic,random", "-n", "30"]
    result = runner.invoke(app, [*args, "-o", "start_points=0,1,3", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [r["setting"] for r in rows] == [
        ["start_points=0"],
        ["start_points=1"],
        ["start_points=3"],
    ]
    assert "vs_first" not in rows[0] and all(r["games"] == 30 for r in rows)
    assert 0 <= rows[2]["vs_first"]["margin_p"] <= 1
    files = sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".csv")
    assert files == ["s.start_points-0.csv", "s.start_points-1.csv", "s.start_points-3.csv"]
    table = runner.invoke(app, [*args, "-o", "start_points=0,2"])
    assert table.exit_code == 0 and "baseline" in table.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-o", "start_points=1,9"], "start_points='9' is not allowed"),
        (["-o", "start_points=1,"], "a sweep lists values as key=a,b,c"),
        (["-o", "start_points=1,2", "--plot", "x.png"], "a sweep writes no --records or --plot"),
    ],
)
def test_bad_sweeps_are_refused(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["simulate", "pebble-auction", "-n", "3", *args])
    assert result.exit_code != 0
    assert message in " ".join(result.output.replace("│", " ").split())
    assert list(tmp_path.iterdir()) == []
