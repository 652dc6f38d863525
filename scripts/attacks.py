"""The red team's attacks on the hosted layout, run again: PostgreSQL, three server
processes (``--shard K/3``) and nginx configured with the files in ``deploy/nginx/``, on
loopback (``tests/web/clusterkit.py``), at the server's default limits. Each attack
prints what it got, in numbers, and the run exits 1 if any attack succeeded.

    .venv/bin/python scripts/attacks.py                  # every attack (a few minutes)
    .venv/bin/python scripts/attacks.py --only health,origin
    .venv/bin/python scripts/attacks.py --url http://127.0.0.1:8080   # a running proxy

The attacks (docs/server.md, *Security*, has the table of what each gets now):

- ``spam``: waiting tables created as fast as nginx passes them, from one address at the
  default rate limit, and from 60 addresses at once (as with the rate limit raised):
  no address gets more than its cap, and PostgreSQL holds no lock for them (new
  connections still open);
- ``split``: the database sessions of the process owning the most tables in play cut
  (``pg_terminate_backend``) while it stays alive, then the process stopped (SIGSTOP)
  past its lease and resumed: every table serves again within seconds and plays to
  its end, nothing acknowledged lost, nothing stored that was not sent;
- ``stacked``: a table of people dealt from a position the creator knows (titled "New
  game"), and one from a chosen seed, handed to a friend: the friend is told, before
  joining, in the game and at the end;
- ``health``: ``/api/health`` scraped through nginx: no table id in it (an unlisted
  table's included), and the operator's pages refused;
- ``hints``: hints asked as fast as allowed at 5 tables while another table's bot plays:
  the bot's time per move;
- ``sockets``: idle WebSockets from 40 addresses (127.0.0.x) held open as spectators,
  then lobby requests and a new player from another address;
- ``undo``: undo requests flooded at practice tables against another table's time per
  action, and a player asking to take back the other player's decision;
- ``small``: deeply nested TOML in a position, the rematch of a position table near the
  size limit, an old seat link after a rematch, a foreign Origin on a WebSocket,
  ``/docs``, and no traceback in the processes' logs for any of it.

Only loopback addresses; every process it starts it stops.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import signal
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.protocol import State

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.serverkit import SeatClient  # noqa: E402

import dragonlair  # noqa: E402
from dragonlair.core.position import to_toml  # noqa: E402

PEOPLE = {"game": "pebble-auction", "players": 2, "seats": [{"type": "human"}] * 2}
WAITING = {"game": "pebble-auction", "players": 2}
CAP = 20  # the server's default --max-waiting-per-address
# idle sockets: more than the three processes' places for WebSockets (750 each)
ADDRESSES = 40


class Target:
    """Where the attacks go: the proxy's URL, and (when this script started the layout)
    the cluster and its database."""

    def __init__(self, url: str, cluster: Any = None, db: str | None = None) -> None:
        self.url = url.rstrip("/")
        self.ws = "ws" + self.url[4:]
        self.cluster = cluster
        self.db = db

    def client(self, address: str = "127.0.0.1") -> httpx.Client:
        """An HTTP client whose connections come from ``address`` (a loopback address:
        nginx passes it on as the client's)."""
        return httpx.Client(
            base_url=self.url,
            transport=httpx.HTTPTransport(local_address=address),
            timeout=30,
        )


class Result:
    def __init__(self, name: str) -> None:
        self.name = name
        self.lines: list[str] = []
        self.broken: list[str] = []

    def got(self, text: str) -> None:
        self.lines.append(text)
        print(f"  {self.name}: {text}", flush=True)

    def check(self, ok: bool, what: str) -> None:
        """``what`` held (the attack failed there), or it is a hole."""
        if not ok:
            self.broken.append(what)
            print(f"  {self.name}: BROKEN: {what}", flush=True)


def addr(n: int) -> str:
    return f"127.0.0.{n}"


# ---------------------------------------------------------------------- spam


def attack_spam(t: Target, r: Result) -> None:
    codes: dict[str, int] = {}
    with t.client(addr(21)) as c:
        for _ in range(150):
            got = c.post("/api/tables", json=WAITING)
            code = "201" if got.status_code == 201 else got.json()["error"]["code"]
            codes[code] = codes.get(code, 0) + 1
    r.got(f"one address, 150 creations at the default rate: {dict(sorted(codes.items()))}")
    r.check(codes.get("201", 0) <= CAP, f"one address stored at most {CAP} waiting tables")

    # 60 addresses at once (what raising the rate limit gives one attacker, and more)
    def spam(n: int) -> int:
        made = 0
        with t.client(addr(100 + n)) as c:
            for _ in range(CAP + 10):
                got = c.post("/api/tables", json=WAITING)
                made += got.status_code == 201
        return made

    start = time.monotonic()
    with ThreadPoolExecutor(12) as pool:
        made = list(pool.map(spam, range(60)))
    took = time.monotonic() - start
    r.got(
        f"60 addresses x {CAP + 10} creations in {took:.0f} s: {sum(made)} stored, "
        f"the most from one address {max(made)}"
    )
    r.check(max(made) <= CAP, f"no address of 60 stored more than {CAP}")
    if t.db is not None:
        import psycopg

        with psycopg.connect(t.db.split("?")[0], connect_timeout=10) as conn:
            locks = conn.execute(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
            ).fetchone()
        held = int(locks[0]) if locks else -1
        r.got(f"advisory locks held in PostgreSQL afterwards: {held}; a new connection opened")
        r.check(held == 0, "waiting tables hold no lock")
    with t.client(addr(22)) as c:
        listing = c.get("/api/tables", params={"status": "waiting", "limit": 1})
        fresh = c.post("/api/tables", json=PEOPLE)
    r.got(
        f"afterwards: listing {listing.status_code} "
        f"({listing.headers.get('X-Total-Count')} waiting), a new table {fresh.status_code}"
    )
    r.check(listing.status_code == 200 and fresh.status_code == 201, "the lobby still serves")


# ---------------------------------------------------------------------- split brain


class Sent(dict[int, tuple[int, str]]):
    """A player's actions by move, keeping every one sent at a move: an action stored
    whose answer never came (its process stopped) is sent again at the same move, and
    either may be the one stored."""

    def __init__(self) -> None:
        super().__init__()
        self.every: dict[int, set[tuple[int, str]]] = {}

    def __setitem__(self, move: int, action: tuple[int, str]) -> None:
        self.every.setdefault(move, set()).add(action)
        super().__setitem__(move, action)


def _pg_backends(t: Target, pid: int) -> list[int]:
    """The PostgreSQL backends (their pids) of the server process ``pid``'s connections."""
    import psutil
    import psycopg

    assert t.db is not None
    port = int(t.db.split("@", 1)[1].split(":")[1].split("/")[0])
    mine = {
        c.laddr.port
        for c in psutil.Process(pid).net_connections(kind="tcp")
        if c.raddr and c.raddr.port == port
    }
    with psycopg.connect(t.db.split("?")[0], connect_timeout=10) as conn:
        rows = conn.execute(
            "SELECT pid, client_port FROM pg_stat_activity WHERE client_port IS NOT NULL"
        ).fetchall()
    return [p for p, cp in rows if cp in mine]


def _cut(t: Target, backends: list[int]) -> int:
    import psycopg

    assert t.db is not None
    with psycopg.connect(t.db.split("?")[0], connect_timeout=10, autocommit=True) as conn:
        return sum(
            bool(conn.execute("SELECT pg_terminate_backend(%s)", (p,)).fetchone()[0])  # type: ignore[index]
            for p in backends
        )


def attack_split(t: Target, r: Result) -> None:
    if t.cluster is None or t.db is None:
        r.got("skipped: needs the layout this script starts (--url given)")
        return
    from tests.web.test_hosting import Player

    cluster = t.cluster
    rng = random.Random(41)
    with t.client(addr(23)) as c:
        created = [c.post("/api/tables", json=PEOPLE).json() for _ in range(6)]
    players = [Player(t.ws, x, random.Random(rng.random())) for x in created]
    for p in players:
        p.sent = Sent()  # every action sent at a move, not only the last
    ours = {p.id for p in players}

    def owner_of_most() -> tuple[int, set[str]]:
        owns = {k: set((cluster.health(k) or {}).get("owns", [])) for k in cluster.alive()}
        k = max(owns, key=lambda k: len(owns[k]))
        return k, owns[k]

    def taken_over(k: int, ids: set[str], since: float) -> float:
        """Seconds from ``since`` until the processes other than ``k`` own every table
        in ``ids`` (their /status, read directly)."""
        while time.monotonic() - since < 120:
            owned: set[str] = set()
            for other in cluster.alive():
                if other != k:
                    owned |= set((cluster.health(other) or {}).get("owns", []))
            if ids <= owned:
                return time.monotonic() - since
            time.sleep(0.2)
        return float("inf")

    async def back_in(ids: set[str], since: float) -> float:
        """Seconds from ``since`` until every table in ``ids`` acknowledged a new action."""
        todo = [p for p in players if p.id in ids and not p.over]
        start = {p.id: len(p.acked) for p in todo}
        go = asyncio.Event()
        go.set()
        await asyncio.gather(*(p.play(go, until=p.move + 2) for p in todo))
        assert all(len(p.acked) > start[p.id] or p.over for p in todo)
        return time.monotonic() - since

    async def main() -> None:
        go = asyncio.Event()
        go.set()
        await asyncio.gather(*(p.play(go, until=4) for p in players))
        k, ids = owner_of_most()
        backends = _pg_backends(t, cluster.procs[k].pid)
        cut = time.monotonic()
        n = _cut(t, backends)
        took = await back_in(ids, cut)
        r.got(
            f"process {k}/3's {n} database sessions cut while it runs: its {len(ids & ours)} "
            f"tables acknowledged actions again {took:.1f} s later"
        )
        r.check(took < 30, "tables serve again within 30 s of the cut")
        k, ids = owner_of_most()
        proc = cluster.procs[k]
        proc.send_signal(signal.SIGSTOP)
        stopped = time.monotonic()
        try:
            moved = asyncio.create_task(asyncio.to_thread(taken_over, k, ids, stopped))
            took = await back_in(ids, stopped)
            owned = await moved
        finally:
            proc.send_signal(signal.SIGCONT)
        r.got(
            f"process {k}/3 stopped (SIGSTOP): its {len(ids & ours)} tables owned by the others "
            f"{owned:.1f} s later, and acknowledging actions through nginx {took:.1f} s later "
            "(a WebSocket to the stopped process ends at nginx's 4 s read time-out, and a "
            "handshake routed to it waits that long before the next process); resumed (SIGCONT)"
        )
        r.check(owned < 15, "another process owns the tables within 15 s of the stop")
        r.check(took < 15, "clients through nginx play again within 15 s of the stop")
        await asyncio.gather(*(p.play(go) for p in players))
        for p in players:
            for sc in p.clients.values():
                await sc.close()

    asyncio.run(main())
    lost = doubled = 0
    with t.client(addr(23)) as c:
        for p in players:
            record = c.get(f"/api/tables/{p.id}/record").json()
            stored = [tuple(a) for a in record["actions"]]
            lost += sum(1 for m, a in p.acked.items() if m >= len(stored) or stored[m] != a)
            sent = p.sent.every if isinstance(p.sent, Sent) else {}
            doubled += sum(1 for m, a in enumerate(stored) if a not in sent.get(m, ()))
    acked = sum(len(p.acked) for p in players)
    over = sum(p.over for p in players)
    r.got(
        f"{over}/6 tables played to the end; {acked} acknowledged, {lost} lost, {doubled} "
        "stored that were not sent at that move"
    )
    r.check(over == 6 and lost == 0 and doubled == 0, "every table ends, nothing lost or invented")


# ---------------------------------------------------------------------- stacked deck


def attack_stacked(t: Target, r: Result) -> None:
    doc = dragonlair.make("dragon-stripes", players=2).new_game(12345).to_position()
    text = to_toml(doc | {"title": "New game"})
    body = {"game": "dragon-stripes", "players": 2, "position": text}
    with t.client(addr(24)) as creator, t.client(addr(25)) as friend:
        for how, extra in (("position", body), ("seed", {**PEOPLE, "seed": 12345})):
            # the creator holds both seats' links and hands the second to a friend
            made = creator.post("/api/tables", json={**extra, "seats": PEOPLE["seats"]})
            if made.status_code != 201:
                r.got(f"{how}: refused ({made.json()['error']['code']})")
                continue
            tid = made.json()["table"]["id"]
            before = friend.get(f"/api/tables/{tid}").json()["fairness"]
            seat = made.json()["seats"][1]

            async def play_and_end(tid: str = tid, seat: dict[str, Any] = seat) -> dict[str, Any]:
                me = await SeatClient.open(t.ws, tid, seat["token"], seat["seat"])
                welcome = next(m for m in me.messages if m["type"] == "welcome")
                during: dict[str, Any] = welcome["table"]["fairness"]
                await me.send({"type": "concede"})
                await me.wait(lambda: me.latest["status"] == "over", "the end", 60)
                await me.close()
                return during

            during = asyncio.run(play_and_end())
            end = friend.get(f"/api/tables/{tid}").json()["fairness"]
            said = (before.get("chosen"), during.get("chosen"), end.get("chosen"))
            r.got(f"{how}: the friend is told chosen={said} (before joining, in play, at the end)")
            r.check(all(x == how for x in said), f"a {how} deal says so on every page")


# ---------------------------------------------------------------------- health


def attack_health(t: Target, r: Result) -> None:
    with t.client(addr(26)) as c:
        secret = c.post("/api/tables", json={**WAITING, "listed": False}).json()["table"]["id"]
        bodies = {c.get("/api/health").text for _ in range(30)}
        leaked = sum(secret in b for b in bodies)
        refused = {p: c.get(p).status_code for p in ("/status", "/metrics", "/api/ready")}
    r.got(
        f"30 scrapes of /api/health: answers {sorted(bodies)}, the unlisted table's id in "
        f"{leaked}; operator pages through nginx: {refused}"
    )
    r.check(leaked == 0 and all(len(b) < 40 for b in bodies), "health tells health only")
    r.check(refused["/status"] >= 400 and refused["/metrics"] >= 400, "operator pages refused")


# ---------------------------------------------------------------------- hints


async def _bot_move_times(t: Target, address: str, moves: int) -> list[float]:
    """A person against a bot (one decision each in turn): seconds from the person's
    action to the bot's, for ``moves`` of them."""
    body = {
        "game": "pebble-auction",
        "players": 2,
        "seats": [{"type": "human"}, {"type": "bot", "level": "ismcts"}],
    }
    async with httpx.AsyncClient(
        base_url=t.url, transport=httpx.AsyncHTTPTransport(local_address=address), timeout=30
    ) as c:
        made = (await c.post("/api/tables", json=body)).json()
    me = await SeatClient.open(t.ws, made["table"]["id"], made["seats"][0]["token"], 0)
    rng = random.Random(5)
    times: list[float] = []
    try:
        while len(times) < moves and me.latest["status"] != "over":
            st = me.latest
            if not st["legal"]:
                await me.wait(
                    lambda: bool(me.latest["legal"]) or me.latest["status"] == "over", "my turn", 60
                )
                continue
            m = st["move"]
            start = time.monotonic()
            await me.act(m, rng.choice(st["legal"]))
            await me.wait(
                lambda m=m: (
                    me.latest["move"] > m + 1
                    or me.latest["status"] == "over"
                    or (me.latest["move"] > m and bool(me.latest["legal"]))
                ),
                "the bot's answer",
                60,
            )
            times.append(time.monotonic() - start)
    finally:
        await me.close()
    return times


def attack_hints(t: Target, r: Result) -> None:
    async def main() -> tuple[list[float], list[float], int]:
        quiet = await _bot_move_times(t, addr(27), 6)
        practice = {
            "game": "space-race",
            "players": 2,
            "hints": True,
            "seats": [{"type": "human"}, {"type": "bot", "level": "random"}],
        }
        asked = 0
        stop = asyncio.Event()

        async def hinter(n: int) -> None:
            nonlocal asked
            async with httpx.AsyncClient(
                base_url=t.url,
                transport=httpx.AsyncHTTPTransport(local_address=addr(30 + n)),
                timeout=30,
            ) as c:
                made = (await c.post("/api/tables", json=practice)).json()
            if "table" not in made:
                return
            me = await SeatClient.open(t.ws, made["table"]["id"], made["seats"][0]["token"], 0)
            try:
                while not stop.is_set():
                    await me.send({"type": "hint", "move": me.latest["move"]})
                    asked += 1
                    await asyncio.sleep(0.05)
            finally:
                await me.close()

        hinters = [asyncio.create_task(hinter(n)) for n in range(5)]
        try:
            busy = await _bot_move_times(t, addr(28), 6)
        finally:
            stop.set()
            await asyncio.gather(*hinters, return_exceptions=True)
        return quiet, busy, asked

    quiet, busy, asked = asyncio.run(main())
    r.got(
        f"a bot's answer alone: median {statistics.median(quiet):.2f} s, most {max(quiet):.2f} s; "
        f"with {asked} hint requests from 5 tables: median {statistics.median(busy):.2f} s, "
        f"most {max(busy):.2f} s"
    )
    r.check(max(busy) < 8.0, "hints at 5 tables never hold another table's bot 8 s")


# ---------------------------------------------------------------------- idle sockets


def attack_sockets(t: Target, r: Result) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with t.client(addr(40)) as c:
        tables = [c.post("/api/tables", json=PEOPLE).json() for _ in range(16)]

    async def main() -> tuple[int, int, dict[int, int], int]:
        held: list[Any] = []
        refused = 0
        per = 64

        async def one(address: str, table: dict[str, Any]) -> None:
            nonlocal refused
            try:
                ws = await connect(
                    f"{t.ws}/ws/tables/{table['table']['id']}",
                    local_addr=(address, 0),
                    open_timeout=15,
                    compression=None,
                )
                await ws.send(json.dumps({"type": "hello", "token": table["watch"]["token"]}))
                held.append(ws)
            except Exception:
                refused += 1

        for n in range(ADDRESSES):
            await asyncio.gather(*(one(addr(50 + n), tables[i % 16]) for i in range(per)))
        probes: dict[int, int] = {}
        async with httpx.AsyncClient(
            base_url=t.url,
            transport=httpx.AsyncHTTPTransport(local_address=addr(90)),
            timeout=15,
        ) as c:
            for _ in range(19):
                try:
                    code = (await c.get("/api/tables")).status_code
                except httpx.HTTPError:
                    code = 0
                probes[code] = probes.get(code, 0) + 1
        newcomer = 0
        try:
            me = await SeatClient.open(
                t.ws, tables[0]["table"]["id"], tables[0]["seats"][0]["token"], 0
            )
            newcomer = 1
            await me.close()
        except Exception:
            newcomer = 0
        # still open after the probes (the server closes those a newcomer pushed out)
        still = sum(ws.state is State.OPEN for ws in held)
        for ws in held:
            with contextlib.suppress(Exception):
                await ws.close()
        return len(held), refused + len(held) - still, probes, newcomer

    try:
        held, refused, probes, newcomer = asyncio.run(main())
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    r.got(
        f"{ADDRESSES} addresses x 64 idle spectator sockets: {held} opened, "
        f"{refused} refused or closed; "
        f"19 lobby probes from another address: {probes}; a player's own seat: "
        f"{'connected' if newcomer else 'refused'}"
    )
    r.check(set(probes) == {200}, "the lobby answers every probe")
    r.check(newcomer == 1, "a player reaches their seat")


# ---------------------------------------------------------------------- undo


def attack_undo(t: Target, r: Result) -> None:
    async def main() -> tuple[list[float], list[float], int, str]:
        async with httpx.AsyncClient(
            base_url=t.url,
            transport=httpx.AsyncHTTPTransport(local_address=addr(70)),
            timeout=30,
        ) as c:
            practice = {
                "game": "pebble-auction",
                "players": 2,
                "undo": True,
                "confirm": 5.0,
                "seats": [{"type": "human"}, {"type": "human"}],
            }
            mine = (await c.post("/api/tables", json=practice)).json()
        # a player asking to take back the other player's held decision
        a = await SeatClient.open(t.ws, mine["table"]["id"], mine["seats"][0]["token"], 0)
        b = await SeatClient.open(t.ws, mine["table"]["id"], mine["seats"][1]["token"], 1)
        st = a.latest
        actor, other = (a, b) if 0 in st["view"]["to_act"] else (b, a)
        await actor.act(st["move"], actor.latest["legal"][0])
        await other.send({"type": "undo", "move": st["move"]})
        await other.settle()
        await actor.settle()
        refusal = next((e.get("code", "") for e in other.errors), "none")
        undone = any(m.get("ref") == "undo" for m in actor.states)
        taken = "taken back" if undone else f"refused ({refusal})"

        quiet = await _bot_move_times(t, addr(71), 6)
        stop = asyncio.Event()
        sent = 0

        async def flood(n: int) -> None:
            nonlocal sent
            async with httpx.AsyncClient(
                base_url=t.url,
                transport=httpx.AsyncHTTPTransport(local_address=addr(72 + n)),
                timeout=30,
            ) as c:
                made = (await c.post("/api/tables", json=practice)).json()
            if "table" not in made:
                return
            me = await SeatClient.open(t.ws, made["table"]["id"], made["seats"][0]["token"], 0)
            try:
                while not stop.is_set():
                    await me.send({"type": "undo", "move": me.latest["move"]})
                    sent += 1
                    await asyncio.sleep(0.01)
            finally:
                await me.close()

        flooders = [asyncio.create_task(flood(n)) for n in range(12)]
        try:
            busy = await _bot_move_times(t, addr(71), 6)
        finally:
            stop.set()
            await asyncio.gather(*flooders, return_exceptions=True)
        for x in (a, b):
            await x.close()
        return quiet, busy, sent, taken if not undone else "taken back"

    quiet, busy, sent, taken = asyncio.run(main())
    r.got(f"the other player's held decision: {taken}")
    r.check(taken != "taken back", "a player takes back only their own decisions")
    r.got(
        f"another table's move alone: median {statistics.median(quiet):.2f} s; with {sent} "
        f"undo requests from 12 connections: median {statistics.median(busy):.2f} s"
    )
    r.check(
        statistics.median(busy) < max(1.0, 5 * statistics.median(quiet)),
        "an undo flood does not slow other tables five-fold",
    )


# ---------------------------------------------------------------------- smaller ones


def attack_small(t: Target, r: Result) -> None:
    with t.client(addr(80)) as c:
        deep = "a = " + "[" * 3000 + "]" * 3000
        got = c.post("/api/tables", json={"game": "pebble-auction", "players": 2, "position": deep})
        code = got.json().get("error", {}).get("code")
        r.got(f"a position nesting 3,000 deep: {got.status_code} {code}")
        r.check(got.status_code == 400 and code == "bad_position", "nested TOML refused (400)")
        docs = {p: c.get(p).status_code for p in ("/docs", "/redoc", "/openapi.json")}
        r.got(f"API pages: {docs}")
        r.check(docs["/docs"] == 404 and docs["/redoc"] == 404, "/docs and /redoc are off")
        made = c.post("/api/tables", json=PEOPLE).json()
    tid = made["table"]["id"]

    async def origin() -> str:
        try:
            ws = await connect(
                f"{t.ws}/ws/tables/{tid}", additional_headers={"Origin": "https://evil.example"}
            )
        except InvalidStatus as e:
            return str(e.response.status_code)
        await ws.close()
        return "accepted"

    said = asyncio.run(origin())
    r.got(f"a WebSocket with Origin https://evil.example: {said}")
    r.check(said == "403", "a foreign Origin is refused")

    async def rematch() -> tuple[str | None, str | None]:
        a = await SeatClient.open(t.ws, tid, made["seats"][0]["token"], 0)
        b = await SeatClient.open(t.ws, tid, made["seats"][1]["token"], 1)
        await b.send({"type": "concede"})
        await a.wait(lambda: a.latest["status"] == "over", "the end", 60)
        await a.send({"type": "rematch"})
        try:
            await b.wait(lambda: any(m.get("type") == "rematch" for m in b.messages), "rematch", 60)
        except AssertionError:
            seen = [m["type"] for m in b.messages][-5:]
            raise AssertionError(
                f"no rematch: the other seat saw {seen}, errors {a.errors}"
            ) from None
        first = next(m for m in b.messages if m.get("type") == "rematch")
        link = first.get("link")
        new = first["table"]
        # the friend opens the new seat; the old link (kept by someone else) asks again
        token = link.split("#", 1)[1] if link else None
        if token:
            mine = await SeatClient.open(t.ws, new, token, 1)
            await mine.close()
        await b.close()
        old = await SeatClient.open(t.ws, tid, made["seats"][1]["token"], 1)
        # what a connection is sent on arrival has come once the answer to a ping has
        await old.settle()
        told = [m for m in old.messages if m.get("type") == "rematch"]
        again = told[-1].get("link") if told else None
        await old.close()
        await a.close()
        return link, again

    link, again = asyncio.run(rematch())
    r.got(
        f"old seat link after the rematch's seat was opened: link {again!r} "
        f"(first {'a link' if link else None})"
    )
    r.check(again is None, "an old seat link no longer receives the rematch's seat")
    near_limit(t, r)
    if t.cluster is not None:
        logs = "".join(t.cluster.log(k) for k in t.cluster.procs)
        tracebacks = logs.count("Traceback")
        r.got(f"tracebacks in the processes' logs: {tracebacks}")
        r.check(tracebacks == 0, "no traceback in the logs for bad input")


def near_limit(t: Target, r: Result) -> None:
    """A practice table from a position just under the size limit (compact JSON, padded
    by its title), played to its end and asked for a rematch."""
    doc = dragonlair.make("dragon-stripes", players=2).new_game(7).to_position()
    compact = json.dumps(doc, separators=(",", ":"))
    pad = 11_990 - len(compact) - len(',"title":""')
    text = json.dumps({**doc, "title": "x" * max(pad, 0)}, separators=(",", ":"))
    with t.client(addr(81)) as c:
        made = c.post(
            "/api/tables",
            json={
                "game": "dragon-stripes",
                "players": 2,
                "position": text,
                "seats": PEOPLE["seats"],
            },
        )
    if made.status_code != 201:
        r.got(f"a position of {len(text)} characters: refused ({made.json()['error']['code']})")
        return
    tid, seats = made.json()["table"]["id"], made.json()["seats"]

    async def rematch() -> str:
        a = await SeatClient.open(t.ws, tid, seats[0]["token"], 0)
        await a.send({"type": "concede"})
        await a.wait(lambda: a.latest["status"] == "over", "the end", 60)
        await a.send({"type": "rematch"})
        try:
            await a.wait(
                lambda: any(m.get("type") == "rematch" for m in a.messages) or bool(a.errors),
                "the rematch",
                30,
            )
        except AssertionError as e:
            return f"no answer ({e})"
        said = "a new table" if not a.errors else f"error {a.errors[-1].get('code')}"
        await a.close()
        return said

    said = asyncio.run(rematch())
    r.got(f"rematch of a position table of {len(text)} characters: {said}")
    r.check(said == "a new table", "a near-limit position's rematch gets its table")


ATTACKS: dict[str, Callable[[Target, Result], None]] = {
    "health": attack_health,
    "small": attack_small,
    "stacked": attack_stacked,
    "spam": attack_spam,
    "sockets": attack_sockets,
    "hints": attack_hints,
    "undo": attack_undo,
    "split": attack_split,
}


def start_layout() -> tuple[Any, Any, str]:
    """PostgreSQL, three processes at the server's default limits, nginx (shipped files)."""
    from tests.web.clusterkit import Cluster
    from tests.web.conftest import PostgresCluster, fresh_database

    pg = PostgresCluster()
    db = fresh_database(pg.url)
    defaults = [
        "--http-rate",
        "120/minute",
        "--ws-rate",
        "20/second",
        "--max-connections-per-address",
        "64",
        "--limit-concurrency",
        "1000",
    ]
    try:
        cluster = Cluster(db, 3, extra=defaults)
    except BaseException:
        pg.stop()
        raise
    return pg, cluster, db


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--url", help="attack the proxy at this URL instead of starting one")
    p.add_argument("--db", help="with --url: its PostgreSQL URL (for the lock count)")
    p.add_argument("--only", help="comma-separated attacks: " + ", ".join(ATTACKS))
    args = p.parse_args(argv)
    names = args.only.split(",") if args.only else list(ATTACKS)
    unknown = [n for n in names if n not in ATTACKS]
    if unknown:
        p.error(f"no attack named {', '.join(unknown)}")
    pg = cluster = None
    if args.url:
        target = Target(args.url, db=args.db)
    else:
        pg, cluster, db = start_layout()
        target = Target(cluster.url, cluster, db)
        print(f"three processes on PostgreSQL behind nginx at {cluster.url}", flush=True)
    results = []
    try:
        for name in names:
            res = Result(name)
            start = time.monotonic()
            print(f"{name}:", flush=True)
            try:
                ATTACKS[name](target, res)
            except Exception as e:  # an attack that could not finish is reported, not hidden
                res.check(False, f"the attack could not finish: {type(e).__name__}: {e}")
            res.got(f"({time.monotonic() - start:.0f} s)")
            results.append(res)
    finally:
        if cluster is not None:
            cluster.close()
        if pg is not None:
            pg.stop()
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    broken = [r for r in results if r.broken]
    for r in results:
        print(f"{r.name:8} {'BROKEN: ' + '; '.join(r.broken) if r.broken else 'held'}")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
