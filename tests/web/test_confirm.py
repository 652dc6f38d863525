"""The undo that always works: at a table with undo, a person's decision is held for a
confirmation window, shown to that seat alone, stored and told to nobody else (spectators,
bots, the record) until the window ends or the person confirms; within it, undo takes it
back and nothing else changes; after it, nothing can be taken back."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import httpx
import pytest

from dragonlair.core.puzzles import puzzle
from tests.web.serverkit import LiveServer, SeatClient, config, create_table

PUZZLE = "dragon-stripes/offered-for-forty"  # seat 1 decides: take over the knight or not


def practice(server: LiveServer, **body: Any) -> dict[str, Any]:
    """The puzzle's table: seat 1 yours, the others heuristic bots."""
    return create_table(
        server.http,
        game="dragon-stripes",
        puzzle=PUZZLE,
        seed=5,
        seats=[
            {"type": "bot", "level": "heuristic"},
            {"type": "human", "name": "Me"},
            {"type": "bot", "level": "heuristic"},
        ],
        **body,
    )


@pytest.fixture
def slow_confirm(sqlite_url: str) -> Any:
    """A server whose confirmation window is long enough to look inside it."""
    server = LiveServer(config(sqlite_url, confirm=30.0))
    yield server
    server.stop()


async def _open(server: LiveServer, created: dict[str, Any]) -> tuple[SeatClient, SeatClient]:
    tid = created["table"]["id"]
    me = next(p for p in created["seats"] if p["seat"] == 1)
    c = await SeatClient.open(server.ws, tid, me["token"], 1)
    w = await SeatClient.open(server.ws, tid, created["watch"]["token"], None)
    return c, w


@pytest.mark.timeout(120)
def test_a_held_decision_reaches_nobody_and_undo_takes_it_back(slow_confirm: LiveServer) -> None:
    server = slow_confirm
    created = practice(server)
    tid = created["table"]["id"]
    table = server.hub.tables[tid]
    assert created["table"]["settings"]["confirm"] == 30.0
    start = puzzle(PUZZLE).state(seed=5)

    async def main() -> None:
        c, w = await _open(server, created)
        first = c.latest
        assert first["offers"]["can_undo"] is False and first["offers"]["confirm"] == 30.0
        n = len(c.errors)
        await c.send({"type": "undo", "move": first["move"]})
        assert (await c.next_error(n))["code"] == "cannot_undo"
        watched = len(w.states)
        await c.act(first["move"], "decline", ref="d")
        await c.wait(lambda: c.latest.get("ref") == "d", "my held decision")
        held = c.latest
        # I see my decision applied, and that it is held
        assert held["move"] == first["move"] + 1 and held["held"]["decisions"] == 1
        assert held["offers"]["can_undo"] is True and held["events"] == []
        await c.settle()
        await w.settle()
        # nobody else was told: no state for the spectator, nothing stored, no bot moved
        assert len(w.states) == watched and w.latest["move"] == first["move"]
        assert server.hub.store.action_count(tid) == 0
        assert table.state.move == first["move"] and table.state.to_act == (1,)
        # an undo for a move my game has not reached is refused; the right one takes the
        # decision back
        n = len(c.errors)
        await c.send({"type": "undo", "move": held["move"] + 5})
        assert (await c.next_error(n))["code"] == "stale_move"
        await c.send({"type": "undo", "move": held["move"]})
        await c.wait(lambda: c.latest.get("ref") == "undo", "the undo")
        back = c.latest
        assert back["move"] == first["move"] and back["view"] == first["view"]
        assert sorted(back["legal"]) == ["decline", "take"] and "held" not in back
        assert back["offers"]["can_undo"] is False
        await w.settle()
        assert len(w.states) == watched
        assert server.hub.store.action_count(tid) == 0
        assert table.state.to_json() == start.to_json()
        # decided again and confirmed: now it is played, stored and told to everyone
        await c.act(first["move"], "take", ref="t")
        await c.wait(lambda: c.latest.get("ref") == "t", "held again")
        n = len(c.errors)
        await c.send({"type": "confirm", "move": c.latest["move"]})
        await w.wait(lambda: w.latest["move"] > first["move"], "the confirmed decision")
        assert server.hub.store.action_count(tid) >= 1
        # after the window nothing can be taken back
        await c.wait(lambda: "held" not in c.latest, "the committed state")
        await c.send({"type": "undo", "move": c.latest["move"]})
        err = await c.next_error(n)
        assert err["code"] in ("cannot_undo", "stale_move"), err
        await c.close()
        await w.close()

    asyncio.run(main())
    assert table.state.record.actions[0] == (1, "take")
    assert all(a != "undo" for _, a in table.state.record.actions)


