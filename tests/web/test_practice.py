"""Practice tables: a table started from a position or a shipped puzzle, hints and undo,
and every request for them refused where the table does not allow it."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import dragonlair
from dragonlair.core.puzzles import puzzle
from tests.web.serverkit import LiveServer, SeatClient, config, create_table

PUZZLE = "dragon-stripes/offered-for-forty"  # seat 1 decides: take over the knight or not


@pytest.fixture
def small(sqlite_url: str) -> Iterator[LiveServer]:
    """A server whose hints are small (quick) and rate-limited, worked out in worker
    processes (the server's default pool)."""
    limits = {"hint_seconds": 60.0, "hint_max_playouts": 20, "hint_rate": "3/hour"}
    server = LiveServer(config(sqlite_url, bot_pool="process", **limits))
    yield server
    server.stop()


def practice(http: str, **body: Any) -> dict[str, Any]:
    """The puzzle's table: seat 1 yours, the others heuristic bots."""
    body.setdefault("game", "dragon-stripes")
    body.setdefault(
        "seats",
        [
            {"type": "bot", "level": "heuristic"},
            {"type": "human", "name": "Me"},
            {"type": "bot", "level": "heuristic"},
        ],
    )
    return create_table(http, **body)


def post(http: str, **body: Any) -> httpx.Response:
    return httpx.post(f"{http}/api/tables", json=body, timeout=60)


async def me(server: LiveServer, created: dict[str, Any]) -> SeatClient:
    p = next(p for p in created["seats"])
    return await SeatClient.open(server.ws, created["table"]["id"], p["token"], p["seat"])


def test_a_table_from_a_puzzle_replays_and_survives_a_restart(sqlite_url: str) -> None:
    server = LiveServer(config(sqlite_url))
    try:
        puzzles = httpx.get(f"{server.http}/api/puzzles", params={"game": "dragon-stripes"}).json()
        assert PUZZLE in [p["name"] for p in puzzles]
        info = next(p for p in puzzles if p["name"] == PUZZLE)
        assert info["seat"] == 1 and info["players"] == 3 and info["question"]
        created = practice(server.http, puzzle=PUZZLE, seed=5)
        table = created["table"]
        assert table["status"] == "playing" and table["players"] == 3
        s = table["settings"]
        assert s["position"] == "Offered for forty" and s["hints"] and s["undo"]
        expected = puzzle(PUZZLE).state(seed=5)

        async def main() -> None:
            c = await me(server, created)
            assert c.latest["view"] == expected.view(1)
            assert sorted(c.latest["legal"]) == ["decline", "take"]
            await c.act(c.latest["move"], "take")
            await c.wait_move(1, "the update after taking")
            await c.close()

        asyncio.run(main())
        state = server.hub.tables[table["id"]].state
        moves = state.move
        before = state.to_json()
    finally:
        server.stop()
    # a new server process on the same storage sets the position up again and replays
    again = LiveServer(config(sqlite_url))
    try:
        t = httpx.get(f"{again.http}/api/tables/{table['id']}").json()
        assert t["status"] in ("playing", "over") and t["settings"]["position"]
        resumed = again.hub.tables.get(table["id"]) or again.hub.finished[table["id"]]
        assert resumed.state.move >= moves
        if resumed.state.move == moves:
            assert resumed.state.to_json() == before
        assert resumed.state.record.position is not None
        assert dragonlair.replay(resumed.state.record).to_json() == resumed.state.to_json()
    finally:
        again.stop()


def test_a_pasted_position_starts_the_table(live: LiveServer) -> None:
    doc = dragonlair.position("dragon-stripes", puzzle(PUZZLE).doc, seed=2).to_position()
    text = dragonlair.core.position.to_toml(doc)
    created = practice(live.http, position=text)
    view = live.hub.tables[created["table"]["id"]].state.to_position()
    assert view == doc
    assert created["table"]["settings"]["position"] == "a position"  # it has no title


def test_a_puzzle_waits_for_its_player_where_a_position_has_a_deadline(live: LiveServer) -> None:
    """The puzzle asks seat 2 whether to take the knight: an offer, which at any other
    table is declined for a person who lets the deadline pass. At the puzzle's table no
    deadline is armed; the same position pasted as a position of one's own has one."""
    created = practice(live.http, puzzle=PUZZLE, seed=5)
    assert created["table"]["settings"]["puzzle"] == PUZZLE
    doc = dragonlair.position("dragon-stripes", puzzle(PUZZLE).doc, seed=5).to_position()
    pasted = practice(live.http, position=dragonlair.core.position.to_toml(doc))
    assert pasted["table"]["settings"]["puzzle"] is None

    async def main() -> None:
        for made, timed in ((created, False), (pasted, True)):
            c = await me(live, made)
            table = live.hub.tables[made["table"]["id"]]
            assert table.state.to_act == (1,) and table.state.default_action(1) is not None
            assert (table.clocks.deadline_at is not None) == timed
            assert (c.latest["deadline"] is not None) == timed
            await c.close()

    asyncio.run(main())


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"phase": "bidding"}, "phase"),
        ({"pot": -3}, "pot"),
        ({"drawn": ["danger"], "deck": ["danger"] * 3}, "deck"),  # a card twice
        ({"players": 4}, "players"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_a_bad_position_names_the_field_and_creates_nothing(
    live: LiveServer, change: dict[str, Any], field: str
) -> None:
    doc = {**puzzle(PUZZLE).doc, **change}
    before = len(live.hub.tables)
    r = post(
        live.http,
        game="dragon-stripes",
        players=3,
        position=json.dumps(doc),
        seats=[
            {"type": "bot", "level": "random"},
            {"type": "human"},
            {"type": "bot", "level": "random"},
        ],
    )
    assert r.status_code == 400, r.text
    err = r.json()["error"]
    assert err["code"] in ("bad_position", "bad_options"), err
    assert "position field" in err["message"] or err["code"] == "bad_options"
    if field:
        assert repr(field) in err["message"] or field in err["message"], err
    assert len(live.hub.tables) == before


def test_positions_only_at_tables_of_yours_and_bots(live: LiveServer) -> None:
    seats = [{"type": "bot", "level": "random"}, {"type": "human"}, {"type": "open"}]
    r = post(live.http, game="dragon-stripes", puzzle=PUZZLE, seats=seats)
    assert r.status_code == 400 and r.json()["error"]["code"] == "position_not_allowed"
    r = post(live.http, game="dragon-stripes", puzzle="no-such-puzzle")
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_position"
    assert "no puzzle" in r.json()["error"]["message"]
    r = post(live.http, game="dragon-stripes", puzzle=PUZZLE, position="x = 1")
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_position"
    r = post(live.http, game="dragon-stripes", position="this is [not toml")
    assert r.status_code == 400 and "TOML" in r.json()["error"]["message"]
    # undo is never allowed with open seats; hints may be, shown in the description
    r = post(live.http, game="dragon-stripes", players=3, undo=True)
    assert r.status_code == 400 and r.json()["error"]["code"] == "undo_not_allowed"
    created = create_table(live.http, game="dragon-stripes", players=3, hints=True)
    s = created["table"]["settings"]
    assert s["hints"] and not s["undo"]
    listed = httpx.get(f"{live.http}/api/tables").json()
    assert next(t for t in listed if t["id"] == created["table"]["id"])["settings"]["hints"]


def test_hints_and_undo_are_refused_where_the_table_does_not_allow_them(live: LiveServer) -> None:
    # people at the table (a friend's seat) and no "hints allowed": neither is offered
    created = create_table(
        live.http,
        game="dragon-stripes",
        players=3,
        seats=[{"type": "human"}, {"type": "human"}, {"type": "bot", "level": "random"}],
        seed=4,
    )
    s = created["table"]["settings"]
    assert not s["hints"] and not s["undo"]
    tid = created["table"]["id"]

    async def main() -> None:
        c = await SeatClient.open(live.ws, tid, created["seats"][0]["token"], 0)
        offers = c.latest["offers"]
        assert offers == {
            "hints": False,
            "hint": False,
            "undo": False,
            "can_undo": False,
            "undo_reason": "this table was created without undo",
            "confirm": 0.0,
            "confirm_turn": False,
        }
        move = c.latest["move"]
        for msg, code in (
            ({"type": "hint", "move": move}, "hints_not_allowed"),
            ({"type": "undo", "move": move}, "undo_not_allowed"),
            ({"type": "hint"}, "bad_message"),
            ({"type": "undo", "move": -1}, "bad_message"),
            ({"type": "hint", "move": move, "seat": 1}, "bad_message"),
        ):
            n = len(c.errors)
            await c.send(msg)
            assert (await c.next_error(n))["code"] == code
        # a spectator has no decision to ask about or take back
        w = await SeatClient.open(live.ws, tid, created["watch"]["token"], None)
        for kind in ("hint", "undo"):
            n = len(w.errors)
            await w.send({"type": kind, "move": move})
            assert (await w.next_error(n))["code"] == "spectator"
        assert "offers" not in w.latest
        await w.close()
        await c.close()

    asyncio.run(main())
    assert live.hub.tables[tid].state.move == 0  # nothing changed
    assert live.hub.store.action_count(tid) == 0


def test_a_hint_from_the_seat_view_within_limits(small: LiveServer) -> None:
    created = practice(small.http, puzzle=PUZZLE, seed=5)

    async def main() -> None:
        c = await me(small, created)
        move = c.latest["move"]
        assert c.latest["offers"]["hint"]
        await c.send({"type": "hint", "move": move})
        await c.wait(lambda: any(m["type"] == "hint" for m in c.messages), "the hint")
        hint = next(m for m in c.messages if m["type"] == "hint")
        assert hint["move"] == move and hint["seat"] == 1
        assert sorted(a["action"] for a in hint["choices"]) == ["decline", "take"]
        assert hint["pick"] == hint["choices"][0]["action"]  # the best-ranked choice
        assert hint["why"]["best"]["action"] == hint["pick"]
        for a in hint["choices"]:
            w = a["win"]
            assert 0 <= w["low"] <= w["value"] <= w["high"] <= 1
            assert 16 <= a["playouts"] <= 20  # at most 20 a choice, every one the first 16
            assert a["shown"]["step"] in (1, 2, 5, 10)
        # the same question asked again gets the same answer (seeded from the table)
        await c.send({"type": "hint", "move": move})
        await c.wait(lambda: sum(m["type"] == "hint" for m in c.messages) == 2, "hint 2")
        second = [m for m in c.messages if m["type"] == "hint"][1]
        assert second == hint
        # at most 3 an hour for a seat (an hour: slow hints on a loaded machine refill none)
        await c.send({"type": "hint", "move": move})
        await c.wait(lambda: sum(m["type"] == "hint" for m in c.messages) == 3, "hint 3")
        n = len(c.errors)
        await c.send({"type": "hint", "move": move})
        assert (await c.next_error(n))["code"] == "rate_limited"
        # a hint for a move that is not the current one is refused
        n = len(c.errors)
        await c.send({"type": "hint", "move": move + 5})
        assert (await c.next_error(n))["code"] == "stale_move"
        await c.close()

    asyncio.run(main())


def test_one_hint_at_a_time_and_only_for_your_own_decision(small: LiveServer) -> None:
    created = practice(small.http, puzzle=PUZZLE, seed=5)
    table = small.hub.tables[created["table"]["id"]]
    gate = asyncio.Event()
    real = small.hub.bots.hint

    async def slow(job: Any, table: str = "") -> dict[str, Any]:
        await gate.wait()
        return dict(await real(job, table))

    small.hub.bots.hint = slow

    async def main() -> None:
        c = await me(small, created)
        move = c.latest["move"]
        await c.send({"type": "hint", "move": move})
        await c.wait(lambda: table.practice.hinting(1), "the hint to start")
        n = len(c.errors)
        await c.send({"type": "hint", "move": move})
        assert (await c.next_error(n))["code"] == "hint_busy"
        await c.close()

    try:
        asyncio.run(main())
    finally:
        small.hub.bots.hint = real


def test_a_hint_is_worked_out_from_the_asking_seats_view_only(small: LiveServer) -> None:
    """What goes to the bots' pool for a hint is the asking seat's view and legal actions:
    never the state, nor another seat's view (the other seats' gems are secret here)."""
    created = practice(small.http, puzzle=PUZZLE, seed=5)
    table = small.hub.tables[created["table"]["id"]]
    jobs: list[Any] = []
    real = small.hub.bots.hint

    async def seen(job: Any, table_id: str = "") -> dict[str, Any]:
        jobs.append(job)
        return dict(await real(job, table_id))

    small.hub.bots.hint = seen

    async def main() -> None:
        c = await me(small, created)
        await c.send({"type": "hint", "move": c.latest["move"]})
        await c.wait(lambda: any(m["type"] == "hint" for m in c.messages), "the hint")
        await c.close()

    try:
        asyncio.run(main())
    finally:
        small.hub.bots.hint = real
    (job,) = jobs
    state = table.state
    assert job.view == state.view(1)
    assert job.view != state.view(0) and job.view != state.view(2)
    assert job.legal == tuple(str(a) for a in state.legal_actions(1))
    assert set(vars(job)) == {
        "game",
        "players",
        "options_json",
        "view",
        "legal",
        "seed",
        "budget",
        "max_playouts",
        "time_limit",
    }  # nothing else of the table travels with it


def test_the_pool_is_ready_for_hints_when_the_server_starts(small: LiveServer) -> None:
    """The first hint of a fresh pool would wait for its workers to start and import
    the analysis: the server has them do it before it answers its first request."""
    ready = small.hub.bots._warm.get("process")
    assert ready is not None and ready.done() and ready.exception() is None
    created = practice(small.http, puzzle=PUZZLE, seed=5)

    async def main() -> None:
        c = await me(small, created)  # a table with hints asks again: nothing more to do
        assert small.hub.bots._warm.get("process") is ready
        await c.close()

    asyncio.run(main())


def test_a_bots_worker_does_not_import_the_server() -> None:
    """A worker process unpickles its job and function from dragonlair.web.bots: that
    must not import the web framework and storage (seconds of a fresh pool's first hint
    on a loaded machine)."""
    code = (
        "import sys, dragonlair.web.bots; "
        "print(sorted(m for m in ('fastapi', 'starlette', 'sqlalchemy', 'dragonlair.web.app')"
        " if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
