"""The table's parts on their own, with fakes handed in for the bot pool and the pipeline."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path
from typing import Any

import dragonlair.web
from dragonlair.core import make
from dragonlair.web.bots import BotJob, BotTimeout, HintJob
from dragonlair.web.store import StoredSeat
from dragonlair.web.table.botseats import BotDriver
from dragonlair.web.table.current import Current
from dragonlair.web.table.seats import Seats


class FakePool:
    """A bot pool that answers from a script: an action's text, or an exception."""

    def __init__(self, answers: list[str | Exception]) -> None:
        self.answers = answers
        self.jobs: list[BotJob] = []

    async def decide(self, job: BotJob, table: str = "") -> str:
        self.jobs.append(job)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    async def hint(self, job: HintJob, table: str = "") -> dict[str, Any]:
        raise AssertionError("no hint is asked here")

    async def warm_hints(self) -> None:
        return None


def driver(pool: FakePool, seats: list[StoredSeat], takeover: str | None = None) -> Any:
    game = make("dragon-race", players=2)
    current = Current(game.new_game(5), "playing")
    acted: list[tuple[int, int, str]] = []
    tasks: list[asyncio.Task[Any]] = []

    async def act(seat: int, move: int, text: str) -> None:
        acted.append((seat, move, text))
        st = current.state
        assert st is not None
        st = st.clone()
        st.apply(seat, game.parse_action(text))
        current.state = st
        if not any(seats_[s].is_bot for s in st.to_act):
            current.status = "waiting for the person"  # stops the driver

    def spawn(coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        tasks.append(task)
        return task

    seats_ = Seats(seats, None, True)
    d = BotDriver(
        "t", game, game.spec.id, 2, {}, 11, pool, 1.0, current, seats_, takeover, act, spawn
    )
    return d, current, acted, tasks, seats_


def test_the_driver_plays_a_bot_seat_from_its_view_and_the_pools_answer() -> None:
    st = make("dragon-race", players=2).new_game(5)
    first = str(st.legal_actions(0)[-1])
    pool = FakePool([first])
    seats = [StoredSeat(0, "bot", "B", "heuristic", {}), StoredSeat(1, "human", "P")]

    async def main() -> None:
        d, _, acted, tasks, _ = driver(pool, seats)
        d.kick()
        d.kick()  # a second kick while the bots are at it starts nothing
        await asyncio.gather(*tasks)
        assert len(tasks) == 1
        assert acted[0] == (0, 0, first)
        job = pool.jobs[0]
        assert job.legal == tuple(str(a) for a in st.legal_actions(0))
        assert job.view == st.view(0) and job.level == "heuristic"

    asyncio.run(main())


def test_a_bot_cut_for_time_or_failing_still_moves() -> None:
    seats = [StoredSeat(0, "human", "P"), StoredSeat(1, "human", "Q")]

    async def main() -> None:
        pool = FakePool([BotTimeout("too slow"), RuntimeError("broken")])
        d, _, acted, tasks, s = driver(pool, seats, takeover="heuristic")
        s[0].bot_playing = True  # an away person's seat, taken over
        d.kick()
        await asyncio.gather(*tasks)
        assert pool.jobs[0].level == "heuristic"
        assert acted and acted[0][0] == 0
        assert acted[0][2] in pool.jobs[0].legal  # a seeded random move, not nothing

    asyncio.run(main())


def test_no_bot_is_asked_for_a_persons_seat() -> None:
    pool = FakePool([])
    seats = [StoredSeat(0, "human", "P"), StoredSeat(1, "bot", "B", "random", {})]

    async def main() -> None:
        d, _, acted, tasks, _ = driver(pool, seats)
        d.kick()  # seat 0, a person's, is asked: nothing to do
        assert tasks == [] and acted == [] and pool.jobs == []

    asyncio.run(main())


def test_the_server_modules_import_one_another_in_no_circle() -> None:
    """Counting deferred and type-only imports too: a circle among ``dragonlair.web``'s
    modules (the connection, the table, the lobby, the metrics...) is a finding."""
    root = Path(dragonlair.web.__file__).parent
    names = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        parts = parts[:-1] if parts[-1] == "__init__" else parts
        names[".".join(("dragonlair.web", *parts))] = path
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
                for alias in node.names:
                    full = f"{module}.{alias.name}"
                    found.add(full if full in names else module)
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
        graph[name] = {m for m in found if m in names and m != name}

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            for n in graph[todo.pop()]:
                if n == goal:
                    return True
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return False

    assert len(graph) > 20
    circles = sorted(m for m in graph if reaches(m, m))
    assert circles == [], f"modules on an import circle: {circles}"
