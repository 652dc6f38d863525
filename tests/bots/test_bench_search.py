"""The ISMCTS and simulate sections of the benchmark run and report sensible figures
(speed itself is for ``dragonlair bench``, never asserted here)."""

from __future__ import annotations

import json
import sys

from typer.testing import CliRunner

from dragonlair import bench, make
from dragonlair.cli import app

runner = CliRunner()


def test_ismcts_is_measured_with_random_rollouts_and_with_its_defaults() -> None:
    s = bench.Settings(slice_s=0.02, reps=1)
    random_rollouts, defaults = bench.measure_ismcts("pebble-auction", s)
    assert random_rollouts.config == "random rollouts"
    assert defaults.config == "defaults (opponents=heuristic)"
    for m in (random_rollouts, defaults):
        assert m.sims_per_s > 0 and m.actions >= 2 and m.players == 4


def test_the_default_configuration_is_named_by_what_differs_from_random_rollouts() -> None:
    from tests.core.pebble_auction.heuristic import PebbleHeuristic
    from tests.core.pebble_auction.manifest import replaced

    class Declares(PebbleHeuristic):
        def evaluate(self, view: object) -> list[float]:
            return [0.25] * 4

    game = make("pebble-auction")
    assert bench.default_label(game) == "defaults (opponents=heuristic)"
    ismcts = {"paired": True, "depth": 2, "c": 0.4}
    with replaced("pebble-auction", heuristic=Declares, ismcts=ismcts):
        assert bench.default_label(game) == "defaults (paired, depth=2, c=0.4)"
        _, defaults = bench.measure_ismcts("pebble-auction", bench.Settings(0.02, reps=1))
        assert defaults.config == "defaults (paired, depth=2, c=0.4)" and defaults.sims_per_s > 0


def test_simulate_is_measured_with_one_and_two_workers() -> None:
    m = bench.measure_simulate("pebble-auction", bench.Settings(slice_s=0.02, reps=1))
    assert m.games >= 40
    assert m.one_worker_games_per_s > 0 and m.two_workers_games_per_s > 0
    assert m.speedup > 0 and m.to_dict()["speedup"] == m.speedup


def test_bench_json_has_the_search_and_simulate_sections() -> None:
    args = ["bench", "--json", "--game", "pebble-auction", "-p", "3", "--reps", "1"]
    result = runner.invoke(app, [*args, "--slice", "0.02", "--no-references"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [m["config"] for m in report["ismcts"]] == [
        "random rollouts",
        "defaults (opponents=heuristic)",
    ]
    assert report["simulate"][0]["name"] == "pebble-auction"
    skipped = runner.invoke(
        app, [*args, "--slice", "0.02", "--no-references", "--no-ismcts", "--no-simulate"]
    )
    assert (
        json.loads(skipped.stdout)["ismcts"] == [] and json.loads(skipped.stdout)["simulate"] == []
    )


def test_simulate_with_bots_is_measured_against_the_raw_loop() -> None:
    m = bench.measure_bot_loops("pebble-auction", bench.Settings(slice_s=0.02, reps=2))
    assert m.players == 4 and m.raw_decisions_per_s > 0 and m.view_us > 0
    assert m.random_decisions_per_s > 0 and m.heuristic_decisions_per_s > 0
    assert m.random_slower > 0 and m.heuristic_slower > 0
    # the heuristic game with its results row's per-game data, beside the same raw loop
    assert m.features_decisions_per_s > 0 and m.features_slower > 0


def test_bench_prints_the_bot_loops_and_can_leave_them_out() -> None:
    args = ["bench", "--game", "pebble-auction", "-p", "4", "--reps", "1", "--slice", "0.02"]
    args += ["--no-references", "--no-ismcts", "--no-simulate"]
    shown = runner.invoke(app, args)
    assert shown.exit_code == 0, shown.output
    assert "simulate's loop with bots" in shown.stdout and "view µs" in shown.stdout
    skipped = runner.invoke(app, [*args, "--no-bots", "--json"])
    assert json.loads(skipped.stdout)["bot_loops"] == []


def test_bench_measures_the_other_builds_bot_loops_too() -> None:
    """With --other-build the bot-loop rows come from the other interpreter as well (here
    this one), each beside its own raw loop, printed as a second table."""
    args = ["bench", "--game", "dragon-stripes", "-p", "3", "--reps", "1", "--slice", "0.02"]
    args += ["--no-references", "--no-ismcts", "--no-simulate", "--no-rl"]
    args += ["--other-build", sys.executable]
    doc = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    [row] = doc["other_build"]["bot_loops"]
    assert row["name"] == "dragon-stripes"
    assert row["raw_decisions_per_s"] > 0 and row["heuristic_slower"] > 0
    shown = runner.invoke(app, args)
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.count("simulate's loop with bots") == 2
