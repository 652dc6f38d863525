"""The away policy: a time bank per player, the table's chosen takeover bot (never a random
one unless chosen), a table everyone has left pauses, what a bot played in a player's name
is shown to them when they are back, and a table left long enough ends abandoned."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from dragonlair.core import make
from dragonlair.web.protocol import TableSettings
from dragonlair.web.store import StoredSeat
from dragonlair.web.table.botseats import BotDriver
from dragonlair.web.table.clocks import Clocks
from dragonlair.web.table.current import Current
from dragonlair.web.table.seats import Seats
from dragonlair.web.table.windows import Windows
from tests.web.serverkit import LiveServer, SeatClient, config, create_table, drive

# ---------------------------------------------------------------------------- the clocks


class FakeLoop:
    """A clock the test moves: timers fire when :meth:`advance` passes them."""

    def __init__(self) -> None:
        self.now = 0.0
        self.timers: list[FakeHandle] = []

    def time(self) -> float:
        return self.now

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> FakeHandle:
        handle = FakeHandle(self.now + delay, callback, args)
        self.timers.append(handle)
        return handle

    def advance(self, seconds: float) -> None:
        self.now += seconds
        for handle in sorted(self.timers, key=lambda x: x.at):
            if handle.at <= self.now and not handle.cancelled:
                handle.cancelled = True
                handle.callback(*handle.args)
        self.timers = [x for x in self.timers if not x.cancelled]


class FakeHandle:
    def __init__(self, at: float, callback: Callable[..., object], args: tuple[Any, ...]) -> None:
        self.at, self.callback, self.args = at, callback, args
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class Conn:
    """A stand-in for a connection: only its seat matters to the seats."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat


def clocks(
    takeover: str | None = "heuristic", bank: float = 10.0
) -> tuple[Clocks, Seats, FakeLoop, list[int]]:
    game = make("pebble-auction", players=2)
    st = game.new_game(3)
    seats = Seats(
        [
            StoredSeat(0, "human", "Ann", token_hash=b"a"),
            StoredSeat(1, "human", "Bob", token_hash=b"b"),
        ],
        None,
        wait_for_arrival=True,
    )
    settings = TableSettings(
        deadline=15,
        away=bank,
        takeover=takeover,
        listed=True,
        hints=False,
        undo=False,
        position=None,
    )
    loop = FakeLoop()
    taken: list[int] = []
    c = Clocks(
        "t",
        settings,
        seats,
        Windows(0.05),
        Current(st, "playing"),
        act=lambda *a: asyncio.sleep(0),
        spawn=lambda coro: coro.close(),
        taken_over=lambda seat: taken.append(seat.index),
        loop=lambda: loop,
    )
    return c, seats, loop, taken


def arrive(seats: Seats, c: Clocks, seat: int) -> Any:
    conn = Conn(seat)
    seats.arrive(conn)  # type: ignore[arg-type]
    c.back(seats[seat])
    return conn


def leave(seats: Seats, c: Clocks, conn: Any) -> None:
    emptied = seats.leave(conn)
    if emptied is not None:
        if seats.paused():
            c.pause()
        else:
            c.arm_away(emptied)


