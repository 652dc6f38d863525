"""Sweeps: ``-o key=a,b,c`` plays every setting on the same seeds as one job and compares
each with the first."""

from __future__ import annotations

import hashlib
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


def test_a_sweep_of_data_values_plays_each_with_its_own_data_file(tmp_path: Path) -> None:
    assert grid(["data:gems[value=5].count=10,20", "b=x"]) == [
        ["data:gems[value=5].count=10", "b=x"],
        ["data:gems[value=5].count=20", "b=x"],
    ]
    out = tmp_path / "s.csv"
    args = ["simulate", "dragon-stripes", "--bots", "heuristic", "-n", "12", "--json"]
    sweep = ["-o", "data:start_gems=30,50", "-o", "data:footprint_cards[steps=2].count=8,11"]
    result = runner.invoke(app, [*args, *sweep, "--out", str(out)])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [r["setting"] for r in rows][1] == [
        "data:start_gems=30",
        "data:footprint_cards[steps=2].count=11",
    ]
    for row in rows:
        gems = int(row["setting"][0].rpartition("=")[2])
        count = int(row["setting"][1].rpartition("=")[2])
        meta = json.loads(Path(row["file"] + ".meta.json").read_text())
        data_file = Path(meta["data_files"]["data"]["path"])
        assert data_file.parent == tmp_path and data_file.name.endswith(".data.json")
        digest = hashlib.sha256(data_file.read_bytes()).hexdigest()
        assert (
            row["data_files"] == {"data": digest} == {"data": meta["data_files"]["data"]["sha256"]}
        )
        data = json.loads(data_file.read_text())
        assert data["start_gems"] == gems
        assert next(c for c in data["footprint_cards"] if c["steps"] == 2)["count"] == count
        # each setting's games are those its data file plays
        again = runner.invoke(app, [*args, "-o", f"data={data_file}"])
        shares = [p["win"]["value"] for p in json.loads(again.stdout)["positions"]]
        assert list(row["win_share"].values()) == pytest.approx(shares)
    table = runner.invoke(app, [*args[:-1], *sweep, "-q"], terminal_width=250)
    assert "data:footprint_cards[steps=2]" in table.output  # not read as markup


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("data:start_gems=30,abc", "'abc' is not a number"),
        ("data:start_gems=30,1.5", "is a whole number in the data, not 1.5"),
        ("data:nope=1,2", "there is no 'nope'"),
        ("data:start_gems=30,-3", "data:start_gems=-3 is not accepted"),
    ],
)
def test_bad_data_values_in_a_sweep_are_refused(option: str, message: str, tmp_path: Path) -> None:
    out = tmp_path / "s.csv"
    result = runner.invoke(
        app, ["simulate", "dragon-stripes", "-n", "4", "-o", option, "--out", str(out)]
    )
    assert result.exit_code != 0
    assert message in " ".join(result.output.replace("│", " ").split())
    assert not any(tmp_path.glob("*.csv"))
