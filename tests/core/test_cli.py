"""The command line: games, watch and bench, driven through Typer's runner."""

from __future__ import annotations

import json
import sys

from typer.testing import CliRunner

import dragonlair
from dragonlair.cli import app

runner = CliRunner()


def test_games_lists_the_registered_games() -> None:
    result = runner.invoke(app, ["games", "--json"])
    assert result.exit_code == 0
    ids = [g["id"] for g in json.loads(result.output)]
    assert "pebble-auction" in ids


def test_help_everywhere() -> None:
    for cmd in ([], ["games"], ["watch"], ["bench"]):
        result = runner.invoke(app, [*cmd, "--help"])
        assert result.exit_code == 0, result.output
        assert "Usage" in result.output


def test_watch_plays_a_seeded_game_to_the_end() -> None:
    args = ["watch", "pebble-auction", "-n", "3", "--bots", "random", "--seed", "5"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "result" in first.output and "points" in first.output
    assert runner.invoke(app, args).output == first.output


def test_watch_refuses_bad_arguments_clearly() -> None:
    bad = runner.invoke(app, ["watch", "chess"])
    assert bad.exit_code != 0 and "no game 'chess'" in bad.output
    bad = runner.invoke(app, ["watch", "pebble-auction", "-n", "9"])
    assert bad.exit_code != 0 and "2 to 4 players" in bad.output
    bad = runner.invoke(app, ["watch", "pebble-auction", "--bots", "genius"])
    assert bad.exit_code != 0 and "no bot level 'genius'" in bad.output
    bad = runner.invoke(app, ["watch", "pebble-auction", "-o", "start_points"])
    assert bad.exit_code != 0 and "key=value" in bad.output
    bad = runner.invoke(app, ["watch", "pebble-auction", "-o", "start_points=99"])
    assert bad.exit_code != 0 and "start_points=" in bad.output


def test_bench_json_measures_every_player_count() -> None:
    result = runner.invoke(
        app,
        [
            "bench",
            "--json",
            "--game",
            "pebble-auction",
            "--reps",
            "1",
            "--slice",
            "0.02",
            "--no-references",
        ],
    )
    assert result.exit_code == 0, result.output
    measures = json.loads(result.output)["measures"]
    assert [m["players"] for m in measures] == [2, 3, 4]
    for m in measures:
        assert m["decisions_per_s"] > 0 and m["clones_per_s"] > 0 and m["state_bytes"] > 0


def test_bench_refuses_unknown_games() -> None:
    result = runner.invoke(app, ["bench", "--game", "chess"])
    assert result.exit_code != 0 and "no game 'chess'" in result.output


def test_bench_measures_the_other_build_in_a_subprocess() -> None:
    """With --other-build the same rows come again from another interpreter (here this
    one, so both sides are the same build) and a table sets the two builds side by side
    (the RL rows of both builds: tests/rl/test_rl_bench.py)."""
    args = ["bench", "--game", "dragon-stripes", "-p", "3", "--reps", "1", "--slice", "0.02"]
    args += ["--no-references", "--no-ismcts", "--no-simulate", "--no-rl", "--no-bots"]
    args += ["--other-build", sys.executable]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["build"] == ("compiled" if dragonlair.COMPILED else "pure")
    other = doc["other_build"]
    assert other["python"] == sys.executable and other["build"] == doc["build"]
    [row] = other["measures"]
    assert row["name"] == "dragon-stripes" and row["players"] == 3 and row["decisions_per_s"] > 0
    assert doc["rl"] == [] and other["rl"] == []  # --no-rl leaves them out in both builds
    assert doc["bot_loops"] == [] and other["bot_loops"] == []  # so does --no-bots
    table = runner.invoke(app, args)
    assert table.exit_code == 0, table.output
    assert "pure and compiled builds" in table.output and "dragon-stripes" in table.output
    missing = runner.invoke(app, [*args[:-1], "/nonexistent/python"])
    assert missing.exit_code == 2 and "not an interpreter that can be run" in missing.output
    broken = runner.invoke(app, [*args[:-1], "false"])
    assert broken.exit_code == 1 and "the other build's bench failed" in broken.output
