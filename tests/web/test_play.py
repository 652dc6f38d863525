"""Playing over the WebSocket API with real clients: whole games with people and bots,
spectators, reconnection, deadlines, away players, bot levels."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

import dragonlair
from dragonlair.core import register, unregister
from tests.web.serverkit import (
    TIMEOUT,
    LiveServer,
    SeatClient,
    config,
    create_table,
    drive,
    open_all,
)


def game_settings() -> list[tuple[str, int]]:
    """Every game (the example game included) at its smallest and largest table."""
    out = []
    for g in dragonlair.games():
        s = dragonlair.spec(g)
        out += sorted({(g, s.min_players), (g, s.max_players)})
    return out


def seats_for(players: int) -> list[dict[str, Any]]:
    """People in the even seats, random bots in the odd ones."""
    return [
        {"type": "human", "name": f"P{i}"} if i % 2 == 0 else {"type": "bot", "level": "random"}
        for i in range(players)
    ]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players"), game_settings())
def test_whole_game_with_people_bots_and_a_spectator(
    live: LiveServer, game: str, players: int
) -> None:
    created = create_table(live.http, game=game, players=players, seats=seats_for(players), seed=11)
    tid = created["table"]["id"]

    async def main() -> tuple[dict[int, SeatClient], SeatClient]:
        clients = await open_all(live.ws, created)
        watcher = await SeatClient.open(live.ws, tid, created["watch"]["token"], None)
        final = await drive(clients, random.Random(5))
        assert final["status"] == "over"
        await watcher.wait(lambda: watcher.latest["status"] == "over", "the end")
        for c in [*clients.values(), watcher]:
            await c.close()
        return clients, watcher

    clients, watcher = asyncio.run(main())
    table = live.hub.tables.get(tid) or live.hub.finished[tid]
    state = table.state
    # everyone's last message is the final view of their own seat
    for seat, c in clients.items():
        assert c.latest["view"] == state.view(seat)
        assert all(m["seat"] == seat and m["view"]["seat"] == seat for m in c.states)
        # the events received add up to exactly what the seat may see
        got = [e for m in c.states for e in m["events"]]
        assert got == state.events_since(0, seat)
    assert all(m["view"]["seat"] is None and m["legal"] == [] for m in watcher.states)
    assert watcher.latest["view"] == state.view(None)
    # the stored record replays to the same game
    rec = httpx.get(f"{live.http}/api/tables/{tid}/record").json()
    assert dragonlair.replay(rec).to_json() == state.to_json()
    frames = httpx.get(f"{live.http}/api/tables/{tid}/replay", params={"seat": 1}).json()
    assert frames["frames"][-1]["view"] == state.view(1)
    assert len(frames["frames"]) == state.move + 1


def test_reconnecting_client_gets_the_current_view(live: LiveServer) -> None:
    created = create_table(live.http, players=2, seats=seats_for(2), seed=3)
    tid = created["table"]["id"]
    token = created["seats"][0]["token"]

    async def main() -> None:
        clients = await open_all(live.ws, created)
        await drive(clients, random.Random(1), stop_after=5)
        seen = clients[0].latest
        await clients[0].close()
        again = await SeatClient.open(live.ws, tid, token, 0, since=seen["view"]["move"])
        assert again.messages[0]["type"] == "welcome"
        first = again.states[0]
        assert first["move"] == seen["move"]
        assert first["view"] == seen["view"]
        assert first["legal"] == seen["legal"]
        # with since=0 it gets every event it may see again
        full = await SeatClient.open(live.ws, tid, token, 0)
        st = live.hub.tables[tid].state
        assert full.states[0]["events"] == st.events_since(0, 0)
        await drive({0: full}, random.Random(2))
        await again.close()
        await full.close()

    asyncio.run(main())


def test_bots_are_deterministic_per_table(live: LiveServer) -> None:
    bots = [{"type": "bot", "level": "random"}] * 4
    ids = [create_table(live.http, seats=bots, seed=99)["table"]["id"] for _ in range(2)]

    async def wait_over() -> None:
        for _ in range(2000):
            if all(i not in live.hub.tables or live.hub.tables[i].status == "over" for i in ids):
                return
            await asyncio.sleep(0.01)
        raise AssertionError("bot tables did not finish")

    asyncio.run(wait_over())
    # finished tables nobody watches leave the active set; their records stay
    assert not any(i in live.hub.tables for i in ids)
    records = [httpx.get(f"{live.http}/api/tables/{i}/record").json() for i in ids]
    assert records[0]["actions"] == records[1]["actions"]
    assert records[0]["seed"] == 99


def test_heuristic_bots_and_missing_levels(live: LiveServer) -> None:
    from tests.web.pebblebot import MANIFEST

    register(MANIFEST)
    try:
        # the first description of a game tries every bot level on it (importing the
        # search bots' modules): seconds on a loaded machine, past httpx's default 5 s
        info = httpx.get(f"{live.http}/api/games/pebble-heuristic", timeout=TIMEOUT).json()
        assert info["bots"][:2] == ["random", "heuristic"]
        seats = [{"type": "bot", "level": "heuristic"}, {"type": "bot", "level": "random"}]
        tid = create_table(live.http, game="pebble-heuristic", players=2, seats=seats, seed=4)[
            "table"
        ]["id"]

        async def wait_over() -> None:
            for _ in range(2000):
                t = live.hub.tables.get(tid) or live.hub.finished.get(tid)
                if t is not None and t.status == "over":
                    return
                await asyncio.sleep(0.01)
            raise AssertionError("did not finish")

        asyncio.run(wait_over())
        rec = httpx.get(f"{live.http}/api/tables/{tid}/record", timeout=TIMEOUT).json()
        heuristic_bids = [a for s, a in rec["actions"] if s == 0 and a.startswith("bid")]
        assert heuristic_bids, rec
        # a bot seat without a level is refused, naming the levels
        r = httpx.post(
            f"{live.http}/api/tables",
            json={"game": "pebble-heuristic", "players": 2, "seats": [seats[0], {"type": "bot"}]},
            timeout=TIMEOUT,
        )
        assert r.status_code == 400 and r.json()["error"]["code"] == "unknown_bot"
    finally:
        unregister("pebble-heuristic")


def play_to_window(clients: dict[int, SeatClient], rng: random.Random) -> Any:
    """Drive until a person is asked to answer an offer or a window (the state carries a
    deadline for them), or the game ends."""

    async def go() -> dict[str, Any]:
        while True:
            st = max((c.latest for c in clients.values()), key=lambda m: m["move"])
            if st["deadline"] is not None or st["status"] == "over":
                return st
            seat = min(st["view"]["to_act"])
            c = clients[seat]
            await c.wait_move(st["move"], "sync")
            await c.act(st["move"], rng.choice(c.latest["legal"]))
            await c.wait_move(st["move"] + 1, "update")

    return go()


def has_windows(game_id: str) -> bool:
    """Whether the game asks seats one at a time to answer an offer or a play (a window,
    whose default a deadline applies): seen in a few seeded random games."""
    players = dragonlair.spec(game_id).min_players
    for seed in range(3):
        rng = random.Random(seed)
        state = dragonlair.make(game_id, players=players).new_game(seed=seed)
        while not state.is_over:
            if state.view(None).get("window") is not None:
                return True
            seat = rng.choice(state.to_act)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    return False


WINDOW_GAMES = [g for g in dragonlair.games() if has_windows(g)]


def test_the_games_with_windows_are_known() -> None:
    # the deadline test below runs over these; the simultaneous-choice games have none
    assert {"pebble-auction", "dragon-stripes", "dragon-race"} <= set(WINDOW_GAMES)
    assert "space-dragons" not in WINDOW_GAMES and "space-race" not in WINDOW_GAMES


@pytest.mark.parametrize("game", WINDOW_GAMES)
def test_deadline_applies_the_default_answer(db_url: str, game: str) -> None:
    server = LiveServer(config(db_url, deadline=0.2))
    try:
        players = dragonlair.spec(game).min_players
        seats = [{"type": "human"}] * players
        created = create_table(server.http, game=game, players=players, seats=seats, seed=8)
        tid = created["table"]["id"]

        async def main() -> int:
            clients = await open_all(server.ws, created)
            rng = random.Random(3)
            applied = 0
            for _ in range(3):
                st = await play_to_window(clients, rng)
                if st["status"] == "over":
                    break
                d = st["deadline"]
                assert d["seat"] in st["view"]["to_act"]
                assert st["view"]["window"]["default"] == d["default"]
                waiting = clients[d["seat"]]
                # nobody answers: the server applies the default for the seat
                await waiting.wait_move(st["move"] + 1, "default")
                actions = server.hub.tables[tid].state.record.actions
                assert actions[st["move"]] == (d["seat"], d["default"])
                applied += 1
            for c in clients.values():
                await c.close()
            return applied

        assert asyncio.run(main()) >= 1, f"{game}: no window's default was applied"
    finally:
        server.stop()


def test_away_player_is_played_by_a_bot_until_back(db_url: str) -> None:
    server = LiveServer(config(db_url, away=0.1))
    try:
        # seat 1's person never arrived: taken over at once only because the table says so
        created = create_table(
            server.http,
            players=2,
            seats=[{"type": "human"}] * 2,
            seed=2,
            wait_for_arrival=False,
            takeover="random",  # this game has no heuristic bot: its tables wait by default
        )
        tid = created["table"]["id"]

        async def main() -> None:
            present = await SeatClient.open(server.ws, tid, created["seats"][0]["token"], 0)

            def seat1_bot() -> bool:
                seats = [m for m in present.messages if m["type"] == "seats"]
                return bool(seats) and seats[-1]["seats"][1]["bot_playing"]

            await present.wait(seat1_bot, "the takeover of seat 1")
            # the bot plays seat 1 whenever it is asked; seat 0 plays on
            await drive({0: present}, random.Random(4), stop_after=12)
            table = server.hub.tables[tid]
            assert any(s == 1 for s, _ in table.state.record.actions)
            back = await SeatClient.open(server.ws, tid, created["seats"][1]["token"], 1)
            await present.wait(lambda: not seat1_bot(), "seat 1's return")
            assert not table.seats[1].bot_playing
            await back.close()
            await present.close()

        asyncio.run(main())
    finally:
        server.stop()


def test_a_slow_bot_does_not_stall_other_tables(live: LiveServer) -> None:
    from tests.web.pebblebot import MANIFEST
    from tests.web.pebblebot.heuristic import Gate

    register(MANIFEST)
    Gate.closed = True
    Gate.opened.clear()
    Gate.waiting.clear()
    try:
        slow = [{"type": "bot", "level": "heuristic"}, {"type": "bot", "level": "random"}]
        tid = create_table(live.http, game="pebble-heuristic", players=2, seats=slow, seed=1)[
            "table"
        ]["id"]
        assert Gate.waiting.wait(30)  # its bot is thinking, and will until we say
        created = create_table(live.http, players=2, seats=seats_for(2), seed=6)

        async def main() -> None:
            clients = await open_all(live.ws, created)
            final = await drive(clients, random.Random(1))
            assert final["status"] == "over"  # a whole game while the other bot thinks
            for c in clients.values():
                await c.close()

        asyncio.run(main())
        assert live.hub.tables[tid].state.move == 0
    finally:
        Gate.closed = False
        Gate.opened.set()
        unregister("pebble-heuristic")


def test_simultaneous_picks_show_who_is_choosing_not_what(live: LiveServer) -> None:
    created = create_table(live.http, players=3, seats=[{"type": "human"}] * 3, seed=12)

    async def main() -> None:
        clients = await open_all(live.ws, created)
        first = clients[0].latest
        assert first["view"]["to_act"] == [0, 1, 2] and first["view"]["choosing"] == [0, 1, 2]
        pick = first["legal"][0]
        await clients[0].act(first["move"], pick)
        for seat, c in clients.items():
            await c.wait_move(1, "the pick")
            view = c.latest["view"]
            assert view["to_act"] == [1, 2] and view["choosing"] == [0, 1, 2]
            if seat == 0:
                assert view["my_choice"] == pick
                assert c.latest["legal"] == []
            else:
                assert "my_choice" not in view
                (bid,) = [e for e in c.latest["events"] if e["type"] == "bid"]
                assert bid == {"seq": bid["seq"], "type": "bid", "redacted": True, "seat": 0}
        for c in clients.values():
            await c.close()

    asyncio.run(main())
