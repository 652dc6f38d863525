"""scripts/load.py against a local server: it plays at a set pace from several loopback
addresses, reads every process's readiness, checks every acknowledged action against the
store, and stops by itself even when the process it loads dies under it."""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
LOAD = ROOT / "scripts" / "load.py"

pytestmark = [pytest.mark.slow]


def _load_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dragonlair_load_tool", LOAD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(*args: str, timeout: float) -> tuple[int, dict[str, Any]]:
    out = subprocess.run(
        [sys.executable, str(LOAD), "--json", *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )
    assert out.stdout, out.stderr
    return out.returncode, json.loads(out.stdout)


@pytest.mark.timeout(120)
def test_plays_at_pace_from_many_addresses_and_checks_the_store() -> None:
    rc, report = _run(
        "--tables", "6", "--think", "0.3", "--warmup", "1", "--duration", "4",
        "--addresses", "3", timeout=100,
    )  # fmt: skip
    assert rc == 0, report
    assert report["source_addresses"] == 3
    # six tables acting every 0.3 s on average for 4 s: tens of actions, not thousands
    assert 10 <= report["actions"] <= 6 * 4 / 0.3 * 2.5
    check = report["store_check"]
    assert check["acknowledged"] > report["actions"] * 0.5
    assert check["found"] == check["acknowledged"]
    assert check["missing"] == 0
    [(_url, seen)] = report["readiness"].items()
    assert seen["ready"] >= 2 and seen["unreachable"] == seen["not_ready"] == 0
    assert report["latency_ms"]["p99"] >= report["latency_ms"]["p50"] > 0
    assert report["load_average"]["mean_1min"] is not None


def _wait_for_actions(url: str, tool: subprocess.Popen[str], count: int) -> None:
    """Until the server has applied ``count`` actions (its /status), for 60 s at most."""
    end = time.monotonic() + 60
    while True:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/status", timeout=5).json()["actions"] >= count:
                return
        assert tool.poll() is None, "the load tool stopped before playing"
        assert time.monotonic() < end, f"the server did not apply {count} actions in 60 s"
        time.sleep(0.1)


@pytest.mark.timeout(150)
def test_stops_by_itself_when_the_process_dies_and_nothing_acknowledged_is_lost(
    tmp_path: Path,
) -> None:
    load = _load_module()
    db = f"sqlite:///{tmp_path}/load.sqlite3"
    server, url = load.start_server(argparse.Namespace(db=db, sqlite_sync="FULL"))
    try:
        tool = subprocess.Popen(
            [
                sys.executable, str(LOAD), "--json", "--url", url, "--db", db,
                "--tables", "4", "--think", "0.2", "--warmup", "0", "--duration", "15",
                "--grace", "5", "--health-every", "0.5", "--addresses", "2",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )  # fmt: skip
        # once the tool is playing (its start takes seconds on a loaded machine: killed at a
        # set time, the server was sometimes gone before the tool had looked at it)
        _wait_for_actions(url, tool, 5)
        server.kill()  # kill -9: the connections drop, nothing answers any more
        server.wait(10)
        started = time.monotonic()
        stdout, stderr = tool.communicate(timeout=60)
        # the rest of the run, the grace period and the store check; never a hang
        assert time.monotonic() - started < 40
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
    assert tool.returncode == 0, stderr
    report = json.loads(stdout)
    [(_url, seen)] = report["readiness"].items()
    assert seen["ready"] >= 1 and seen["unreachable"] >= 1, report
    assert report["reconnects"] > 0  # the seats tried to come back, as the browser does
    check = report["store_check"]
    assert check["acknowledged"] > 0
    assert check["found"] == check["acknowledged"] and check["missing"] == 0


def test_the_store_check_finds_actions_in_order_and_reports_the_missing(tmp_path: Path) -> None:
    from sqlalchemy import create_engine

    from dragonlair.web.store import actions_t, metadata

    load = _load_module()
    db = f"sqlite:///{tmp_path}/check.sqlite3"
    engine = create_engine(db)
    metadata.create_all(engine)
    rows = [(0, 0, "bid 1"), (1, 1, "bid 3"), (2, 1, "allow"), (3, 0, "allow")]
    with engine.begin() as conn:
        conn.execute(
            actions_t.insert(),
            [{"table_id": "t1", "move": m, "seat": s, "action": a, "at": 0.0} for m, s, a in rows],
        )
    engine.dispose()
    acked = [
        ("t1", 0, 0, "bid 1"),  # where it was sent
        ("t1", 1, 1, "bid 2"),  # another action is stored there: missing
        ("t1", 2, 0, "allow"),  # held in a window, stored after seat 1's pass: later
        ("t1", 1, 0, "bid 1"),  # only at move 0, before the last one found: missing
        ("t2", 0, 0, "pass"),  # a table with nothing stored: missing
    ]
    check = load.check_store(db, acked)
    assert check["acknowledged"] == 5
    assert check["found"] == 2 and check["later"] == 1
    assert check["missing"] == 3
    assert ["t1", 1, 1, "bid 2"] in check["examples"]
    assert ["t1", 1, 0, "bid 1"] in check["examples"]


def test_the_bots_reply_is_timed_from_the_moment_the_persons_decision_is_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Not from the person's message: a pass sent into an offer is played at the window's
    end, and the draw that opens the person's own turn is given for them after a delay;
    neither is the bots' time. The states are those a practice table sends seat 0."""
    load = _load_module()
    clock = [0.0]
    monkeypatch.setattr(load.time, "perf_counter", lambda: clock[0])
    args = argparse.Namespace(ramp=0.0, tables=1)
    stats = load.Stats()
    stats.measuring = True
    player = load.PracticePlayer(args, None, stats, 0, float("inf"), None)

    def state(at: float, move: int, phase: str, to_act: list[int], ref: int | None = None) -> None:
        clock[0] = at
        player.on_state(
            {
                "type": "state", "seat": 0, "move": move, "status": "playing", "ref": ref,
                "view": {"phase": phase, "to_act": to_act},
                "legal": ["decline"] if 0 in to_act else [],
            }
        )  # fmt: skip

    # a bot held: the person is asked in the offer, sends "decline" at 0.2 s (ref 1), which
    # is played at the window's end, 1.6 s; the next bot draws 30 ms later
    player.pending_ref = 1
    state(0.0, 10, "offer", [0])
    state(1.6, 11, "draw", [1], ref=1)
    state(1.63, 12, "draw", [1])
    # the person took a knight (ref 2); the danger they drew ended the turn, and the next
    # turn is theirs: its opening draw is given for them 0.9 s later, then a bot's in 20 ms
    player.pending_ref = 2
    state(5.0, 20, "draw", [0], ref=2)
    state(6.0, 21, "draw", [0])
    state(6.9, 22, "draw", [1])
    state(6.92, 23, "draw", [1])
    state(8.0, 24, "draw", [0])  # asked again
    replies = sorted(round(w, 3) for _, w in stats.bot_replies)
    assert replies == [0.02, 0.03], stats.bot_replies
    assert [p for p, _ in stats.bot_replies] == ["draw", "draw"]
    assert round(stats.turn_backs[-1][1], 3) == 1.1


@pytest.fixture(scope="module")
def practice_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, int]]:
    """One server for the practice tests (its start is most of their time on a busy
    machine): its URL, its database and its process id. Decisions at tables with undo are
    held for half a second."""
    load = _load_module()
    db = f"sqlite:///{tmp_path_factory.mktemp('practice')}/load.sqlite3"
    ns = argparse.Namespace(db=db, sqlite_sync="NORMAL", server_arg=["--confirm=0.5"])
    server, url = load.start_server(ns)
    try:
        yield url, db, server.pid
    finally:
        server.terminate()
        server.wait(30)


