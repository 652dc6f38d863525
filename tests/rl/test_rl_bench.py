"""The RL rows of ``dragonlair bench`` run and report sensible figures (speed itself is
for the bench, never asserted here)."""

from __future__ import annotations

import json
import sys

from typer.testing import CliRunner

import dragonlair
from dragonlair import bench
from dragonlair.cli import app


def test_every_rl_row_is_measured_next_to_connect_four() -> None:
    rows = bench.run_rl(["pebble-auction"], bench.Settings(slice_s=0.02, reps=1))
    by_interface = {m.interface: m for m in rows if not m.reference}
    steps = ["PettingZoo AEC", "vector env, 64 tables", "Gymnasium vector env, 64 tables"]
    for name in steps:
        m = by_interface[name]
        assert m.steps_per_s > 0 and m.ratio_connect_four is not None and m.ratio_connect_four > 0
    strings = [m for m in rows if "info state" in m.interface]
    assert len(strings) == 2 and all(m.micros is not None and m.micros > 0 for m in strings)
    assert any(m.size is not None and 37 <= m.size <= 40 for m in strings)
    (reference,) = [m for m in rows if m.reference]
    assert reference.name == "connect_four_v3 (PettingZoo)" and reference.steps_per_s > 0


def test_the_bench_prints_and_can_skip_the_rl_rows() -> None:
    runner = CliRunner()
    args = ["bench", "-g", "pebble-auction", "-p", "2", "--reps", "1", "--slice", "0.02"]
    args += ["--no-references", "--no-ismcts", "--no-simulate"]
    shown = runner.invoke(app, args)
    assert shown.exit_code == 0, shown.output
    assert "RL interfaces" in shown.output and "connect_four_v3" in shown.output
    # OpenSpiel is installed here: the title says its references were skipped, not that
    # it is missing
    assert "OpenSpiel not installed" not in shown.output
    assert "references not measured" in shown.output
    skipped = runner.invoke(app, [*args, "--no-rl", "--json"])
    assert skipped.exit_code == 0, skipped.output
    doc = json.loads(skipped.output)
    assert doc["rl"] == []
    assert doc["openspiel"] and doc["references"] is False
    assert not any(m["name"] in ("hearts", "python_liars_poker") for m in doc["measures"])


def test_the_other_build_measures_its_rl_rows_too() -> None:
    """With --other-build the RL rows come again from the other interpreter (here this
    one, so both sides are the same build), each beside its own connect_four_v3, and one
    table sets both builds' rows side by side."""
    args = ["bench", "-g", "dragon-stripes", "-p", "3", "--reps", "1", "--slice", "0.02"]
    args += ["--no-references", "--no-ismcts", "--no-simulate", "--no-bots"]
    args += ["--other-build", sys.executable]
    runner = CliRunner()
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    other = doc["other_build"]
    assert other["build"] == doc["build"] == ("compiled" if dragonlair.COMPILED else "pure")
    mine = {(m["name"], m["interface"]): m for m in doc["rl"]}
    theirs = {(m["name"], m["interface"]): m for m in other["rl"]}
    assert set(theirs) == set(mine)
    for name, interface in [
        ("dragon-stripes", "PettingZoo AEC"),
        ("dragon-stripes", "vector env, 64 tables"),
        ("dragon-stripes", "Gymnasium vector env, 64 tables"),
    ]:
        m = theirs[name, interface]
        assert m["steps_per_s"] > 0 and m["ratio_connect_four"] > 0
    strings = [m for m in other["rl"] if "info state" in m["interface"]]
    assert len(strings) == 2 and all(m["micros"] > 0 for m in strings)
    [reference] = [m for m in other["rl"] if m["reference"]]
    assert reference["name"] == "connect_four_v3 (PettingZoo)" and reference["steps_per_s"] > 0
    table = runner.invoke(app, args)
    assert table.exit_code == 0, table.output
    assert "RL interfaces in both builds" in table.output
    [aec] = [
        line for line in table.output.splitlines() if "│ dragon-stripes " in line and "AEC" in line
    ]
    assert aec.count("│") == 10  # both builds' figures and ratios, and the speed-up
