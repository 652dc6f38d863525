"""The RL rows of ``dragonlair bench`` run and report sensible figures (speed itself is
for the bench, never asserted here)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

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
    skipped = runner.invoke(app, [*args, "--no-rl", "--json"])
    assert skipped.exit_code == 0, skipped.output
    assert json.loads(skipped.output)["rl"] == []
