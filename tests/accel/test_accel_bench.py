"""The batched engines' rows of ``dragonlair bench --accel``."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("jax")
pytest.importorskip("pgx")

from typer.testing import CliRunner

from dragonlair.accel import bench as accel_bench
from dragonlair.cli import app


@pytest.mark.timeout(300)
def test_bench_accel_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    """With --accel, the JSON report holds a row per engine and batch size, each with a
    rate and its ratio to connect_four_v3 measured in the same run, and the compile time;
    without it, none (the engines and batches cut down to keep the test short)."""
    monkeypatch.setattr(
        accel_bench,
        "ENGINES",
        (accel_bench.ENGINES[0], ("leduc_holdem (Pgx)", "pgx:leduc_holdem", 2)),
    )
    monkeypatch.setattr(accel_bench, "BATCHES", (4,))
    monkeypatch.setattr(accel_bench, "STEPS_PER_CHUNK", 64)
    args = ["bench", "-g", "pebble-auction", "-p", "2", "--reps", "1", "--slice", "0.02"]
    args += ["--no-references", "--no-ismcts", "--no-simulate", "--no-rl", "--no-bots"]
    runner = CliRunner()
    result = runner.invoke(app, [*args, "--accel", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["accel"]
    assert [(r["name"], r["players"], r["tables"]) for r in rows] == [
        ("dragon-stripes (JAX)", 2, 4),
        ("leduc_holdem (Pgx)", 2, 4),
    ]
    for r in rows:
        assert r["steps_per_s"] > 0 and r["ratio_connect_four"] > 0 and r["compile_s"] > 0
    table = runner.invoke(app, [*args, "--accel"])
    assert table.exit_code == 0, table.output
    assert "batched engines: steps per CPU second" in table.output
    assert "load average" in table.output
    assert "leduc_holdem (Pgx)" in table.output
    without = runner.invoke(app, [*args, "--json"])
    assert json.loads(without.output)["accel"] == []
