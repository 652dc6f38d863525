"""Runs on Ray: a local Ray cluster started here plays the chunks of games as tasks, with
the same results file, byte for byte, as local workers, and a failing game reported the
same way."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dragonlair.bots import parse_bots
from dragonlair.cli import app
from dragonlair.sim import Job, run
from dragonlair.sim.runner import Ray

ray = pytest.importorskip("ray")
runner = CliRunner()
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        yield
    finally:
        ray.shutdown()


def test_ray_gives_the_same_results_as_local_workers(cluster: None, tmp_path: Path) -> None:
    local, remote = tmp_path / "local.csv", tmp_path / "ray.parquet"
    args = ["simulate", "dragon-stripes", "--bots", "heuristic,random", "-n", "120", "--seed", "8"]
    a = runner.invoke(app, [*args, "-w", "2", "--out", str(local), "-q"])
    assert a.exit_code == 0, a.output
    b = runner.invoke(app, [*args, "--ray-address", "auto", "--out", str(remote), "--json"])
    assert b.exit_code == 0, b.output
    from dragonlair.sim.output import read_frame

    fa, fb = read_frame(local), read_frame(remote)
    assert fa.to_dict("list") == fb.to_dict("list")


def test_outcomes_match_game_by_game(cluster: None) -> None:
    job = Job("dragon-race", 3, tuple(parse_bots("random", 3)), n=30, seed=2)
    assert run(job, ray=Ray()).outcomes == run(job).outcomes
