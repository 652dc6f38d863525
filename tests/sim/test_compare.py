"""``dragonlair compare``: arms paired by game index, paired t-tests with their intervals,
the share of games a change altered and the warning when the bots never exercised it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import ttest_rel
from typer.testing import CliRunner

from dragonlair.cli import app
from dragonlair.sim.compare import CompareError, compare_frames, paired

runner = CliRunner()


def flat(output: str) -> str:
    return " ".join(output.replace("│", " ").split())


def frame(points: list[tuple[int, int]], start: int | None = None) -> pd.DataFrame:
    rows = []
    for i, (p0, p1) in enumerate(points):
        win0 = 1.0 if p0 > p1 else 0.5 if p0 == p1 else 0.0
        row: dict[str, float] = {
            "index": i,
            "seed": 10 + i,
            "length": 20,
            "points_0": p0,
            "points_1": p1,
        }
        row |= {"win_0": win0, "win_1": 1 - win0}
        if start is not None:
            row["start_seat"] = (i + start) % 2
        rows.append(row)
    return pd.DataFrame(rows)


def test_paired_t_matches_scipy_and_brackets_the_difference() -> None:
    rng = np.random.default_rng(1)
    a = rng.normal(10, 3, 400)
    b = a + 0.5 + rng.normal(0, 1, 400)
    d = paired("points", "game", list(a), list(b))
    t = ttest_rel(b, a)
    assert d.p == pytest.approx(t.pvalue) and d.p < 1e-6 and d.significant
    assert d.low < d.diff < d.high and d.diff == pytest.approx(float((b - a).mean()))
    same = paired("length", "game", [3, 3, 3], [3, 3, 3])
    assert (same.diff, same.p, same.significant) == (0.0, 1.0, False)


def test_a_constant_difference_is_certain_not_insignificant() -> None:
    # every game 64 decisions long in A and 28 in B: no spread, and no doubt either
    d = paired("length", "game", [64] * 30, [28] * 30)
    assert (d.diff, d.low, d.high, d.p, d.significant) == (-36.0, -36.0, -36.0, 0.0, True)
    shifted = paired("points", "game", [1, 5, 9, 2], [3, 7, 11, 4])  # +2 in every pair
    assert (shifted.diff, shifted.p) == (2.0, 0.0)
    one = paired("points", "game", [1], [4])  # a single pair cannot be tested
    assert (one.diff, one.p) == (3.0, 1.0)


def test_pairing_is_by_index_and_counts_altered_games() -> None:
    a = frame([(5, 3)] * 50 + [(2, 4)] * 50, start=0)
    b = a.copy()
    b.loc[b["index"] < 10, ["points_0", "win_0", "win_1"]] = [1, 0.0, 1.0]  # 10 games flip
    cmp = compare_frames(a.sample(frac=1, random_state=3), b, 2, "x")  # order must not matter
    # only the scores moved: the games went the same way, 10 were rescored, 10 new winners
    assert (cmp.games, cmp.altered, cmp.rescored, cmp.winner_changed) == (100, 0, 10, 10)
    seat0 = next(d for d in cmp.differences if d.measure == "win share, seat 0")
    assert seat0.a == 0.5 and seat0.b == pytest.approx(0.4)
    assert seat0.diff == pytest.approx(-0.1)
    assert any("position 0 (start player)" in d.measure for d in cmp.differences)
    assert any("only 10 of 100 paired games (10.0%)" in w for w in cmp.warnings)
    none = compare_frames(a, a.copy(), 2, "x")
    assert none.altered == 0 and "never exercised" in none.warnings[0]
    with pytest.raises(CompareError, match="no game index in common"):
        compare_frames(a, a.assign(index=a["index"] + 1000), 2, "x")


def test_altered_rescored_and_winner_changed_are_told_apart() -> None:
    a = frame([(5, 3)] * 40, start=0)
    a["crystals_0"] = 2
    b = a.copy()
    # games 0-9 went differently (longer, another feature) with the same winner
    b.loc[b["index"] < 10, ["length", "crystals_0"]] = [25, 3]
    # games 10-14 went differently and seat 1 won instead
    b.loc[b["index"].between(10, 14), ["length", "points_1", "win_0", "win_1"]] = [30, 9, 0.0, 1.0]
    # games 15-19 went the same way and only scored differently, the winner kept
    b.loc[b["index"].between(15, 19), ["points_0"]] = 6
    # games 20-21 went the same way, scored differently and ended in a tie
    b.loc[b["index"].between(20, 21), ["points_0", "win_0", "win_1"]] = [3, 0.5, 0.5]
    cmp = compare_frames(a, b, 2, "x")
    assert (cmp.altered, cmp.rescored, cmp.winner_changed) == (15, 7, 7)
    assert cmp.to_dict()["winner_changed_share"] == pytest.approx(7 / 40)
    assert "15 (37.5%) went differently, 7 (17.5%) went the same way" in cmp.changes()


def test_compare_two_arms_on_the_same_seeds(tmp_path: Path) -> None:
    a, b, chart = tmp_path / "a.csv", tmp_path / "b.parquet", tmp_path / "c.png"
    args = ["compare", "pebble-auction", "-p", "3", "--bots", "heuristic,random", "-n", "60"]
    args += ["-B", "start_points=4", "--out-a", str(a), "--out-b", str(b)]
    result = runner.invoke(app, [*args, "--plot", str(chart), "--json", "-w", "2"])
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    assert d["games"] == 60 and d["b_label"] == "start_points=4" and d["a_label"] == "as is"
    assert 0 < d["altered"] <= 60
    measures = {row["measure"]: row for row in d["differences"]}
    assert {"win share, seat 0", "winning margin", "spread (best - worst)"} <= set(measures)
    pts = measures["points, all seats"]
    assert pts["diff"] == pytest.approx(pts["b"] - pts["a"]) and 0 <= pts["p"] <= 1
    assert pts["low"] <= pts["diff"] <= pts["high"]
    assert chart.read_bytes().startswith(b"\x89PNG")
    again = runner.invoke(app, ["compare", "--files", str(a), str(b), "--json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["differences"] == d["differences"]
    # two files are labelled by what their runs played, not only by their paths
    labels = json.loads(again.stdout)
    assert (
        labels["b_label"].startswith(f"{b} (bots heuristic, random")
        and "start_points=4" in (labels["b_label"])
    )


def test_arms_take_their_own_bots() -> None:
    args = ["compare", "pebble-auction", "-p", "3", "-n", "40", "--json", "-q"]
    result = runner.invoke(app, [*args, "-A", "bots=random", "-B", "bots=heuristic"])
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    assert (d["a_label"], d["b_label"]) == ("bots=random", "bots=heuristic")
    seat0 = next(r for r in d["differences"] if r["measure"] == "points, seat 0")
    assert seat0["diff"] != 0 and d["altered"] > 0
    # bots and options mix in one arm; the same bots and rules in both arms are refused
    mixed = runner.invoke(app, [*args, "-B", "bots=random", "-B", "start_points=4"])
    assert mixed.exit_code == 0, mixed.output
    assert json.loads(mixed.stdout)["b_label"] == "bots=random, start_points=4"
    same = runner.invoke(app, [*args, "--bots", "random", "-B", "bots=random"])
    assert same.exit_code != 0 and "same bots" in " ".join(same.output.replace("│", " ").split())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["pebble-auction", "-n", "3"], "the two arms play the same rules"),
        (["pebble-auction", "-B", "bots=random", "-B", "bots=heuristic"], "bots=... once"),
        (["pebble-auction", "-B", "start_points=9"], "option start_points='9' is not allowed"),
        ([], "give a game (or --files A B)"),
        (["--files", "nope.csv", "nope2.csv"], "there is no results file nope.csv"),
    ],
)
def test_bad_comparisons_are_refused(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["compare", *args])
    assert result.exit_code != 0
    assert message in flat(result.output), result.output
    assert list(tmp_path.iterdir()) == []
