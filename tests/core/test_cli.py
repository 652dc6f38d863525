"""The command line: games, watch and bench, driven through Typer's runner."""

from __future__ import annotations

import json

from typer.testing import CliRunner

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