def test_a_bot_answer_that_arrives_after_everyone_left_is_not_played() -> None:
    """The bot was asked while Ann sat there; she leaves before it answers: the table is
    paused, so the answer is dropped, and the bot is asked again when she is back."""
    game = make("pebble-auction", players=2)
    st = game.new_game(3)
    seats = Seats(
        [
            StoredSeat(0, "bot", "Bot", level="random"),
            StoredSeat(1, "human", "Ann", token_hash=b"a"),
        ],
        None,
        wait_for_arrival=True,
    )
    played: list[tuple[int, int, str]] = []
    asked: list[int] = []

    async def main() -> None:
        release, started = asyncio.Event(), asyncio.Event()
        tasks: list[asyncio.Task[Any]] = []

        class Pool:
            async def decide(self, job: Any, table: str = "") -> str:
                asked.append(len(asked))
                started.set()
                await release.wait()
                return str(job.legal[0])

        async def act(seat: int, move: int, text: str) -> None:
            played.append((seat, move, text))
            seats.leave(ann)  # type: ignore[arg-type]  # (and Ann leaves again, which ends the driver's loop)

        def spawn(coro: Any) -> asyncio.Task[Any]:
            tasks.append(asyncio.ensure_future(coro))
            return tasks[-1]

        pool: Any = Pool()
        driver = BotDriver(
            "t",
            game,
            "pebble-auction",
            2,
            {},
            1,
            pool,
            5.0,
            Current(st, "playing"),
            seats,
            None,
            act,
            spawn,
        )
        ann = Conn(1)
        seats.arrive(ann)  # type: ignore[arg-type]
        assert 0 in st.to_act  # the bot's seat is asked
        driver.kick()
        await asyncio.wait_for(started.wait(), 10)
        seats.leave(ann)  # type: ignore[arg-type]
        assert seats.paused()
        release.set()
        await asyncio.wait_for(tasks[0], 10)  # the bot's answer came back ...
        assert played == []  # ... and was not played at a table everyone has left
        seats.arrive(ann)  # type: ignore[arg-type]
        driver.kick()
        assert len(tasks) == 2  # asked again now that Ann is back
        await asyncio.wait_for(tasks[1], 10)
        assert len(asked) == 2 and played and played[0][:2] == (0, 0)

    asyncio.run(main())


def test_a_time_bank_runs_down_only_while_its_player_is_away() -> None:
    c, seats, loop, taken = clocks(bank=10.0)
    ann, bob = arrive(seats, c, 0), arrive(seats, c, 1)
    assert seats[1].bank == 10.0
    leave(seats, c, bob)
    loop.advance(4)
    bob = arrive(seats, c, 1)
    assert seats[1].bank == pytest.approx(6.0)  # four seconds were spent
    loop.advance(100)  # present: nothing runs down
    assert seats[1].bank == pytest.approx(6.0) and not taken
    leave(seats, c, bob)
    loop.advance(5.9)
    assert not taken and not seats[1].bot_playing
    loop.advance(0.2)  # the bank is empty: the table's bot plays for Bob
    assert taken == [1] and seats[1].bot_playing and seats[1].bank == 0.0
    # once empty, it stays empty: the next time he leaves the bot plays at once
    arrive(seats, c, 1)
    assert not seats[1].bot_playing
    assert ann.seat == 0


def test_a_table_everyone_left_is_paused_and_its_banks_stop() -> None:
    c, seats, loop, taken = clocks(bank=10.0)
    ann, bob = arrive(seats, c, 0), arrive(seats, c, 1)
    leave(seats, c, bob)
    loop.advance(3)
    leave(seats, c, ann)  # the last person leaves: paused
    assert seats.paused()
    assert seats[1].bank == pytest.approx(7.0)  # charged up to the pause, then stopped
    loop.advance(10_000)
    assert not taken and not seats[0].bot_playing and not seats[1].bot_playing
    assert c.pending() == []  # nothing is due to happen by itself
    ann = arrive(seats, c, 0)
    c.resume()  # Ann is back: Bob's bank runs again from what was left
    loop.advance(6.9)
    assert not taken
    loop.advance(0.2)
    assert taken == [1]


def test_a_table_that_waits_has_no_bank_and_never_takes_over() -> None:
    c, seats, loop, taken = clocks(takeover=None)
    arrive(seats, c, 0)
    bob = arrive(seats, c, 1)
    leave(seats, c, bob)
    loop.advance(86400 * 30)
    assert not taken and seats[1].bank is None and seats[1].info().bank is None


# ---------------------------------------------------------------------------- the server


