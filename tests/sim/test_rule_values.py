"""Every number a rule uses is a value of the game's data file: changed from the command
line (``-o data:PATH=value``), it changes the games played, and the results file names
and hashes the data file it was played with."""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dragonlair.cli import app
from dragonlair.sim import datavalues

runner = CliRunner()

# (game, players, bots, value path, changed value, games): the printed values are in the
# built-in data files; each change is one a handful of games exercises
RULE_VALUES = [
    ("space-race", 4, "random", "scoring.robot_bonus", 4, 20),
    ("space-race", 4, "random", "scoring.crystal_set", 3, 20),
    ("space-race", 4, "random", "scoring.crystal_set_bonus", 8, 20),
    ("space-race", 4, "random", "scoring.power_match_bonus", 3, 20),
    ("space-race", 4, "random", "scoring.loot_most", 7, 20),
    ("space-race", 4, "random", "scoring.loot_second", 3, 20),
    ("space-race", 4, "random", "scoring.drone_per_fewer", 4, 20),
    ("space-race", 4, "random", "scoring.most_fuel", 6, 20),
    ("space-race", 4, "random", "scoring.most_crew", 6, 20),
    ("space-race", 4, "random", "rounds", 2, 20),
    ("space-race", 4, "random", "hand_size", 5, 20),
    ("dragon-race", 4, "random", "effects.bolts_back", 8, 20),
    ("dragon-race", 4, "random", "effects.balls_back", 6, 20),
    ("dragon-race", 4, "random", "effects.tornado_ahead", 9, 20),
    ("dragon-race", 4, "random", "effects.stolen_draft_ahead", 5, 60),
    ("dragon-race", 4, "random", "hands.deal", 6, 20),
    ("dragon-race", 4, "random", "hands.draw_up_to", 3, 20),
    ("space-dragons", 4, "random", "hand_size", 8, 20),
    ("space-dragons", 4, "random", "rounds", 6, 20),
    ("dragon-stripes", 4, "random", "penalty_divisor.before_second_danger", 3, 20),
    ("dragon-stripes", 4, "random", "penalty_divisor.from_second_danger", 3, 20),
    ("dragon-stripes", 4, "random", "reward_multiplier.before_second_danger", 2, 20),
    ("dragon-stripes", 4, "random", "reward_multiplier.from_second_danger", 3, 20),
]


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Data files made from data values go to a cache of the test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "dragonlair" / "data"


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        del row["options"]  # names the data file: the same games differ there anyway
    return rows


def _built_in(game: str, path: str) -> object:
    doc = datavalues.read_base(datavalues.base_file(game, {}, "data"))
    for step in datavalues.parse_steps(path):
        doc = doc[step]
    return doc


def _simulate(
    tmp_path: Path, name: str, game: str, players: int, bots: str, n: int, *o: str
) -> Path:
    out = tmp_path / f"{name}.csv"
    args = ["simulate", game, "-p", str(players), "--bots", bots, "-n", str(n), "--seed", "5"]
    for item in o:
        args += ["-o", item]
    result = runner.invoke(app, [*args, "--out", str(out), "--json", "-q"])
    assert result.exit_code == 0, result.output
    return out


@pytest.mark.timeout(300)
def test_every_rule_value_changes_the_games(tmp_path: Path, cache: Path) -> None:
    base: dict[tuple[str, int], list[dict[str, str]]] = {}
    for game, players, bots, path, value, n in RULE_VALUES:
        built_in = _built_in(game, path)
        assert built_in != value
        key = (game, n)
        if key not in base:
            base[key] = _rows(_simulate(tmp_path, f"{game}-{n}", game, players, bots, n))
        out = _simulate(tmp_path, path, game, players, bots, n, f"data:{path}={value}")
        changed = _rows(out)
        assert changed != base[key], f"{game}: data:{path}={value} changed no game"
        # the run names the data file it played with, and its SHA-256
        meta = json.loads(out.with_name(out.name + ".meta.json").read_text())
        data = Path(meta["data_files"]["data"]["path"])
        assert data.parent == cache
        assert meta["data_files"]["data"]["sha256"] == hashlib.sha256(data.read_bytes()).hexdigest()
        steps = datavalues.parse_steps(path)
        doc = json.loads(data.read_text())
        for step in steps:
            doc = doc[step]
        assert doc == value
        # and records the value itself, beside the built-in one, whatever file holds it
        assert meta["data_values"] == {"data": {path: {"value": value, "built_in": built_in}}}


def test_the_same_values_give_the_same_file_and_games(tmp_path: Path) -> None:
    a = _simulate(tmp_path, "a", "space-race", 3, "random", 5, "data:scoring.most_fuel=1")
    b = _simulate(tmp_path, "b", "space-race", 3, "random", 5, "data:scoring.most_fuel=1")
    meta_a, meta_b = (json.loads(p.with_name(p.name + ".meta.json").read_text()) for p in (a, b))
    assert meta_a["data_files"] == meta_b["data_files"]
    assert _rows(a) == _rows(b)


