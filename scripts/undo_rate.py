#!/usr/bin/env python3
"""How often undo is available at a person's decisions in whole games against bots (a
measurement, not a test).

Starts ``dragonlair serve`` on a loopback port, and for each game creates a practice table
(seat 1 a person, the others heuristic bots; undo on, so every decision of the person is
held for its confirmation window; with ``--confirm-turn`` a table that confirms at the
end of a turn, so the decisions stay held until the person confirms them). At every
decision the person is asked, it plays a seeded random legal action, asks to take it back
at once and checks that the game is back where it was, then plays it again and confirms
it (at the end of its turn with ``--confirm-turn``: when its own game asks it nothing
more). Prints, per game and in all, the decisions tried and the undos that worked, as one
JSON line.

    .venv/bin/python scripts/undo_rate.py
    .venv/bin/python scripts/undo_rate.py --confirm-turn
    .venv/bin/python scripts/undo_rate.py --games 2 --seed 7
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx
from websockets.asyncio.client import connect

GAMES = {"dragon-race": 3, "dragon-stripes": 3, "space-dragons": 3, "space-race": 3}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(db: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    cmd = [sys.executable, "-m", "dragonlair", "serve", "--port", str(port), "--db", db]
    cmd += ["--log-level", "warning", "--away", "0", "--deadline", "600"]
    cmd += ["--http-rate", "100000/minute", "--ws-rate", "1000/second"]
    proc = subprocess.Popen(cmd)
    url = f"http://127.0.0.1:{port}"
    end = time.monotonic() + 60
    while time.monotonic() < end:
        try:
            if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start")


async def play(url: str, game: str, players: int, seed: int, turn: bool = False) -> tuple[int, int]:
    """One whole game: (decisions tried, undos that worked); ``turn``: the table confirms
    at the end of a turn."""
    seats: list[dict[str, Any]] = [{"type": "bot", "level": "heuristic"}] * players
    seats[1] = {"type": "human", "name": "Me"}
    r = httpx.post(
        f"{url}/api/tables",
        json={"game": game, "players": players, "seats": seats, "seed": seed}
        | ({"confirm_turn": True} if turn else {}),
        timeout=60,
    )
    r.raise_for_status()
    created = r.json()
    tid = created["table"]["id"]
    token = created["seats"][0]["token"]
    rng = random.Random(seed)
    tried = worked = 0
    ws_url = url.replace("http", "ws") + f"/ws/tables/{tid}"
    async with connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "since": 0}))
        latest: dict[str, Any] = {}

        async def until(pred: Any) -> dict[str, Any]:
            nonlocal latest
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 120))
                if m["type"] == "state":
                    latest = m
                if pred(m):
                    return m

        await until(lambda m: m["type"] == "state")
        while latest["status"] == "playing":
            if turn and "held" in latest and not latest["legal"]:
                # the end of the turn in its own game (or a draw it must confirm to see)
                await ws.send(json.dumps({"type": "confirm", "move": latest["move"]}))
                await until(lambda m: m["type"] == "state" and "held" not in m)
                continue
            if not latest["legal"] or ("held" in latest and not turn):
                await until(lambda m: m["type"] == "state")
                continue
            move, view = latest["move"], latest["view"]
            holding = latest.get("held", {}).get("decisions", 0)  # earlier ones of the turn
            legal = sorted(latest["legal"])
            action = rng.choice(legal)
            await ws.send(json.dumps({"type": "act", "move": move, "action": action, "ref": 1}))
            held = await until(lambda m: m.get("ref") == 1 or m["type"] == "error")
            if held["type"] == "error" and held["code"] == "stale_move":
                continue  # the game had moved on since the state acted on: not a decision
            tried += 1
            if held["type"] == "state" and "held" in held:
                await ws.send(json.dumps({"type": "undo", "move": held["move"]}))
                back = await until(lambda m: m.get("ref") == "undo" or m["type"] == "error")
                # back where it was: asked the same again (in a sealed choice the others'
                # secret picks may have moved the game on meanwhile)
                if (
                    back["type"] == "state"
                    and back.get("held", {}).get("decisions", 0) == holding
                    and sorted(back["legal"]) == legal
                    and (back["move"] != move or back["view"] == view)
                ):
                    worked += 1
                    await ws.send(
                        json.dumps(
                            {"type": "act", "move": back["move"], "action": action, "ref": 2}
                        )
                    )
                    held = await until(lambda m: m.get("ref") == 2 or m["type"] == "error")
            if held["type"] == "state" and "held" in held and not turn:
                await ws.send(json.dumps({"type": "confirm", "move": held["move"]}))
                await until(lambda m: m["type"] == "state" and "held" not in m)
    return tried, worked


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1, help="whole games per game (default 1)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--confirm-turn",
        action="store_true",
        help="tables that confirm at the end of a turn (default: a confirmation window)",
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        proc, url = start(f"sqlite:///{d}/undo.sqlite3")
        try:
            out: dict[str, Any] = {}
            total = [0, 0]
            for game, players in GAMES.items():
                t = w = 0
                for i in range(args.games):
                    a, b = asyncio.run(play(url, game, players, args.seed + i, args.confirm_turn))
                    t, w = t + a, w + b
                out[game] = {"decisions": t, "undo_worked": w}
                total = [total[0] + t, total[1] + w]
            out["all"] = {"decisions": total[0], "undo_worked": total[1]}
            print(json.dumps(out))
        finally:
            proc.terminate()
            proc.wait(30)


if __name__ == "__main__":
    main()
