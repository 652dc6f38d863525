#!/usr/bin/env python3
"""How long a hint takes, and what it can tell apart, on every shipped puzzle (a
measurement, not a test).

Works out the server's hint (``dragonlair.web.bots.hint``: the advice of
``dragonlair.bots.advice`` with the server's default time and playout limits) for the
asked seat of each puzzle, in this process, and prints one Markdown row per puzzle: the
wall time, the rounds played, each choice's playouts and its win chance as shown (``≈``:
about as good as the best), and which sentence the hint gives.

With ``--server`` it measures what a player waits instead: it starts ``dragonlair serve``
on a loopback port (its default process pool of bots), opens a table from each puzzle
(the puzzle's seat a person's, the others heuristic bots), asks for a hint over the
table's WebSocket and times it from the request sent to the answer received. The first
hint of a fresh pool waits for its workers to import the analysis: one hint is asked at a
throwaway table first, so the figures are a warm server's; before them, a fresh server's
first hint asked at once and after 20 s at the table.

    .venv/bin/python scripts/hint_time.py
    .venv/bin/python scripts/hint_time.py --seconds 1.0 --seed 7
    .venv/bin/python scripts/hint_time.py --server
    .venv/bin/python scripts/hint_time.py --first 3

``--first N`` measures only a fresh server's first hint, N times: each time a new
``dragonlair serve``, the seconds from its start to its health check answering, and from
the first hint asked at a new table (at once) to its answer.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx
from websockets.asyncio.client import connect

from dragonlair.core.puzzles import Puzzle, puzzles
from dragonlair.web.bots import HintJob, hint, warm_hints
from dragonlair.web.config import ServerConfig


def main() -> None:
    config = ServerConfig()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=config.hint_seconds)
    parser.add_argument("--max-playouts", type=int, default=config.hint_max_playouts)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--server", action="store_true", help="time hints through a server")
    parser.add_argument(
        "--first", type=int, default=0, help="time only a fresh server's first hint, N times"
    )
    args = parser.parse_args()
    if args.first:
        first_hints(args.first)
        return
    if args.server:
        served()
        return
    warm_hints()
    print("| puzzle | wall time (s) | rounds | choices: shown win chance (playouts) | why |")
    print("|---|---:|---:|---|---|")
    worst = 0.0
    for p in puzzles():
        state = p.state(seed=args.seed)
        seat = p.seat if p.seat is not None else state.to_act[0]
        job = HintJob(
            game=p.game,
            players=state.game.players,
            options_json=json.dumps(dict(state.game.options), sort_keys=True),
            view=state.view(seat),
            legal=tuple(str(a) for a in state.legal_actions(seat)),
            seed=args.seed,
            budget=args.seconds,
            max_playouts=args.max_playouts,
        )
        start = time.perf_counter()
        body = hint(job)
        took = time.perf_counter() - start
        worst = max(worst, took)
        choices = ", ".join(
            f"{'≈ ' if c['close'] and c['action'] != body['pick'] else ''}{c['action']} "
            f"{c['shown']['value']}% ({c['playouts']})"
            for c in body["choices"]
        )
        print(f"| {p.name} | {took:.2f} | {body['rounds']} | {choices} | {body['why']['kind']} |")
    print(f"\nslowest: {worst:.2f} s")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def hint_at_table(url: str, p: Puzzle, read: float = 0.0) -> tuple[float, dict[str, Any]]:
    """A table from puzzle ``p``: the seconds from asking its hint, ``read`` seconds after
    the table was opened, to the answer (asked again at the move the game is at if the
    others' simultaneous picks moved it on meanwhile)."""
    players = int(p.doc.get("players", 0))
    seats: list[dict[str, Any]] = [{"type": "bot", "level": "heuristic"}] * players
    seats[p.seat or 0] = {"type": "human", "name": "Me"}
    body = {"game": p.game, "puzzle": p.name, "seats": seats}
    r = httpx.post(f"{url}/api/tables", json=body, timeout=60)
    r.raise_for_status()
    created = r.json()
    ws_url = url.replace("http", "ws") + f"/ws/tables/{created['table']['id']}"
    async with connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": created["seats"][0]["token"]}))
        latest: dict[str, Any] = {}
        while not latest.get("legal"):
            m = json.loads(await asyncio.wait_for(ws.recv(), 60))
            latest = m if m["type"] == "state" else latest
        await asyncio.sleep(read)
        for _ in range(5):
            start = time.perf_counter()
            await ws.send(json.dumps({"type": "hint", "move": latest["move"]}))
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 60))
                latest = m if m["type"] == "state" else latest
                if m["type"] in ("hint", "error"):
                    break
            if m.get("code") != "stale_move":
                break
        return time.perf_counter() - start, m


def start_server(d: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "dragonlair", "serve", "--port", str(port)]
    cmd += ["--db", f"sqlite:///{d}/hints.sqlite3", "--log-level", "warning"]
    cmd += ["--http-rate", "100000/minute"]
    proc = subprocess.Popen(cmd)
    end = time.monotonic() + 180  # a loaded machine
    while True:
        try:
            if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        if time.monotonic() > end:
            proc.kill()
            raise SystemExit("the server did not start")
        time.sleep(0.2)


def first_hints(times: int) -> None:
    """A fresh server's start and first hint, ``times`` times."""
    found = puzzles()
    for _ in range(times):
        with tempfile.TemporaryDirectory() as d:
            began = time.perf_counter()
            proc, url = start_server(d)
            started = time.perf_counter() - began
            try:
                took, m = asyncio.run(hint_at_table(url, found[0]))
                answer = m.get("code") if m["type"] == "error" else f"{m['rounds']} rounds"
                print(
                    f"started in {started:.2f} s; first hint asked at once: {took:.2f} s "
                    f"({answer})",
                    flush=True,
                )
            finally:
                proc.terminate()
                proc.wait(15)


def served() -> None:
    found = puzzles()
    # a fresh server's first hint, asked at once and after 20 s of looking at the table
    # (a table with hints gets the pool ready for them when its person arrives)
    for read in (0.0, 20.0):
        with tempfile.TemporaryDirectory() as d:
            proc, url = start_server(d)
            try:
                took, _ = asyncio.run(hint_at_table(url, found[0], read))
                print(f"a fresh server's first hint, asked {read:g} s after arriving: {took:.2f} s")
            finally:
                proc.terminate()
                proc.wait(15)
    with tempfile.TemporaryDirectory() as d:
        proc, url = start_server(d)
        try:
            asyncio.run(hint_at_table(url, found[0]))  # the pool's workers ready
            print("\n| puzzle | request to answer (s) | rounds | pick |")
            print("|---|---:|---:|---|")
            worst = 0.0
            for p in found:
                took, m = asyncio.run(hint_at_table(url, p))
                worst = max(worst, took)
                if m["type"] == "error":
                    print(f"| {p.name} | {took:.2f} | refused: {m['code']} | |")
                else:
                    print(f"| {p.name} | {took:.2f} | {m['rounds']} | {m['pick']} |")
            print(f"\nslowest: {worst:.2f} s")
        finally:
            proc.terminate()
            proc.wait(15)


if __name__ == "__main__":
    main()
