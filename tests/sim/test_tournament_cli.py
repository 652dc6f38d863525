"""``dragonlair tournament``: short seeded tournaments with seats rotated, their standings
against the fair share, and the Markdown table the docs use."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from typer.testing import CliRunner

from dragonlair.cli import app

runner = CliRunner()


def tournament(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["tournament", "pebble-auction", *args])
    return result.exit_code, result.stdout, result.output


def test_heuristic_beats_random_clearly() -> None:
    code, stdout, output = tournament("--bots", "heuristic,random", "-n", "398", "--json")
    assert code == 0, output
    assert "playing 400 games, a multiple of 4" in output
    summary = json.loads(stdout)
    assert summary["games"] == 400 and summary["fair_share"] == 0.25
    heuristic, rand = summary["bots"]
    assert (heuristic["label"], heuristic["seats"], rand["seats"]) == ("heuristic", 1, 3)
    assert heuristic["verdict"] == "above" and heuristic["win"]["low"] > 0.25
    assert rand["verdict"] == "below"
    assert [s["label"] for s in summary["seats"]] == ["seat 0", "seat 1", "seat 2", "seat 3"]


def test_a_short_ismcts_tournament(tmp_path: Path) -> None:
    out = tmp_path / "t.csv"
    code, stdout, output = tournament(
        "-p", "3", "--bots", "ismcts:iterations=20,random", "-n", "12", "--out", str(out), "-q"
    )
    assert code == 0, output
    assert "seats rotated" in stdout and "ismcts:iterations=20" in stdout
    assert "verdict" in stdout and "(12 rows)" in stdout
    with out.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 12
    # seats rotate: the ismcts entry sits at seat 0, then 2, then 1, then 0 again
    seats = [next(s for s in range(3) if row[f"bot_{s}"] != "random") for row in rows[:4]]
    assert seats == [0, 2, 1, 0]


def test_markdown_standings_carry_the_command() -> None:
    code, stdout, output = tournament(
        "--bots", "heuristic,random", "-n", "40", "--seed", "3", "--markdown"
    )
    assert code == 0, output
    assert stdout.startswith(
        "`dragonlair tournament pebble-auction --players 4 --bots heuristic,random -n 40 --seed 3`"
    )
    assert "| bot | seats | games | win share per seat | 95% CI | fair share | verdict |" in stdout
    assert "| heuristic | 1 | 40 |" in stdout


def test_same_tournament_whatever_the_workers(tmp_path: Path) -> None:
    outs = []
    for w in ("1", "2"):
        out = tmp_path / f"{w}.csv"
        code, _, output = tournament(
            "--bots", "heuristic,random", "-n", "60", "-w", w, "--out", str(out), "-q"
        )
        assert code == 0, output
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


def test_bad_arguments_are_refused() -> None:
    code, _, output = tournament("-p", "2", "--bots", "heuristic,random,random")
    assert code != 0 and "3 bots given for 2 seats" in output
    code, _, output = tournament("--bots", "heuristic:speed=2")
    assert code != 0 and "the heuristic bot does not take speed=2" in output
