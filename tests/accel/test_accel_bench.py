"""The batched engines' rows of ``dragonlair bench --accel``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("jax")
pytest.importorskip("pgx")

from typer.testing import CliRunner

from dragonlair import accel
from dragonlair.accel import bench as accel_bench
from dragonlair.cli import app

# the second run of the same engines reads their programs from the cache
accel.cache_compilations(Path(__file__).resolve().parents[2] / "build" / "jax-cache")


@pytest.mark.timeout(300)
def test_bench_accel_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    """With --accel, the JSON report holds a row per engine and batch size, each with a
    rate, its ratios to connect_four_v3 and to Pgx's connect_four measured in the same
    run, and the compile time;
    without it, none (the engines and batches cut down to keep the test short)."""
    monkeypatch.setattr(
        accel_bench,
        "ENGINES",
        (
            ("space-dragons (JAX)", "space-dragons", 3),
            ("connect_four (Pgx)", "pgx:connect_four", 2),
        ),
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
        ("space-dragons (JAX)", 3, 4),
        ("connect_four (Pgx)", 2, 4),
    ]
    for r in rows:
        assert r["steps_per_s"] > 0 and r["ratio_connect_four"] > 0 and r["compile_s"] > 0
    ours, pgx = rows
    assert ours["ratio_pgx_connect_four"] == ours["steps_per_s"] / pgx["steps_per_s"]
    assert pgx["ratio_pgx_connect_four"] == 1.0
    table = runner.invoke(app, [*args, "--accel"])
    assert table.exit_code == 0, table.output
    assert "batched engines: steps per CPU second" in table.output
    assert "load average" in table.output
    assert "connect_four (Pgx)" in table.output and "× Pgx c4" in table.output
    without = runner.invoke(app, [*args, "--json"])
    assert json.loads(without.output)["accel"] == []
