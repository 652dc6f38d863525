"""Seeded batches: the same games whatever the number of workers, rotation, records,
Ctrl-C keeping what finished, and failures that say how to replay them."""

from __future__ import annotations

import multiprocessing.pool
import os
import random
import signal
import threading
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import dragonlair
from dragonlair.bots import Bot, parse_bots
from dragonlair.core import derive_seed
from dragonlair.core.manifest import registered_manifest
from dragonlair.sim import Job, SimulationError, play_game, run, runner
from dragonlair.sim.runner import SeededOnUse, _context, chunk_size, make_bots
from tests.core.pebble_auction.heuristic import PebbleHeuristic
from tests.core.pebble_auction.manifest import heuristic

GAME = "pebble-auction"


def job(
    n: int = 24,
    bots: str = "ismcts:iterations=8,heuristic,random",
    players: int = 3,
    rotate: bool = False,
    records: bool = False,
) -> Job:
    specs = tuple(parse_bots(bots, players))
    return Job(GAME, players, specs, n=n, seed=7, rotate=rotate, records=records)


def test_the_same_games_whatever_the_number_of_workers() -> None:
    j = job(records=True)
    one = run(j, workers=1)
    two = run(j, workers=2)
    assert not one.interrupted and not two.interrupted
    assert [o.index for o in one.outcomes] == list(range(j.n))
    assert one.outcomes == two.outcomes
    # the CPU time the games took where they were played: here, or in the workers
    assert one.play_cpu_s > 0 and two.play_cpu_s > 0
    # and each game can be played again on its own from the job and its index
    game = j.make_game()
    assert play_game(j, game, make_bots(j, game), 5) == one.outcomes[5]


def test_records_replay_to_the_same_result() -> None:
    j = job(n=4, records=True)
    for o in run(j).outcomes:
        assert o.record is not None
        state = dragonlair.replay(o.record)
        assert state.seed == o.seed == j.game_seed(o.index)
        result = state.result
        assert result is not None
        assert (result.points, result.ranks, state.move) == (o.points, o.ranks, o.length)


def test_rotation_seats_every_entry_at_every_seat_equally() -> None:
    j = job(n=12, bots="heuristic,random,random", rotate=True)
    outcomes = run(j).outcomes
    seats = Counter((s, o.lineup[s]) for o in outcomes for s in range(3))
    assert set(seats.values()) == {4} and len(seats) == 9
    assert job(rotate=False).lineup(5) == (0, 1, 2)
    assert j.labels(1) == ("random", "random", "heuristic")


def test_game_and_bot_seeds_follow_the_run_seed_and_index() -> None:
    j = job()
    assert j.game_seed(3) == j.game_seed(3) != j.game_seed(4)
    assert len({*j.bot_seeds(3), j.game_seed(3)}) == 4
    assert j.bot_seeds(3) == [derive_seed(j.seed, 3, 1 + s) for s in range(3)]
    other = Job(GAME, 3, j.bots, n=24, seed=8)
    assert other.game_seed(3) != j.game_seed(3)


def _uses(rng: random.Random) -> list[object]:
    """What a bot might do with its generator, and what comes of it."""
    draws = rng.randrange  # bound before the generator was first drawn from
    items = list(range(30))
    rng.shuffle(items)
    return [
        draws(1000),
        draws(7, 300, 3),
        rng.random(),
        rng.gauss(0.0, 1.0),
        rng.choice("abcdefgh"),
        items,
        rng.randbytes(5),
        rng.getrandbits(70),
        rng.getstate(),
    ]


@pytest.mark.parametrize(
    "first",
    [
        lambda r: r.random(),
        lambda r: r.randrange(10**20),
        lambda r: r.gauss(1.0, 2.0),
        lambda r: r.getstate(),
        lambda r: r.sample(range(50), 5),
    ],
)
def test_a_bots_generator_seeded_on_first_use_draws_as_if_seeded_up_front(first: Any) -> None:
    lazy, eager = SeededOnUse(derive_seed(7, 3, 2)), random.Random(derive_seed(7, 3, 2))
    assert first(lazy) == first(eager)
    assert type(lazy) is random.Random
    assert _uses(lazy) == _uses(eager)
    assert _uses(SeededOnUse(derive_seed(7, 3, 2))) == _uses(random.Random(derive_seed(7, 3, 2)))
    assert _uses(SeededOnUse(derive_seed(7, 3, 2))) != _uses(SeededOnUse(derive_seed(7, 3, 1)))


def test_a_bots_generator_not_yet_drawn_from_copies_reseeds_and_restores_as_random() -> None:
    import copy
    import pickle

    for again in (
        pickle.loads(pickle.dumps(SeededOnUse(derive_seed(5, 1, 1)))),
        copy.deepcopy(SeededOnUse(derive_seed(5, 1, 1))),
        copy.copy(SeededOnUse(derive_seed(5, 1, 1))),
    ):
        assert type(again) is random.Random
        assert _uses(again) == _uses(random.Random(derive_seed(5, 1, 1)))
    reseeded = SeededOnUse(derive_seed(5, 1, 1))
    reseeded.seed(42)
    assert _uses(reseeded) == _uses(random.Random(42))
    restored = SeededOnUse(derive_seed(5, 1, 1))
    restored.setstate(random.Random(9).getstate())
    assert _uses(restored) == _uses(random.Random(9))


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_keeps_the_games_that_finished(workers: int) -> None:
    j = job(n=400, bots="random")
    seen = []

    def progress(k: int) -> None:
        seen.append(k)
        if sum(seen) >= 40:
            raise KeyboardInterrupt

    result = run(j, workers=workers, progress=progress)
    assert result.interrupted
    indices = [o.index for o in result.outcomes]
    assert 40 <= len(indices) < j.n and indices == sorted(set(indices))
    full = run(job(n=400, bots="random")).outcomes
    assert all(o == full[o.index] for o in result.outcomes)