@pytest.mark.timeout(120)
def test_the_window_ends_by_itself_and_then_the_bots_answer(live: LiveServer) -> None:
    created = practice(live, confirm=0.3)
    tid = created["table"]["id"]

    async def main() -> None:
        c, w = await _open(live, created)
        await c.act(c.latest["move"], "decline")
        # nobody confirms: the window ends, the decision is played and the bot answers
        await w.wait(lambda: w.latest["move"] >= 2, "the decision and the bot's answer")
        await c.wait(lambda: c.latest["move"] >= 2 and "held" not in c.latest, "my view")
        assert any(e["type"] != "undo" for e in w.latest["events"])
        n = len(c.errors)
        await c.send({"type": "undo", "move": c.latest["move"]})
        err = await c.next_error(n)
        assert err["code"] in ("cannot_undo", "stale_move"), err
        await c.close()
        await w.close()

    asyncio.run(main())
    assert live.hub.store.action_count(tid) >= 2


@pytest.mark.timeout(120)
def test_a_decision_that_would_show_me_a_card_is_held_unseen(slow_confirm: LiveServer) -> None:
    created = practice(slow_confirm)
    tid = created["table"]["id"]
    table = slow_confirm.hub.tables[tid]

    async def main() -> None:
        c, w = await _open(slow_confirm, created)
        # taking the knight is held and shown; the draw it asks for would turn a card
        # over, so it is held without being applied: I see no card, and may take it back
        await c.act(c.latest["move"], "take", ref="t")
        await c.wait(lambda: c.latest.get("ref") == "t", "the held take")
        took = c.latest
        assert took["legal"] == ["draw"] and took["held"]["decisions"] == 1
        await c.act(took["move"], "draw", ref="d")
        await c.wait(lambda: c.latest.get("ref") == "d", "the held draw")
        drew = c.latest
        assert drew["held"] == {**drew["held"], "decisions": 2, "shown": 1, "waiting": "draw"}
        assert drew["view"] == took["view"] and drew["legal"] == []
        # nothing more can be decided on top of it
        n = len(c.errors)
        await c.act(drew["move"], "draw")
        assert (await c.next_error(n))["code"] == "held"
        await c.send({"type": "undo", "move": drew["move"]})
        await c.wait(lambda: c.latest.get("ref") == "undo" and "held" in c.latest, "undo")
        assert c.latest["legal"] == ["draw"] and c.latest["held"]["waiting"] is None
        await c.send({"type": "undo", "move": drew["move"]})
        await c.wait(lambda: "held" not in c.latest, "the second undo")
        assert sorted(c.latest["legal"]) == ["decline", "take"]
        assert slow_confirm.hub.store.action_count(tid) == 0 and len(w.states) == 1
        # decided again and confirmed: both are played, in order
        await c.act(c.latest["move"], "take", ref="t2")
        await c.wait(lambda: c.latest.get("ref") == "t2", "held again")
        await c.act(c.latest["move"], "draw", ref="d2")
        await c.wait(lambda: c.latest.get("ref") == "d2", "the draw held again")
        await c.send({"type": "confirm", "move": c.latest["move"]})
        await c.wait(lambda: table.state.move >= 2, "the confirmation")
        await c.close()
        await w.close()

    asyncio.run(main())
    assert [a for _, a in table.state.record.actions[:2]] == ["take", "draw"]


