"""``dragonlair simulate``: results file, records, options, determinism, clear errors, and
Ctrl-C keeping what finished."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import pexpect
import pytest
from typer.testing import CliRunner

import dragonlair
from dragonlair.cli import app

runner = CliRunner()
HERE = Path(__file__).parent


def simulate(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["simulate", "pebble-auction", *args])
    return result.exit_code, result.stdout, result.output


def flat(output: str) -> str:
    """The output with the error box's borders and line breaks taken out."""
    return " ".join(output.replace("│", " ").split())


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def test_results_file_summary_and_records(tmp_path: Path) -> None:
    out, records = tmp_path / "results.csv", tmp_path / "records"
    args = ["-p", "3", "--bots", "heuristic,random", "-n", "12", "--seed", "5"]
    code, stdout, _ = simulate(*args, "--out", str(out), "--records", str(records), "--json")
    assert code == 0, stdout
    summary = json.loads(stdout)
    assert summary["games"] == 12 and summary["players"] == 3
    assert [b["label"] for b in summary["bots"]] == ["heuristic", "random"]
    assert summary["seats"][0]["label"] == "seat 0: heuristic"
    assert {"value", "low", "high"} <= set(summary["bots"][0]["win"])
    rows = read_rows(out)
    assert [int(r["index"]) for r in rows] == list(range(12))
    first = rows[0]
    assert first["bot_0"] == "heuristic" and first["bot_2"] == "random"
    assert json.loads(first["options"]) == {"start_points": 1}
    files = sorted(records.iterdir())
    assert [f.name for f in files][:2] == ["game-000000.json", "game-000001.json"]
    assert len(files) == 12
    state = dragonlair.replay(files[3].read_text())
    assert state.result is not None
    assert [str(p) for p in state.result.points] == [rows[3][f"points_{s}"] for s in range(3)]
    assert str(state.seed) == rows[3]["seed"] and str(state.move) == rows[3]["length"]


def test_summary_tables_are_printed(tmp_path: Path) -> None:
    code, stdout, _ = simulate(
        "--bots", "heuristic,random", "-n", "20", "--out", str(tmp_path / "r.csv")
    )
    assert code == 0, stdout
    for text in (
        "Pebble Auction, 4 players: 20 games, seed 1",
        "seat 0: heuristic",
        "95% CI",
        "game length",
    ):
        assert text in stdout
    assert "results: " in stdout and "(20 rows)" in stdout


def test_options_pass_through_to_the_game(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    code, stdout, _ = simulate("-n", "3", "-o", "start_points=4", "--out", str(out), "--json", "-q")
    assert code == 0, stdout
    assert json.loads(stdout)["options"] == {"start_points": 4}
    assert json.loads(read_rows(out)[0]["options"]) == {"start_points": 4}


def test_identical_results_with_one_or_two_workers(tmp_path: Path) -> None:
    files = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.csv"
        bots = "ismcts:iterations=10,heuristic,random"
        code, stdout, _ = simulate(
            "--bots", bots, "-n", "16", "-w", workers, "--out", str(out), "-q"
        )
        assert code == 0, stdout
        files.append(out.read_bytes())
    assert files[0] == files[1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "genius"], "no bot level 'genius'"),
        (["--bots", "ismcts:width=3"], "the ismcts bot does not take width=3"),
        (["--bots", "ismcts:iterations=0"], "iterations must be a whole number >= 1"),
        (["-p", "2", "--bots", "random,random,random"], "3 bots given for 2 seats"),
        (["-p", "7"], "for 2 to 4 players, not 7"),
        (["-o", "start_points=99"], "start_points='99' is not allowed"),
        (["-o", "colour=red"], "no option 'colour'"),
        (["-o", "start_points"], "options are key=value"),
        (["-n", "0"], "'-n' / '--games': Input should be greater than or equal to 1"),
        (["-w", "0"], "'--workers' / '-w': Input should be greater than or equal to 1"),
        (["--seed", "-1"], "'--seed': Input should be greater than or equal to 0"),
        (["--out", "missing/r.csv"], "there is no folder"),
        (["--out", "."], "it is not a file"),
        (["--records", "file.txt"], "it is not a folder"),
    ],
)
def test_bad_arguments_get_clear_errors_and_change_nothing(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "file.txt").write_text("x")
    code, _, output = simulate(*args, "--out", "r.csv") if "--out" not in args else simulate(*args)
    assert code != 0
    assert message in flat(output), output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt"]


def test_unknown_games_are_refused() -> None:
    result = runner.invoke(app, ["simulate", "chess"])
    assert result.exit_code != 0 and "no game 'chess'" in result.output


@pytest.mark.slow
def test_ctrl_c_stops_cleanly_and_keeps_what_finished(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    cmd = [str(HERE / "example_cli.py"), "simulate", "pebble-auction", "-n", "1000000"]
    cmd += ["-w", "2", "--out", str(out)]
    child = pexpect.spawn(sys.executable, cmd, timeout=60, dimensions=(40, 200), encoding="utf-8")
    child.expect(r"[1-9][0-9]{3,}/1000000")  # a few thousand games are done
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    text = child.before or ""
    assert "interrupted:" in text and "games finished and kept" in text
    rows = read_rows(out)
    assert 1000 <= len(rows) < 1000000
    assert [int(r["index"]) for r in rows] == sorted(int(r["index"]) for r in rows)


def test_resume_needs_a_results_file() -> None:
    code, _, output = simulate("--resume", "-n", "3")
    assert code != 0 and "--resume continues the run in --out" in flat(output)