def test_a_real_ctrl_c_stops_the_workers_and_restores_the_handler() -> None:
    # With workers, SIGINT only sets a flag (an exception raised inside a finalizer would be
    # dropped); the run must still stop, keep what finished and put the handler back.
    j = job(n=100_000, bots="random")
    before = signal.getsignal(signal.SIGINT)
    seen = []

    def progress(k: int) -> None:
        seen.append(k)
        if len(seen) == 3:
            os.kill(os.getpid(), signal.SIGINT)

    result = run(j, workers=2, progress=progress)
    assert result.interrupted
    assert signal.getsignal(signal.SIGINT) is before
    indices = [o.index for o in result.outcomes]
    assert sum(seen[:3]) <= len(indices) < j.n and indices == sorted(set(indices))
    again = run(job(n=indices[-1] + 1, bots="random")).outcomes
    assert all(o == again[o.index] for o in result.outcomes)


def test_a_stopped_run_lets_the_chunks_in_flight_end_instead_of_terminating_the_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A worker terminated while it sends a result can leave the lock on the pool's results
    # held, and terminate() then waits on it: a stopped run closes the pool instead, once
    # the chunks in flight have ended, and keeps their games.
    terminated: list[bool] = []
    real = multiprocessing.pool.Pool.terminate

    def spy(pool: multiprocessing.pool.Pool) -> None:
        terminated.append(True)
        real(pool)

    monkeypatch.setattr(multiprocessing.pool.Pool, "terminate", spy)
    j = job(n=100_000, bots="random")
    seen: list[int] = []

    def progress(k: int) -> None:
        seen.append(k)
        if len(seen) == 3:
            os.kill(os.getpid(), signal.SIGINT)

    result = run(j, workers=2, progress=progress)
    assert result.interrupted and not terminated
    # what was in flight when Ctrl-C came was played to the end and kept
    assert len(seen) > 3 and len(result.outcomes) == sum(seen)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_while_a_batch_is_written_waits_for_the_batch(
    monkeypatch: pytest.MonkeyPatch, sig: int
) -> None:
    # In one process the signal raises KeyboardInterrupt; raised inside the sink it cut a
    # batch in two (a game counted as written without its row) and the batch was handed
    # over again. It waits until the sink has the whole batch, then stops the run.
    monkeypatch.setattr(runner, "CHUNK_SECONDS", 0.0)
    j = job(n=10_000, bots="random")
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    written: list[int] = []

    def sink(batch: Sequence[Any]) -> None:
        for k, o in enumerate(batch):
            if len(written) == 30 and k == 0:
                os.kill(os.getpid(), sig)
            written.append(o.index)

    result = run(j, sink=sink)
    assert result.interrupted
    assert written == sorted(set(written)) == [o.index for o in result.outcomes]
    assert 30 < len(written) < j.n
    assert {s: signal.getsignal(s) for s in before} == before


class Blunderer(Bot):
    """Plays an action that is not legal once the game is under way."""

    level = "heuristic"

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[dragonlair.Action], rng: random.Random
    ) -> dragonlair.Action:
        return dragonlair.Action("object") if view["move"] >= 6 else legal[0]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_failing_game_says_which_game_and_seed(workers: int) -> None:
    with (
        heuristic(GAME, Blunderer),
        pytest.raises(
            SimulationError,
            match=r"game \d \(seed \d+\) failed at move \d+, seat \d played by heuristic",
        ),
    ):
        run(job(n=4, bots="heuristic"), workers=workers)


def test_bad_worker_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="workers must be a whole number >= 1, not 0"):
        run(job(n=1), workers=0)


def test_chunks_grow_to_a_quarter_second_and_shrink_at_the_end() -> None:
    assert chunk_size(None, 1000, 2) == 1  # until a game has been timed
    assert chunk_size(0.001, 10_000, 2) == 250
    assert chunk_size(0.001, 400, 2) == 100  # the end is shared out
    assert chunk_size(0.001, 3, 2) == 1
    assert chunk_size(5.0, 100, 2) == 1  # slow games go one by one


def test_a_process_with_other_threads_starts_its_workers_from_a_fork_server() -> None:
    # Forking a process that runs other threads can leave a child waiting forever on a lock
    # a thread held; such a process starts workers from a fork server instead and hands
    # them the registered example game (with its test heuristic), which they cannot inherit.
    j = job()
    alone = run(j, workers=1)
    release = threading.Event()
    other = threading.Thread(target=release.wait, daemon=True)
    other.start()
    try:
        ctx, registered = _context(j)
        assert ctx.get_start_method() == "forkserver"
        assert registered is registered_manifest(GAME) is not None
        with_thread = run(j, workers=2)
    finally:
        release.set()
        other.join()
    assert not with_thread.interrupted
    assert with_thread.outcomes == alone.outcomes


def test_a_single_threaded_process_forks_its_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "_single_threaded", lambda: True)
    ctx, registered = _context(job())
    assert ctx.get_start_method() == "fork" and registered is None


def test_a_registered_game_that_cannot_be_pickled_is_still_forked() -> None:
    # a heuristic defined inside a function cannot reach a fork server's workers by pickle
    class LocalHeuristic(PebbleHeuristic):
        pass

    release = threading.Event()
    other = threading.Thread(target=release.wait, daemon=True)
    other.start()
    try:
        with heuristic(GAME, LocalHeuristic):
            ctx, registered = _context(job())
            assert ctx.get_start_method() == "fork" and registered is None
    finally:
        release.set()
        other.join()