def test_confirm_and_undo_are_refused_where_they_have_nothing_to_do(live: LiveServer) -> None:
    created = practice(live, undo=False)
    assert created["table"]["settings"]["confirm"] == 0.0

    async def main() -> None:
        c, w = await _open(live, created)
        move = c.latest["move"]
        for msg, code in (
            ({"type": "undo", "move": move}, "undo_not_allowed"),
            ({"type": "confirm", "move": move}, "nothing_held"),
            ({"type": "confirm"}, "bad_message"),
        ):
            n = len(c.errors)
            await c.send(msg)
            assert (await c.next_error(n))["code"] == code
        n = len(w.errors)
        await w.send({"type": "confirm", "move": move})
        assert (await w.next_error(n))["code"] == "spectator"
        await c.close()
        await w.close()

    asyncio.run(main())
    assert live.hub.store.action_count(created["table"]["id"]) == 0
    # a window is for a table with undo, and at most 30 seconds
    for body in ({"undo": False, "confirm": 2.0}, {"confirm": 31.0}, {"confirm": 0}):
        r = httpx.post(
            f"{live.http}/api/tables",
            json={"game": "dragon-stripes", "seats": [{"type": "human"}, {"type": "bot"}]} | body,
            timeout=60,
        )
        assert r.status_code in (400, 422), (body, r.text)
        assert live.hub.store.action_count(created["table"]["id"]) == 0


@pytest.mark.timeout(120)
def test_my_next_decision_waits_for_my_last_to_be_played(live: LiveServer) -> None:
    """My held decision is played when its window ends; the game (bots included) goes on
    and asks me again before that play has quite finished. What I decide then waits for
    it and is taken: it is not refused because my last decision is still being played."""
    created = create_table(
        live.http,
        game="dragon-race",
        players=2,
        seed=11,
        seats=[{"type": "human", "name": "Me"}, {"type": "bot", "level": "random"}],
        undo=True,
    )
    tid = created["table"]["id"]
    table = live.hub.tables[tid]
    # (the server runs in a thread of its own: signals across the threads)
    gate, entered, armed = threading.Event(), threading.Event(), threading.Event()
    playing = threading.Event()  # a held decision's play is waiting at the gate
    real_submit, real_hold = table.submit, table.holds.hold

    async def submit(*args: Any, **kw: Any) -> None:
        await real_submit(*args, **kw)
        if kw.get("confirmed") and not gate.is_set():
            playing.set()
        while kw.get("confirmed") and not gate.is_set():
            await asyncio.sleep(0.01)  # the held decision's play is not over yet

    async def hold(*args: Any, **kw: Any) -> bool:
        if armed.is_set():
            entered.set()
        return bool(await real_hold(*args, **kw))

    table.submit, table.holds.hold = submit, hold

    async def main() -> None:
        me = next(p for p in created["seats"] if p["seat"] == 0)
        c = await SeatClient.open(live.ws, tid, me["token"], 0)
        first = c.latest
        await c.act(first["move"], sorted(first["legal"])[0])
        # committed (no longer held), and my game asks me again
        await c.wait(
            lambda: (
                c.latest["move"] > first["move"]
                and "held" not in c.latest
                and bool(c.latest["legal"])
            ),
            "my next decision",
        )
        assert playing.is_set()  # the first decision's play has not finished
        nxt = c.latest
        n = len(c.errors)
        armed.set()
        await c.act(nxt["move"], sorted(nxt["legal"])[0])
        assert await asyncio.to_thread(entered.wait, 30)
        gate.set()
        await c.settle()
        assert c.errors[n:] == []
        await c.wait(lambda: c.latest["move"] > nxt["move"], "my next decision played")
        await c.close()

    asyncio.run(main())
    # both decisions were played, in the record like any other
    assert len([a for s, a in table.state.record.actions if s == 0]) >= 2
