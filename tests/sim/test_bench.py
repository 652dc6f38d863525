"""The workbench's rows of ``dragonlair bench``: a heuristic game with its per-game data
and results row against the raw loop with the same heuristic bots choosing."""

from __future__ import annotations

from dragonlair import bench, make
from dragonlair.bots import BotSpec
from dragonlair.sim import Job, play_game
from dragonlair.sim.runner import make_bots


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
