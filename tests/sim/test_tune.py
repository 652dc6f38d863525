"""``dragonlair tune``: an Optuna search over numeric options toward stated targets,
reproducible from its seed, with clear errors for what cannot be searched."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, cast

import pytest
from typer.testing import CliRunner

import dragonlair
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


def test_targets_are_weighted_and_include_bot_balance_and_the_users_own_measure() -> None:
    args = [*ARGS, "--param", "start_points=0..5", "--trials", "3", "--json"]
    targets = ["--target", "fair@2", "--target", "styles@0.5", "--target", "margin=3"]
    targets += ["--target", "expr=abs(df.length.mean() - 20)@3"]
    result = runner.invoke(app, [*args, *targets])
    assert result.exit_code == 0, result.output
    for t in json.loads(result.stdout)["trials"]:
        # heuristic,random: one bot wins more than its share, which styles measures
        assert t["styles_distance"] > 0 and set(t["bot_shares"]) == {"heuristic", "random"}
        [expr] = t["expr"]
        assert expr >= 0
        assert t["objective"] == pytest.approx(
            2 * t["fair_distance"] + 0.5 * t["styles_distance"] + abs(t["margin"] - 3) + 3 * expr
        )
    table = runner.invoke(app, [*ARGS, "--param", "start_points=0..5", "--trials", "2", *targets])
    assert table.exit_code == 0, table.output
    assert "max |bot - fair|" in table.output and "expr 1" in table.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--param", "nope", "--target", "fair"], "'nope' is not a numeric option"),
        (["--param", "start_points=3..1", "--target", "fair"], "lo < hi"),
        (["--param", "start_points=0..9", "--target", "fair"], "is not allowed"),
        (["--param", "start_points", "--target", "speed=3"], "targets are fair"),
        (["--param", "start_points", "--target", "margin"], "needs a goal"),
        (["--param", "start_points", "--target", "fair@0"], "a weight is a number above 0"),
        (["--param", "start_points", "--target", "styles=3"], "styles takes no value"),
        (["--param", "start_points", "--target", "expr=df.("], "not a Python expression"),
        (["--param", "start_points", "--target", "expr=df.nope.mean()"], "no column 'nope'"),
        (["--param", "start_points", "--target", "expr=df.length.mean() / 0"], "gave inf"),
    ],
)
def test_bad_searches_are_refused(args: list[str], message: str) -> None:
    result = runner.invoke(app, [*ARGS, *args])
    assert result.exit_code != 0
    assert message in " ".join(result.output.replace("│", " ").split())


# ------------------------------------------------------------------ values in a data file

DS = ["tune", "dragon-stripes", "--bots", "heuristic", "-n", "10", "--target", "margin=10"]


def _simulated(data_file: Path) -> dict[str, Any]:
    args = ["simulate", "dragon-stripes", "--bots", "heuristic", "-n", "10", "--json"]
    result = runner.invoke(app, [*args, "-o", f"data={data_file}"])
    assert result.exit_code == 0, result.output
    return cast(dict[str, Any], json.loads(result.stdout))


def test_a_search_over_data_values_writes_and_hashes_a_data_file_per_trial(
    tmp_path: Path,
) -> None:
    params = ["--param", "data:start_gems=20..60", "--param", "data:stripes.0=1..4"]
    params += ["--param", "data:footprint_cards[steps=2].count=5..15"]
    args = [*DS, *params, "--trials", "3", "--json"]
    first = runner.invoke(app, [*args, "--data-dir", str(tmp_path)])
    assert first.exit_code == 0, first.output
    d = json.loads(first.stdout)
    assert len(d["trials"]) == 3
    base = json.loads(
        (Path(dragonlair.__file__).parent / "dragon_stripes/data/dragon_stripes.json").read_text()
    )
    for t in d["trials"]:
        v = t["values"]
        assert 20 <= v["data:start_gems"] <= 60 and isinstance(v["data:start_gems"], int)
        path = Path(t["data_paths"]["data"])
        assert path.parent == tmp_path
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        assert t["data_files"] == {"data": digest}
        data = json.loads(path.read_text())
        assert data["start_gems"] == v["data:start_gems"]
        assert data["stripes"][0] == v["data:stripes.0"]
        assert data["stripes"][1:] == base["stripes"][1:]  # nothing else changed
        steps2 = next(c for c in data["footprint_cards"] if c["steps"] == 2)
        assert steps2["count"] == v["data:footprint_cards[steps=2].count"]
        # the trial's figures are those of its data file, played again by simulate
        shares = [p["win"]["value"] for p in _simulated(path)["positions"]]
        assert list(t["shares"].values()) == pytest.approx(shares)
    assert len({t["data_files"]["data"] for t in d["trials"]}) == 3
    # the same search again, in a temporary folder: the same trials and the same hashes
    again = json.loads(runner.invoke(app, args).stdout)
    strip = [{k: v for k, v in t.items() if k != "data_paths"} for t in d["trials"]]
    assert again["trials"] == strip


def test_a_data_search_starts_from_the_data_option_and_mixes_with_options(
    tmp_path: Path,
) -> None:
    base = json.loads(
        (Path(dragonlair.__file__).parent / "dragon_stripes/data/dragon_stripes.json").read_text()
    )
    base["start_gems"] = 30
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(base))
    keep = tmp_path / "keep"
    keep.mkdir()
    args = [*DS, "-o", f"data={mine}", "--param", "data:stripes.16=10..30", "--trials", "2"]
    result = runner.invoke(app, [*args, "--data-dir", str(keep)])
    assert result.exit_code == 0, result.output
    kept = sorted(keep.glob("trial-*-data.json"))
    assert len(kept) == 2
    assert all(json.loads(p.read_text())["start_gems"] == 30 for p in kept)
    text = " ".join(result.output.replace("│", " ").split())
    assert "data:stripes.16" in text and "its data file: SHA-256" in text


@pytest.mark.parametrize(
    ("param", "message"),
    [
        ("data:start_gemz=1..3", "there is no 'start_gemz'; the keys are: note, stripes"),
        ("data:stripes.40=1..2", "'40' is not a position in a list of 17"),
        ("data:gems[value=9].count=1..2", "0 entries have value = 9"),
        ("data:note=1..2", "is 'Proposed values"),
        ("data:start_gems=1.5..3", "data:start_gems is a whole number in the data: give a whole"),
        ("data:start_gems", "a data value needs a range"),
        ("data:start_gems=-5..3", "data:start_gems=-5 is not accepted"),
        ("data:stripes[3]=1..2", "is not a path into the data"),
        ("data:start_gems=9..3", "lo < hi"),
    ],
)
def test_bad_data_values_are_refused_before_any_trial(param: str, message: str) -> None:
    result = runner.invoke(app, [*DS, "--param", param, "--trials", "1"])
    assert result.exit_code != 0
    assert message in " ".join(result.output.replace("│", " ").split())
    assert "trial 1" not in result.output
