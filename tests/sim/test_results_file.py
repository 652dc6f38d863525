"""Results files: streamed as games finish, resumed after SIGTERM, Ctrl-C or a crash with
exactly the rows an uninterrupted run writes, Parquet with the run's metadata inside, the
rich per-game data of the real games, and runs that refuse to resume another run."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from dragonlair.bots import parse_bots
from dragonlair.cli import app
from dragonlair.sim import Job, run
from dragonlair.sim.features import SNAPSHOTS, snapshot_moves
from dragonlair.sim.output import ResultsFile, read_frame, read_metadata
from tests.core.pebble_auction.manifest import WITH_HEURISTIC, registered

runner = CliRunner()
HERE = Path(__file__).parent
ARGS = ["-p", "3", "--bots", "ismcts:iterations=10,random", "-n", "240", "--seed", "9"]


def rows_of(path: Path) -> list[list[str]]:
    with path.open(newline="") as f:
        return list(csv.reader(f))


def lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def start(out: Path, *extra: str) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, str(HERE / "example_cli.py"), "simulate", "pebble-auction", *ARGS]
    return subprocess.Popen(
        [*cmd, "--out", str(out), "-q", *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def interrupt_after(proc: subprocess.Popen[bytes], path: Path, rows: int, sig: int) -> None:
    deadline = time.monotonic() + 120
    while lines(path) < rows + 1 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the run ended before it could be interrupted"
    os.kill(proc.pid, sig)
    proc.wait(timeout=60)


@pytest.fixture(scope="module")
def whole_run(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The results file of the run uninterrupted (made once for the three ways to stop it),
    with the example game's heuristic, as the run in a process of its own has it."""
    whole = tmp_path_factory.mktemp("whole") / "whole.csv"
    with registered(WITH_HEURISTIC):
        args = ["simulate", "pebble-auction", *ARGS, "--out", str(whole), "-q"]
        result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return whole.read_bytes()


@pytest.mark.slow  # end to end: a real simulate process, interrupted by a signal
@pytest.mark.parametrize(
    ("sig", "workers", "code"),
    [(signal.SIGTERM, "1", 130), (signal.SIGINT, "2", 130), (signal.SIGKILL, "2", -9)],
)
def test_an_interrupted_run_resumes_to_the_same_file(
    tmp_path: Path, whole_run: bytes, sig: int, workers: str, code: int
) -> None:
    part = tmp_path / "part.csv"
    proc = start(part, "-w", workers)
    interrupt_after(proc, part, 20, sig)
    assert proc.returncode == code, proc.stderr.read() if proc.stderr else ""
    kept = rows_of(part)
    assert 20 <= len(kept) - 1 < 240  # what finished is on disk (a crash may cut a line)
    meta = json.loads((tmp_path / "part.csv.meta.json").read_text())
    assert meta["complete"] is False
    if sig != signal.SIGKILL:
        assert meta["games"] == len(kept) - 1
        assert b"--resume" in (proc.stderr.read() if proc.stderr else b"")
    again = runner.invoke(
        app, ["simulate", "pebble-auction", *ARGS, "--out", str(part), "--resume", "--json"]
    )
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["games"] == 240
    assert part.read_bytes() == whole_run
    assert json.loads((tmp_path / "part.csv.meta.json").read_text())["complete"] is True


