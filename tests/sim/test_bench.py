"""The workbench's rows of ``dragonlair bench``: a heuristic game with its per-game data
and results row against the raw loop with the same heuristic bots choosing."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from dragonlair import bench, make
from dragonlair.bots import BotSpec
from dragonlair.cli import app
from dragonlair.sim import Job, play_game
from dragonlair.sim.runner import make_bots

runner = CliRunner()


def test_the_raw_loop_with_heuristic_bots_plays_simulates_games() -> None:
    """The raw loop with the heuristic in every seat plays the very games simulate's loop
    plays with the same seed (same game and bot seeds), so the ratio of the two leaves the
    bots' own cost on both sides."""
    game = make("dragon-stripes", players=3)
    games, decisions, _, seconds = bench.bot_playout(game, "heuristic", 7)(0.02)
    assert games >= 1 and seconds > 0
    job = Job("dragon-stripes", 3, (BotSpec("heuristic"),) * 3, n=games, seed=7, data=False)
    bots = make_bots(job, game)
    assert decisions == sum(play_game(job, game, bots, i).length for i in range(games))


def test_the_bench_compares_the_game_with_its_data_to_the_same_bots_raw_loop() -> None:
    m = bench.measure_bot_loops("pebble-auction", bench.Settings(slice_s=0.02, reps=2))
    assert m.raw_heuristic_decisions_per_s > 0
    # the features path adds to the same bots' raw loop: slower, not faster
    assert m.features_over_raw_heuristic > 0.5
    assert m.to_dict()["features_over_raw_heuristic"] == m.features_over_raw_heuristic


def test_heuristic_throughput_is_measured_as_simulate_plays_and_carried_over() -> None:
    m = bench.measure_throughput("pebble-auction", 24, seed=3)
    assert m is not None and m.games == 24 and m.workers == 2
    assert m.seconds > 0 and m.cpu_s is not None and m.cpu_s > 0
    # fewer games than the target: extrapolated, and said so
    assert m.extrapolated and m.target_games == bench.THROUGHPUT_TARGET
    assert m.target_s == m.seconds * bench.THROUGHPUT_TARGET / 24
    idle = m.target_idle_s
    assert idle is not None and abs(idle - m.cpu_s * bench.THROUGHPUT_TARGET / 24 / 2) < 1e-9
    done = bench.ThroughputMeasure("x", 2, games=bench.THROUGHPUT_TARGET, seconds=170.0)
    assert not done.extrapolated and done.target_s == 170.0


def test_bench_prints_the_throughput_when_asked_extrapolated() -> None:
    args = ["bench", "--game", "pebble-auction", "-p", "4", "--reps", "1", "--slice", "0.02"]
    args += ["--no-references", "--no-ismcts", "--no-simulate", "--no-bots", "--no-rl"]
    shown = runner.invoke(app, [*args, "--throughput", "--throughput-games", "12"])
    assert shown.exit_code == 0, shown.output
    assert "100,000 heuristic games with 2 workers" in shown.stdout
    assert "Extrapolated" in shown.stdout
    doc = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    assert doc["throughput"] == []  # only when asked: some minutes a game at 100,000
    with_json = runner.invoke(app, [*args, "--throughput", "--throughput-games", "12", "--json"])
    [row] = json.loads(with_json.stdout)["throughput"]
    assert row["games"] == 12 and row["extrapolated"] is True and row["target_s"] > 0