def test_the_default_away_policy_is_the_heuristic_bot_stated_in_the_listing(
    live: LiveServer,
) -> None:
    created = create_table(live.http, game="dragon-stripes", players=2, away=120)
    settings = created["table"]["settings"]
    assert settings["takeover"] == "heuristic"  # never a random bot unless chosen
    listed = httpx.get(f"{live.http}/api/tables", timeout=30).json()
    mine = next(t for t in listed if t["id"] == created["table"]["id"])
    assert (mine["settings"]["takeover"], mine["settings"]["away"]) == ("heuristic", 120.0)
    # a game without a heuristic bot: the table waits for an away player by default
    assert create_table(live.http, players=2)["table"]["settings"]["takeover"] is None
    chosen = create_table(live.http, players=2, takeover="random")
    assert chosen["table"]["settings"]["takeover"] == "random"
    waits = create_table(live.http, players=2, takeover=None, away=600)
    assert waits["table"]["settings"]["takeover"] is None
    r = httpx.post(
        f"{live.http}/api/tables",
        json={"game": "pebble-auction", "takeover": "genius"},
        timeout=30,
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "unknown_bot"


@pytest.mark.timeout(240)
def test_away_past_the_bank_then_everyone_leaves_then_abandoned(db_url: str) -> None:
    server = LiveServer(config(db_url, away=0.3, abandon_after=1.5))
    try:
        created = create_table(
            server.http,
            players=2,
            seats=[{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}],
            seed=2,
            takeover="random",
            away=0.3,
        )
        tid = created["table"]["id"]
        tokens = [p["token"] for p in created["seats"]]
        table = server.hub.tables[tid]

        async def main() -> None:
            ann = await SeatClient.open(server.ws, tid, tokens[0], 0)
            bob = await SeatClient.open(server.ws, tid, tokens[1], 1)
            await bob.close()

            def bob_played_for() -> bool:
                seats = [m for m in ann.messages if m["type"] == "seats"]
                return bool(seats) and seats[-1]["seats"][1]["bot_playing"]

            await ann.wait(bob_played_for, "the takeover of Bob's seat once his bank ran out")
            await drive({0: ann}, random.Random(4), stop_after=10)
            in_his_name = [m for s, m in table.state.record.actions if s == 1]
            assert in_his_name
            # Bob is back: told exactly what the bot played for him, marked as the bot's
            bob = await SeatClient.open(server.ws, tid, tokens[1], 1)
            await bob.wait(
                lambda: any(m["type"] == "played_for_you" for m in bob.messages), "the report"
            )
            report = next(m for m in bob.messages if m["type"] == "played_for_you")
            assert report["by"] == "random"
            back_at = bob.states[0]["move"]  # the bot played for him until he was back
            played = [
                {"move": i, "action": str(a)}
                for i, (s, a) in enumerate(table.state.record.actions[:back_at])
                if s == 1
            ]
            assert report["moves"] == played and len(played) >= len(in_his_name)
            # everyone leaves: paused, and no bot plays the table out
            await bob.close()
            await ann.close()
            await asyncio.sleep(0.3)
            info = httpx.get(f"{server.http}/api/tables/{tid}", timeout=30).json()
            assert info["paused"] is True and info["abandons"] is not None
            moves = table.state.move
            await asyncio.sleep(0.8)  # well past both banks
            assert table.state.move == moves and table.status == "playing"
            # left long enough: abandoned, without a result, and stored so
            for _ in range(200):
                if table.status == "abandoned":
                    break
                await asyncio.sleep(0.05)
            assert table.status == "abandoned" and table.result is None
            stored = await asyncio.to_thread(server.hub.store.load, tid)
            assert stored.status == "abandoned" and stored.result is None
            info = httpx.get(f"{server.http}/api/tables/{tid}", timeout=30).json()
            assert info["status"] == "abandoned" and info["result"] is None
            # and nothing more is played there
            ann = await SeatClient.open(server.ws, tid, tokens[0], 0)
            assert ann.latest["status"] == "abandoned"
            await ann.act(ann.latest["move"], "pass")
            assert (await ann.next_error(0))["code"] == "abandoned"
            assert table.state.move == moves
            await ann.close()

        asyncio.run(main())
    finally:
        server.stop()