def _practice(server: tuple[str, str, int], *args: str) -> tuple[int, dict[str, Any]]:
    url, db, pid = server
    return _run(
        "--url", url, "--db", db, "--server-pid", str(pid), "--warmup", "1", *args,
        timeout=300,
    )  # fmt: skip


@pytest.mark.timeout(600)
def test_practice_tables_time_the_bots_reply_and_count_their_cpu(
    practice_server: tuple[str, str, int],
) -> None:
    rc, report = _practice(
        practice_server, "--practice", "3", "--think", "0.2", "--duration", "8",
        "--addresses", "2",
    )  # fmt: skip
    assert rc == 0, report
    assert report["game"] == "dragon-stripes" and report["tables"] == 3
    practice = report["practice"]
    assert practice["bot_level"] == "heuristic" and not practice["lobby_defaults"]
    replies = practice["bot_reply_ms"]
    # the person hands the turn to three bots every few moves: replies were timed, by phase
    assert replies["all"]["count"] >= 1, practice
    phases = [f["count"] for phase, f in replies.items() if phase != "all"]
    assert sum(phases) == replies["all"]["count"]
    assert 0 < replies["all"]["p50"] <= replies["all"]["p99"] <= replies["all"]["max"]
    assert practice["turn_back_ms"]["all"]["count"] >= 1
    # and the server's side of those replies, from its /metrics at the window's edges
    times = report["server_times_ms"]
    assert times["bot_wait"]["count"] >= 1 and times["bot_think"]["count"] >= 1, times
    assert times["action"]["count"] >= report["actions"]
    think = times["bot_think"]
    assert 0 < think["p50_at_most"] <= think["p95_at_most"] <= think["p99_at_most"]
    # the server applied the bots' moves too: more actions than the people's
    assert report["served_actions"] > report["actions"]
    assert set(report["cpu_seconds"]) == {"server", "bot workers"}
    # the bots think in worker processes, whose CPU is counted apart (a few heuristic
    # decisions may round to 0.0 s: the clock's tick is 10 ms)
    assert report["cpu_seconds"]["bot workers"] >= 0
    assert report["server_cpu_ms_per_served_action"] > 0
    check = report["store_check"]
    assert check["acknowledged"] > 0 and check["missing"] == 0


@pytest.mark.timeout(600)
def test_practice_tables_with_the_lobby_defaults_hold_each_decision_for_its_window(
    practice_server: tuple[str, str, int],
) -> None:
    rc, report = _practice(
        practice_server, "--practice", "3", "--lobby-defaults", "--think", "0.2",
        "--duration", "7", "--addresses", "0",
    )  # fmt: skip
    assert rc == 0, report
    assert report["practice"]["lobby_defaults"]
    assert report["practice"]["bot_reply_ms"]["all"]["count"] >= 1, report["practice"]
    # a held decision counts once the committed game shows it, and is found in the store
    check = report["store_check"]
    assert check["acknowledged"] > 0 and check["missing"] == 0


def test_practice_options_are_checked() -> None:
    for bad in (["--practice", "-1"], ["--lobby-defaults"], ["--practice", "2", "--players", "1"]):
        out = subprocess.run(
            [sys.executable, str(LOAD), *bad], check=False, capture_output=True, text=True,
            timeout=60, cwd=ROOT,
        )  # fmt: skip
        assert out.returncode == 2 and "error:" in out.stderr, (bad, out.stderr)
