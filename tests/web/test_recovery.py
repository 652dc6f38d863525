"""Recovery: a real server in a subprocess is killed with SIGKILL in the middle of a game,
restarted on the same storage, and the game finishes exactly as the same seeded game
played without the crash. Its logs never contain a token."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.serverkit import SeatClient, create_table, drive, free_port, open_all

# End to end: a server process killed and started again.
pytestmark = pytest.mark.slow

LAUNCHER = Path(__file__).parent / "serve_example.py"


class ServerProcess:
    def __init__(self, db: str, port: int, log: Path) -> None:
        self.log = log.open("ab")
        limits = ["--http-rate", "100000/minute", "--ws-rate", "1000/second", "--away", "3600"]
        self.proc = subprocess.Popen(
            [sys.executable, str(LAUNCHER), "serve", "--port", str(port), "--db", db, *limits],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.http = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}"
        end = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{self.http}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > end:
                raise RuntimeError(f"the server did not start; see {log}")
            time.sleep(0.05)

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        self.log.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


SEATS = [
    {"type": "human", "name": "A"},
    {"type": "human", "name": "B"},
    {"type": "bot", "level": "random"},
    {"type": "human", "name": "C"},
]


def play(
    server: ServerProcess, created: dict[str, Any], rng: random.Random, stop: int | None
) -> dict[str, Any]:
    async def main() -> dict[str, Any]:
        clients = await open_all(server.ws, created)
        last = await drive(clients, rng, stop_after=stop)
        for c in clients.values():
            await c.close()
        return last

    return asyncio.run(main())


def test_kill_9_and_resume(db_url: str, tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    port = free_port()
    server = ServerProcess(db_url, port, log)
    try:
        crashed = create_table(server.http, seats=SEATS, seed=77, deadline=600)
        reference = create_table(server.http, seats=SEATS, seed=77, deadline=600)
        tid = crashed["table"]["id"]
        rng = random.Random(5)
        before = play(server, crashed, rng, stop=15)
        assert before["move"] >= 15 and before["status"] == "playing"
        server.kill()
        server = ServerProcess(db_url, port, log)
        info = httpx.get(f"{server.http}/api/tables/{tid}").json()
        assert info["status"] == "playing" and info["move"] >= before["move"]

        async def reconnect() -> dict[str, Any]:
            c = await SeatClient.open(server.ws, tid, crashed["seats"][0]["token"], 0)
            first = c.latest
            await c.close()
            return first

        again = asyncio.run(reconnect())
        assert again["move"] >= before["move"] and again["view"]["seat"] == 0
        after = play(server, crashed, rng, stop=None)
        assert after["status"] == "over"
        play(server, reference, random.Random(5), stop=None)
        a = httpx.get(f"{server.http}/api/tables/{tid}/record").json()
        b = httpx.get(f"{server.http}/api/tables/{reference['table']['id']}/record").json()
        assert a["actions"] == b["actions"] and a["seed"] == b["seed"] == 77
        ra = httpx.get(f"{server.http}/api/tables/{tid}").json()["result"]
        rb = httpx.get(f"{server.http}/api/tables/{reference['table']['id']}").json()["result"]
        assert ra == rb and ra is not None
    finally:
        server.stop()
    text = log.read_text(errors="replace")
    assert "WebSocket" in text  # the log did record the connections
    for c in (crashed, reference):
        for p in c["seats"]:
            assert p["token"] not in text
        assert c["watch"]["token"] not in text
