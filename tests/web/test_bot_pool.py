"""The bot pool (dragonlair.web.bots.BotRunner): a fair share of the workers per client and table,
bot decisions before hints, every job cut at its wall-clock bound, in worker processes."""

from __future__ import annotations

import asyncio
import os
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from dragonlair.web import create_app
from dragonlair.web.bots import BOT, HINT, BotRunner, BotTimeout, FairQueue
from tests.web.serverkit import TIMEOUT, config


async def _grants(queue: FairQueue, asks: list[tuple[str, int]], frees: int) -> list[str]:
    """The order in which ``asks`` (table, priority) get a worker when, after they are all
    queued, ``frees`` jobs end one after the other (the first to end is the first granted)."""
    order: list[str] = []

    async def ask(table: str, priority: int, label: str) -> None:
        await queue.acquire(table, priority)
        order.append(label)

    tasks = []
    for i, (table, priority) in enumerate(asks):
        label = f"{table}:{'bot' if priority == BOT else 'hint'}:{i}"
        tasks.append(asyncio.ensure_future(ask(table, priority, label)))
        await asyncio.sleep(0)  # queued in this order
    await asyncio.sleep(0)
    for _ in range(frees):
        table = order[len(order) - queue.workers].split(":")[0] if order else ""
        queue.release(table)
        await asyncio.sleep(0)
        await asyncio.sleep(0)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return order


def test_hints_from_five_tables_do_not_delay_another_tables_bot() -> None:
    async def main() -> None:
        queue = FairQueue(workers=2)
        # five practice tables each ask three hints, then another table's bot must move
        asks = [(f"h{t}", HINT) for _ in range(3) for t in range(5)] + [("b", BOT)]
        assert queue.queued == 0
        task = asyncio.ensure_future(_grants(queue, asks, frees=0))
        order = await task
        assert order == ["h0:hint:0", "h1:hint:1"]  # the two workers are busy with hints
        assert queue.queued == 0  # (cancelled when the helper returned)

        queue = FairQueue(workers=2)
        order = await _grants(queue, asks, frees=1)
        # the bot is served as soon as one job ends: it waits for one job, not for 13 hints
        assert order[2] == "b:bot:15"

    asyncio.run(main())


def test_tables_are_served_in_turn_one_job_each_at_a_time() -> None:
    async def main() -> None:
        queue = FairQueue(workers=1)
        # table a asks four hints first, then b and c one each: b and c do not wait for all
        # of a's hints, and a never has two jobs in flight
        asks = [("a", HINT)] * 4 + [("b", HINT), ("c", HINT)]
        order = await _grants(queue, asks, frees=5)
        assert [o.split(":")[0] for o in order] == ["a", "b", "c", "a", "a", "a"]

        queue = FairQueue(workers=2)
        order = await _grants(queue, [("a", BOT), ("a", HINT), ("b", HINT)], frees=0)
        assert [o.split(":")[0] for o in order] == ["a", "b"]  # a's hint waits for a's bot

    asyncio.run(main())


def test_a_client_with_many_tables_gets_one_share_of_the_workers() -> None:
    async def main() -> None:
        queue = FairQueue(workers=1)
        # one address made six bot-only tables; another person plays one practice table
        for t in range(6):
            queue.charge_to(f"x{t}", "10.0.0.66")
        queue.charge_to("p", "10.0.0.7")
        asks = [(f"x{t}", BOT) for _ in range(2) for t in range(6)] + [("p", BOT)] * 3
        order = [o.split(":")[0] for o in await _grants(queue, asks, frees=8)]
        # the person's table is served every other turn, not once in seven
        assert order[:6] == ["x0", "p", "x1", "p", "x2", "p"]
        assert order[6:] == ["x3", "x4", "x5"]

        queue = FairQueue(workers=1)  # tables of unknown clients are clients of their own
        order = await _grants(queue, [("a", BOT)] * 2 + [("b", BOT)], frees=2)
        assert [o.split(":")[0] for o in order] == ["a", "b", "a"]

    asyncio.run(main())