def test_a_run_with_the_built_in_data_records_its_digest(tmp_path: Path) -> None:
    out = _simulate(tmp_path, "plain", "space-race", 3, "random", 3)
    meta = json.loads(out.with_name(out.name + ".meta.json").read_text())
    from importlib import resources

    builtin = resources.files("dragonlair.space_race").joinpath("data", "space_race.json")
    assert meta["data_files"]["data"] == {
        "path": "built-in:space_race.json",
        "sha256": hashlib.sha256(builtin.read_bytes()).hexdigest(),
    }
    assert meta["data_values"] == {}


@pytest.mark.parametrize(
    ("game", "item", "message"),
    [
        (
            "space-race",
            "data:scoring.crystal_set=0",
            "scoring.crystal_set: expected an integer from 1 to 99",
        ),
        ("space-race", "data:scoring.crystal_set_bonus=nine", "'nine' is not a number"),
        ("space-race", "data:scoring.crystal_bonus=9", "there is no 'crystal_bonus'"),
        ("space-race", "data:scoring.most_fuel=2.5", "whole number"),
        ("space-race", "data:rounds=21", "rounds: expected an integer from 1 to 20, got 21"),
        ("space-race", "data:hand_size=7", "expected at least 84 cards (3 rounds of 7 for 4"),
        ("space-race", "data:rounds=9", "at least 216 cards (9 rounds of 6 for 4 players)"),
        ("dragon-race", "data:hands.deal=0", "hands.deal: expected an integer from 1 to 20, got 0"),
        ("dragon-race", "data:hands.deal=15", "expected at most 14 cards each for 4 players"),
        ("dragon-race", "data:hands.draw_up_to=21", "expected an integer from 1 to 20, got 21"),
        ("space-dragons", "data:hand_size=16", "hand_size: expected an integer from 1 to 15"),
        ("space-dragons", "data:rounds=10", "rounds: expected an integer from 1 to 9, got 10"),
        ("space-dragons", "data:rounds=0", "rounds: expected an integer from 1 to 9, got 0"),
        (
            "dragon-stripes",
            "data:penalty_divisor.before_second_danger=0",
            "penalty_divisor.before_second_danger: expected an integer from 1 to 100, got 0",
        ),
        (
            "dragon-stripes",
            "data:reward_multiplier.from_second_danger=11",
            "reward_multiplier.from_second_danger: expected an integer from 0 to 10, got 11",
        ),
        ("dragon-stripes", "data:penalty_divisor.from_second_danger=1.5", "whole number"),
        ("dragon-stripes", "data:penalty_divisor.third=2", "there is no 'third'"),
    ],
)
def test_a_bad_rule_value_is_refused_before_any_game(
    tmp_path: Path, game: str, item: str, message: str
) -> None:
    out = tmp_path / "bad.csv"
    args = ["simulate", game, "-p", "4", "-n", "5", "-o", item, "--out", str(out), "-q"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.replace("│", " ").split()), result.output
    assert not out.exists()


def test_compare_arms_set_rule_values(tmp_path: Path) -> None:
    args = ["compare", "space-race", "-p", "3", "--bots", "random", "-n", "30", "--json", "-q"]
    result = runner.invoke(
        app,
        [
            *args,
            "-A",
            "data:scoring.most_fuel=5",
            "-B",
            "data:scoring.most_fuel=25",
        ],
    )
    assert result.exit_code == 0, result.output
    cmp = json.loads(result.stdout)
    # random bots play the same games whatever the scoring: only the scores move
    assert cmp["altered"] == 0 and cmp["rescored"] > 0 and cmp["winner_changed"] > 0
    assert cmp["b_label"] == "data:scoring.most_fuel=25"


# The entries each game's data file gained when its rule values became data: a user's file
# written before may leave them out and gets the built-in values.
NEWER_ENTRIES = [
    (
        "dragon-stripes",
        "dragon_stripes",
        "dragon_stripes.json",
        ("penalty_divisor", "reward_multiplier"),
    ),
    ("space-dragons", "space_dragons", "space_dragons.json", ("hand_size", "rounds")),
    ("space-race", "space_race", "space_race.json", ("rounds", "hand_size")),
    ("dragon-race", "dragon_race", "great_dragon_race.json", ("hands",)),
]


@pytest.mark.parametrize(("game", "package", "filename", "entries"), NEWER_ENTRIES)
def test_a_file_of_the_older_schema_plays_with_the_built_in_values(
    tmp_path: Path, game: str, package: str, filename: str, entries: tuple[str, ...]
) -> None:
    import dragonlair
    from dragonlair.core.registry import make

    built_in = Path(dragonlair.__file__).parent / package / "data" / filename
    data = json.loads(built_in.read_text(encoding="utf-8"))
    for key in entries:
        del data[key]
    older = tmp_path / "older.json"
    older.write_text(json.dumps(data), encoding="utf-8")
    a = make(game, players=3, options={"data": str(older)}).new_game(5)
    b = make(game, players=3).new_game(5)
    assert {k: v for k, v in a.to_position().items() if k != "options"} == b.to_position()
    # an entry that is there is still checked
    data[entries[0]] = "many"
    older.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(dragonlair.core.BadDataFile, match=entries[0]):
        make(game, players=3, options={"data": str(older)})