def test_resume_refuses_another_run(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    base = ["simulate", "pebble-auction", "-p", "3", "-n", "5", "--out", str(out), "-q"]
    assert runner.invoke(app, base).exit_code == 0
    before = out.read_bytes()
    other = runner.invoke(app, [*base, "--seed", "2", "--resume"])
    assert other.exit_code != 0
    assert "cannot resume" in other.output and "seed: 1 there, 2 now" in " ".join(
        other.output.replace("│", " ").split()
    )
    assert out.read_bytes() == before


def test_parquet_holds_the_rows_and_the_metadata(tmp_path: Path) -> None:
    csv_out, pq_out = tmp_path / "r.csv", tmp_path / "r.parquet"
    for out in (csv_out, pq_out):
        args = ["simulate", "pebble-auction", "-p", "3", "-n", "30", "-w", "2", "--out", str(out)]
        result = runner.invoke(app, [*args, "-q"])
        assert result.exit_code == 0, result.output
    assert not (tmp_path / "r.parquet.partial.csv").exists()
    meta = read_metadata(pq_out)
    assert meta["game"] == "pebble-auction" and meta["complete"] is True
    assert meta["rules_version"] == 1 and meta["seed"] == 1 and meta["games"] == 30
    table = pq.read_table(pq_out)
    assert table.num_rows == 30 and table.column("index").to_pylist() == list(range(30))
    a, b = read_frame(csv_out), read_frame(pq_out)
    assert list(a.columns) == list(b.columns)
    assert a.to_dict("list") == b.to_dict("list")


def test_the_sink_streams_in_index_order_and_keeps_nothing(tmp_path: Path) -> None:
    job = Job("dragon-stripes", 4, tuple(parse_bots("random", 4)), n=40, seed=3)
    out = tmp_path / "r.csv"
    f = ResultsFile(out, job)
    result = run(job, workers=2, sink=f.add, keep=False)
    f.close()
    assert result.outcomes == [] and result.played == 40
    assert [int(r[0]) for r in rows_of(out)[1:]] == list(range(40))


@pytest.mark.parametrize(
    ("game", "expect"),
    [
        ("space-dragons", ["len_rounds", "dragons_0", "played_0", "drafted_3", "score_mood_0"]),
        ("space-race", ["len_rounds", "fuel_picks_0", "crystals_2", "score_crew_1"]),
        ("dragon-stripes", ["len_turns", "takeovers_0", "woke_3", "score_banked_pots_0"]),
        ("dragon-race", ["len_turns", "halts_0", "steals_1", "score_spot_reached_2"]),
    ],
)
def test_rich_per_game_data(game: str, expect: list[str]) -> None:
    job = Job(game, 4, tuple(parse_bots("random", 4)), n=3, seed=2)
    (o, *_) = run(job).outcomes
    d = o.data
    assert set(expect) <= set(d)
    for s in range(4):
        assert d[f"position_{s}"] == (-1 if d["start_seat"] < 0 else (s - d["start_seat"]) % 4)
        assert {f"snap25_{s}", f"snap50_{s}", f"snap75_{s}", f"snap90_{s}"} <= set(d)
        breakdown = sum(v for k, v in d.items() if k.startswith("score_") and k.endswith(f"_{s}"))
        assert breakdown == o.points[s]
    assert d["lead_changes"] >= 0 and d["leader75"] in (-1, 0, 1, 2, 3)
    assert d["leader90"] in (-1, 0, 1, 2, 3)
    if game == "space-dragons":
        assert d["len_rounds"] == 7 and len(d["drafted_0"].split()) == 9
        assert sum(d[f"dragons_{s}"] for s in range(4)) == 7
    if game == "space-race":
        assert d["start_seat"] == -1 and d["len_rounds"] == 3


def test_a_resumed_run_counts_its_speed_over_the_games_it_played(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    base = ["simulate", "dragon-stripes", "--bots", "random", "-n", "200", "--out", str(out)]
    assert runner.invoke(app, [*base, "-q"]).exit_code == 0
    whole = out.read_bytes()
    kept = rows_of(out)[: 1 + 150]  # the header and the first 150 games, as after a crash
    with out.open("w", newline="") as f:
        csv.writer(f).writerows(kept)
    resumed = runner.invoke(app, [*base, "--resume", "--json"])
    assert resumed.exit_code == 0, resumed.output
    d = json.loads(resumed.stdout)
    assert d["games"] == 200 and d["played"] == 50
    assert d["games_per_s"] == pytest.approx(50 / d["seconds"])
    assert out.read_bytes() == whole
    with out.open("w", newline="") as f:
        csv.writer(f).writerows(kept)
    shown = runner.invoke(app, [*base, "--resume", "-q"], terminal_width=200)
    assert "(50 games played by this run)" in shown.output


def test_no_features_writes_the_basic_columns_and_says_so(tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    args = ["simulate", "space-dragons", "--bots", "heuristic", "-n", "20", "--out", str(out)]
    result = runner.invoke(app, [*args, "--no-features", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["positions"] == []  # no start player without the data
    frame = read_frame(out)
    assert list(frame.columns) == [
        "index", "seed", "game", "options", "players", "length", "reason",
        *(f"{c}_{s}" for s in range(4) for c in ("bot", "points", "rank", "win")),
    ]  # fmt: skip
    assert read_metadata(out)["features"] is False
    # the same games as with the data: the basic columns agree
    full = tmp_path / "full.parquet"
    assert runner.invoke(app, ["simulate", *args[1:-1], str(full), "-q"]).exit_code == 0
    assert read_metadata(full)["features"] is True
    rich = read_frame(full)
    assert "start_seat" in rich.columns and "dragons_0" in rich.columns
    assert rich[list(frame.columns)].to_dict("list") == frame.to_dict("list")
    # a run with the data does not resume one without it
    part = tmp_path / "p.csv"
    short = ["simulate", "space-dragons", "--bots", "heuristic", "-n", "4", "--out", str(part)]
    assert runner.invoke(app, [*short, "--no-features", "-q"]).exit_code == 0
    refused = runner.invoke(app, [*short, "--resume", "-q"])
    assert refused.exit_code != 0
    assert "features: False there, True now" in " ".join(refused.output.replace("│", " ").split())
    report = runner.invoke(app, ["report", str(out), "-o", str(tmp_path / "r.html")])
    assert report.exit_code == 0, report.output
    page = (tmp_path / "r.html").read_text()
    assert "without the per-game data" in page and "no (--no-features)" in page
    tour = runner.invoke(
        app, ["tournament", "dragon-stripes", "-n", "8", "--no-features", "--json"]
    )
    assert tour.exit_code == 0, tour.output
    cmp = runner.invoke(
        app, ["compare", "space-dragons", "-n", "10", "-B", "crime=b", "--no-features", "--json"]
    )
    assert cmp.exit_code == 0, cmp.output


@pytest.mark.parametrize("total", range(0, 202))
def test_every_snapshot_is_taken_however_short_the_game(total: int) -> None:
    wanted = snapshot_moves(total)
    assert sorted(p for ps in wanted.values() for p in ps) == sorted(SNAPSHOTS)
    assert all(0 <= move <= total for move in wanted)


def test_a_three_decision_game_has_every_snapshot_column() -> None:
    # game 62630 of this run ends after 3 decisions: 50% and 75% both fall after the second,
    # and the run once stopped there with "other columns than the results file"
    job = Job("dragon-stripes", 4, tuple(parse_bots("heuristic", 4)), n=62631, seed=1)
    (o,) = run(job, skip=range(62630)).outcomes
    assert o.index == 62630 and o.length == 3
    for p in SNAPSHOTS:
        assert {f"snap{p}_{s}" for s in range(4)} | {f"leader{p}"} <= set(o.data)