def test_a_new_table_is_charged_to_the_address_that_created_it(sqlite_url: str) -> None:
    with TestClient(create_app(config(sqlite_url, bot_pool="thread"))) as c:
        bots = [{"type": "bot", "level": "random"}] * 2
        r = c.post("/api/tables", json={"game": "pebble-auction", "players": 2, "seats": bots})
        assert r.status_code == 201
        fair = c.app.state.hub.bots.fair  # type: ignore[attr-defined]
        assert fair.client_of(r.json()["table"]["id"]) == "testclient"
        assert fair.client_of("someothertable") == "table:someothertable"


def test_a_job_given_up_while_waiting_leaves_the_queue() -> None:
    async def main() -> None:
        queue = FairQueue(workers=1)
        await queue.acquire("a", BOT)
        waiting = asyncio.ensure_future(queue.acquire("b", HINT))
        await asyncio.sleep(0)
        assert queue.queued == 1 and queue.busy == 1
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
        assert queue.queued == 0
        queue.release("a")
        assert queue.busy == 0

    asyncio.run(main())


@dataclass(frozen=True)
class SlowJob:
    """A job for the pool that writes its worker's pid to ``path`` and then runs forever."""

    path: str
    game: str = "pebble-auction"
    time_limit: float = 0.2


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"  # a zombie has ended: only its exit status is left


def run_forever(job: SlowJob) -> str:
    Path(job.path).write_text(str(os.getpid()))
    while True:
        time.sleep(0.05)


def quick(job: SlowJob) -> str:
    return f"done in {os.getpid()}"


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_job_over_its_bound_is_cut_and_its_worker_killed(tmp_path: Path) -> None:
    waits: list[tuple[str, float]] = []

    async def main() -> None:
        runner = BotRunner("process", 1, on_wait=lambda kind, s: waits.append((kind, s)))
        try:
            job = SlowJob(str(tmp_path / "pid"))
            with pytest.raises(BotTimeout):
                await runner._fair("t", BOT, job, run_forever)
            pid = int((tmp_path / "pid").read_text())
            assert pid != os.getpid()
            # the worker that ran over is gone, and the pool answers the next job
            answer = await runner._fair("u", BOT, job, quick)
            assert answer.startswith("done in ") and answer != f"done in {pid}"
            assert not _alive(pid)
            assert runner.queued == 0 and runner.thinking == 0
        finally:
            runner.close()

    asyncio.run(main())
    assert [k for k, _ in waits] == ["bot", "bot"]


def test_a_thread_that_runs_over_is_answered_for_and_holds_its_worker_until_it_stops() -> None:
    release = threading.Event()

    def blocked(job: SlowJob) -> str:
        release.wait(30)
        return "late"

    async def main() -> None:
        runner = BotRunner("thread", 1)
        try:
            with pytest.raises(BotTimeout):
                await runner._fair("t", BOT, SlowJob(""), blocked)
            assert runner.thinking == 1  # a thread cannot be killed: it still counts
            other = asyncio.ensure_future(runner._fair("u", BOT, SlowJob(""), quick))
            await asyncio.sleep(0.05)
            assert runner.queued == 1 and not other.done()
            release.set()
            assert (await other).startswith("done in ")
        finally:
            runner.close()

    asyncio.run(main())


def _metric(text: str, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.M)
    assert found, f"{name} is not in /metrics"
    return float(found.group(1))


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_the_pools_queue_waits_and_times_are_in_metrics(sqlite_url: str) -> None:
    with TestClient(create_app(config(sqlite_url, bot_pool="process"))) as client:
        wait = 'dragonlair_bot_wait_seconds_count{kind="bot"}'
        took = 'dragonlair_bot_seconds_count{kind="bot"}'
        before = client.get("/metrics").text
        had = _metric(before, wait) if wait in before else 0.0
        had_took = _metric(before, took) if took in before else 0.0
        bots = [{"type": "bot", "level": "random"}] * 2
        r = client.post("/api/tables", json={"game": "pebble-auction", "players": 2, "seats": bots})
        tid = r.json()["table"]["id"]
        end = time.monotonic() + TIMEOUT
        while client.get(f"/api/tables/{tid}").json()["move"] < 2:
            assert time.monotonic() < end, "the bots did not move"
            time.sleep(0.05)
        text = client.get("/metrics").text
    assert _metric(text, wait) >= had + 2  # each decision's wait for a worker was counted
    assert _metric(text, took) >= had_took + 2  # and its time from then to its answer
    assert _metric(text, "dragonlair_bot_queue") >= 0
    assert _metric(text, "dragonlair_bots_thinking") >= 0
