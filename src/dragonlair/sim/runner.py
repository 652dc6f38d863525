"""Seeded batches of bot games, spread over processes, with the same results on any number.

A :class:`Job` says what to play: a game, its player count and options, one bot spec per
entry, how many games and the run's seed. Game ``i`` is fully determined by the job and
``i``: its seed is ``derive_seed(seed, i)``, seat ``s``'s bot gets its own generator
seeded with ``derive_seed(seed, i, 1 + s)`` (when the bot first draws from it:
:class:`SeededOnUse`), and (in a tournament, ``rotate=True``) seat
``s`` is played by entry ``(s + i) mod N``, so over any N consecutive games every entry
plays every seat once. Nothing depends on which process plays a game or when, so the
outcomes, sorted by index, are identical whatever the number of workers (bots with a time
budget are the exception: how far they search depends on the machine).

Processes come from :mod:`multiprocessing` (a ``Pool`` whose workers build the game and the
bots once, from the job, in their initializer). Work goes out as chunks of consecutive
game indices, sized as the run goes to take about :data:`CHUNK_SECONDS` each (one game at
first, fewer towards the end), with two chunks per worker in flight; outcomes come back as
small values. So sending work and collecting results stays a small part of the time even
for games that take a fraction of a millisecond, while slow games (a searching bot) still
report each game as it finishes. With one worker everything runs in this process. On Linux a
single-threaded process forks its workers, so games and heuristics registered at run time (a
designer's variant, our tests' example game) are known to them; a process running other
threads, which cannot fork safely, starts them from a fork server and hands them the job's
registered game. Elsewhere they are spawned, with the registered game handed over too.

Ctrl-C stops the run cleanly and :func:`run` returns the games that finished with
``interrupted=True``. With one worker it is the usual ``KeyboardInterrupt``, which also
ends the game in progress. With several, workers ignore SIGINT and, while the pool runs,
Ctrl-C only sets a flag that the loop collecting results looks at between waits of
:data:`POLL_SECONDS`; then nothing more is handed out, the chunks in flight are let end
(and kept), and the pool is closed; workers still playing after :data:`DRAIN_SECONDS` are
terminated. A flag rather than the exception: a
``KeyboardInterrupt`` that happens to be raised while the interpreter runs a finalizer or
a callback is printed and dropped, and the run would go on.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import queue
import random
import signal
import sys
import threading
from collections.abc import Callable, Collection, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from time import perf_counter, process_time
from typing import Any

from ..bots import Bot, BotSpec
from ..core import Action, DragonlairError, Game, Result, State, derive_seed, make
from ..core.bot import NO_VIEW
from ..core.manifest import GameManifest, register, registered_manifest
from ..core.rng import derive_seeds
from ..core.spec import OptionValue
from .features import game_data, hooks

# About how long a chunk of games handed to a worker should take: long enough that sending
# chunks and their outcomes costs little, short enough for a smooth progress bar and for
# Ctrl-C to lose little work.
CHUNK_SECONDS = 0.25
# How often the loop collecting results looks for a Ctrl-C while it waits.
POLL_SECONDS = 0.1
# How long a stopped run waits for the chunks in flight before it terminates the workers.
DRAIN_SECONDS = 5.0


class SimulationError(DragonlairError):
    """A game of a batch failed (a bot's illegal move, a game's bug); says how to replay it."""


@dataclass(frozen=True)
class Job:
    """What a batch plays; every game follows from this and its index."""

    game: str
    players: int
    bots: tuple[BotSpec, ...]
    n: int
    seed: int
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    rotate: bool = False
    records: bool = False
    data: bool = True  # the game's rich per-game data (see features.game_data)

    def game_seed(self, index: int) -> int:
        """The seed of game ``index``."""
        return derive_seed(self.seed, index)

    def bot_seeds(self, index: int) -> list[int]:
        """By seat, the seed of the generator its bot uses in game ``index``: seat ``s``'s
        is ``derive_seed(seed, index, 1 + s)``."""
        return derive_seeds(self.seed, (index,), range(1, self.players + 1))

    def lineup(self, index: int) -> tuple[int, ...]:
        """The entry (index into ``bots``) that plays each seat in game ``index``."""
        n = self.players
        if not self.rotate:
            return tuple(range(n))
        r = index % n
        return tuple((s + r) % n for s in range(n))

    def labels(self, index: int) -> tuple[str, ...]:
        """The bot label of each seat in game ``index``."""
        return tuple(self.bots[e].text for e in self.lineup(index))

    def make_game(self) -> Game:
        """The game this job plays (validated: a bad id, player count or option raises)."""
        return make(self.game, players=self.players, options=dict(self.options))


@dataclass(frozen=True, slots=True)
class Outcome:
    """One finished game: what the results file keeps per row."""

    index: int
    seed: int
    lineup: tuple[int, ...]
    points: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    length: int
    reason: str
    record: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)

    def share(self, seat: int) -> float:
        """The seat's share of the win: 1, 1/k for a win shared by k seats, or 0."""
        return Result(self.points, self.ranks, self.winners).win_share(seat)


@dataclass
class RunResult:
    """The finished games of a run, in index order; ``interrupted`` if Ctrl-C stopped it."""

    job: Job
    outcomes: list[Outcome]
    interrupted: bool = False
    seconds: float = 0.0
    played: int = -1  # games played by this run (-1: as many as there are outcomes)
    # CPU seconds the games took in the processes that played them (this one's with one
    # worker; the workers' or Ray tasks' otherwise), the sending of work and results left out
    play_cpu_s: float = 0.0

    def __post_init__(self) -> None:
        if self.played < 0:
            self.played = len(self.outcomes)


def play_game(job: Job, game: Game, bots: Sequence[Bot], index: int) -> Outcome:
    """Play game ``index`` of ``job`` to the end with ``bots`` (one per entry)."""
    seed = job.game_seed(index)
    lineup = job.lineup(index)
    state = game.new_game(seed=seed)
    # each seat's generator, seeded with its seed from job.bot_seeds when first drawn from
    rngs = [SeededOnUse(s) for s in job.bot_seeds(index)]
    seat_bots = [bots[e] for e in lineup]
    # view_for(bot, state, seat), inline: a view is built only for a bot that reads one
    reads_view = [b.reads_view for b in seat_bots]
    seat_view, no_view = state.seat_view, NO_VIEW
    # every action with its seat, for the per-game data only
    played: list[tuple[int, Action]] | None = [] if job.data else None
    module, position = hooks(game) if job.data else (None, None)
    # the game's own standing before the first decision and after each, where its features
    # module has one: the checkpoints then need no replay (features.game_data)
    standing: Callable[[State], list[float]] | None = getattr(module, "standing", None)
    standings: list[list[float]] | None = None if standing is None else [standing(state)]
    # and where the game stands (a round, a pick), for the checkpoints' names
    stage: Callable[[State], int] | None = getattr(module, "stage", None)
    stages: list[int] | None = None if stage is None else [stage(state)]
    legal_actions, apply = state.legal_actions, state.apply  # bound once, called per decision
    while not state.is_over:
        seat = state.to_act[0]
        legal = legal_actions(seat)
        try:
            if len(legal) == 1:
                action = legal[0]
            else:
                view = seat_view(seat) if reads_view[seat] else no_view
                action = seat_bots[seat].choose(view, legal, rngs[seat])
            apply(seat, action)
            if played is not None:
                played.append((seat, action))
                if standing is not None and standings is not None:
                    standings.append(standing(state))
                if stage is not None and stages is not None:
                    stages.append(stage(state))
        except Exception as e:
            raise SimulationError(
                f"game {index} (seed {seed}) failed at move {state.move}, seat {seat} "
                f"played by {job.bots[lineup[seat]].text}: {type(e).__name__}: {e}"
            ) from e
    result = state.result
    assert result is not None
    return Outcome(
        index=index,
        seed=seed,
        lineup=lineup,
        points=tuple(result.points),
        ranks=tuple(result.ranks),
        winners=tuple(result.winners),
        length=state.move,
        reason=result.reason,
        record=state.record.to_json() if job.records else None,
        data=(
            game_data(game, state, played, module, position, standings, stages)
            if played is not None
            else {}
        ),
    )


class SeededOnUse(random.Random):
    """``random.Random(seed)``, seeded only when first used.

    Seeding a Mersenne Twister costs about as much as a few decisions, and a game seeds
    one generator per seat, most of which many bots never draw from (a Dragon Stripes
    heuristic never does). This one is made unseeded; the first call that needs its state
    (a draw, ``getstate``, ``seed``, ``setstate``, pickling or copying) seeds it and turns
    it into a plain ``random.Random``, so every draw, and everything a bot does with it,
    is the same as with ``random.Random(seed)`` made up front (``tests/sim`` holds the two
    to each other)."""

    def __init__(self, seed: int) -> None:  # unseeded: see _seeded
        self._seed_on_use = seed
        self.gauss_next = None  # what random.Random.__init__ sets besides the seed

    # everything else random.Random does goes through these (and _randbelow, which
    # random.Random picks by which of them a subclass defines: getrandbits, as its own)

    def random(self) -> float:
        return _seeded(self).random()

    def getrandbits(self, k: int, /) -> int:
        return _seeded(self).getrandbits(k)

    def getstate(self) -> tuple[Any, ...]:
        return _seeded(self).getstate()

    def setstate(self, state: tuple[Any, ...]) -> None:
        _seeded(self).setstate(state)

    def seed(self, a: Any = None, version: int = 2) -> None:
        # random.Random.__new__ does not call this, so only a caller does: seed as asked
        _seeded(self).seed(a, version)

    def __reduce__(self) -> str | tuple[Any, ...]:
        return _seeded(self).__reduce__()


def _seeded(rng: random.Random) -> random.Random:
    """``rng`` seeded, if it is a :class:`SeededOnUse` not seeded yet (a method bound
    before, such as the one ``randrange`` loops on, may still call this after)."""
    seed = rng.__dict__.pop("_seed_on_use", None)
    if seed is not None:
        rng.__class__ = random.Random
        random.Random.seed(rng, seed)
    return rng


def make_bots(job: Job, game: Game) -> list[Bot]:
    """One bot per entry of ``job``; raises UnknownBot for a bad level or parameter."""
    return [spec.make(game) for spec in job.bots]


# ---------------------------------------------------------------------- worker processes

# What a worker process plays with, built once by its initializer.
_worker: list[tuple[Job, Game, list[Bot]]] = []


def _init_worker(job: Job, registered: GameManifest | None = None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # forked while the parent's handler was set: the pool stops workers with SIGTERM
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if registered is not None:
        register(registered)
    game = job.make_game()
    _worker[:] = [(job, game, make_bots(job, game))]


def _play_chunk(indices: Sequence[int]) -> tuple[list[Outcome], float, float]:
    """The games ``indices``, with the wall-clock and CPU seconds they took."""
    job, game, bots = _worker[0]
    start, cpu = perf_counter(), process_time()
    played = [play_game(job, game, bots, i) for i in indices]
    return played, perf_counter() - start, process_time() - cpu


def chunk_size(per_game: float | None, remaining: int, workers: int) -> int:
    """How many games to hand a worker next: about CHUNK_SECONDS of play once the time per
    game is known (one game until then), and smaller towards the end so the workers finish
    together."""
    if per_game is None:
        return 1
    size = int(CHUNK_SECONDS / max(per_game, 1e-9))
    return max(1, min(size, remaining // (2 * workers)))


def _single_threaded() -> bool:
    """Whether this process runs one thread, native ones counted (a library's thread pool,
    such as JAX's or a BLAS's, is invisible to ``threading``): the kernel's list of the
    process's tasks, on Linux."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return threading.active_count() == 1


def _context(job: Job) -> tuple[Any, GameManifest | None]:
    """Where the workers come from, and the job's game's run-time registration (if any)
    that they must make again because they do not inherit it.

    Forking copies the whole process, run-time registrations included, and is the quickest
    start, but only a process with a single thread may fork: a thread holding a lock (of
    the allocator, of logging, of an import) when the fork happens leaves the child waiting
    for it forever. So a process running other threads (a server's, a test runner's, a
    library's native pool) starts its workers from a fork server, a clean single-threaded
    process, and hands them the job's game's registered manifest to register again; if that manifest
    cannot be pickled (defined inside a function), forking is the only way to reach it."""
    if not sys.platform.startswith("linux"):
        return multiprocessing.get_context("spawn"), registered_manifest(job.game)
    if _single_threaded():
        return multiprocessing.get_context("fork"), None
    m = registered_manifest(job.game)
    if m is not None:
        try:
            pickle.dumps(m)
        except (pickle.PicklingError, AttributeError, TypeError):
            return multiprocessing.get_context("fork"), None
    ctx = multiprocessing.get_context("forkserver")
    # the fork server imports the engine once; each worker then starts with it loaded
    ctx.set_forkserver_preload([__name__])
    return ctx, m


def run(
    job: Job,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    sink: Callable[[list[Outcome]], None] | None = None,
    skip: Collection[int] = (),
    keep: bool = True,
    ray: Ray | None = None,
) -> RunResult:
    """Play every game of ``job`` except those in ``skip`` over ``workers`` processes.

    As games finish, ``sink(batch)`` is handed them (in the order they finish, a batch at a
    time) and ``progress(k)`` is told how many. With ``keep=False`` the outcomes are not
    also kept in the result, so memory stays flat however many games are played. Ctrl-C or
    SIGTERM ends the run early, keeping what finished. With ``ray``, the chunks of games
    are Ray tasks on that cluster instead of local processes (the same outcomes)."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a whole number >= 1, not {workers!r}")
    game = job.make_game()
    bots = make_bots(job, game)
    skipped = set(skip)
    pending = [i for i in range(job.n) if i not in skipped]
    outcomes: list[Outcome] = []
    played = 0
    play_cpu = [0.0]
    interrupted = False
    start = perf_counter()

    def take(batch: list[Outcome], counted: bool = False) -> None:
        nonlocal played
        if sink is not None:
            sink(batch)
        if keep:
            outcomes.extend(batch)
        played += len(batch)
        if progress is not None and not counted:
            progress(len(batch))

    try:
        if ray is not None:
            with (
                _stop_signals() as stop,
                contextlib.closing(_parallel_ray(job, pending, ray, stop, play_cpu)) as batches,
            ):
                for b in batches:
                    take(b)
                interrupted = stop.is_set() and played < len(pending)
        elif workers == 1 or len(pending) <= 1:
            # in this process: progress per game, the sink a batch of games at a time
            with _Interrupts().running() as interrupts:
                batch: list[Outcome] = []
                since = perf_counter()
                cpu = process_time()
                try:
                    for i in pending:
                        batch.append(play_game(job, game, bots, i))
                        if progress is not None:
                            progress(1)
                        if perf_counter() - since >= CHUNK_SECONDS:
                            with interrupts.held():
                                handed, batch = batch, []
                                take(handed, counted=True)
                            since = perf_counter()
                finally:
                    play_cpu[0] = process_time() - cpu
                    if batch:
                        with interrupts.held():
                            take(batch, counted=True)
        else:
            with (
                _stop_signals() as stop,
                contextlib.closing(_parallel(job, pending, workers, stop, play_cpu)) as batches,
            ):
                for b in batches:
                    take(b)
                interrupted = stop.is_set() and played < len(pending)
    except KeyboardInterrupt:
        interrupted = True
    outcomes.sort(key=lambda o: o.index)
    return RunResult(job, outcomes, interrupted, perf_counter() - start, played, play_cpu[0])


class _Interrupts:
    """While a run plays in this process, Ctrl-C (SIGINT) and SIGTERM raise
    ``KeyboardInterrupt`` in the main thread, the way Ctrl-C does, except inside
    :meth:`held` (a batch being written): there the signal waits, and is raised when the
    block ends, never between a game counted as written and its row, nor before the batch
    handed over is forgotten (a handler, not a signal mask: a signal sent to the process may
    be delivered to any of its threads)."""

    def __init__(self) -> None:
        self.holding = False
        self.waiting = False

    def _raise(self, signum: int, frame: object) -> None:
        if self.holding:
            self.waiting = True
            return
        raise KeyboardInterrupt

    @contextlib.contextmanager
    def running(self) -> Iterator[_Interrupts]:
        if threading.current_thread() is not threading.main_thread():
            yield self
            return
        previous = {sig: signal.signal(sig, self._raise) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield self
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        self.holding = True
        try:
            yield
        finally:
            self.holding = False
        if self.waiting:
            self.waiting = False
            raise KeyboardInterrupt


@contextlib.contextmanager
def _stop_signals() -> Iterator[threading.Event]:
    """An event that Ctrl-C (SIGINT) or SIGTERM sets while the block runs, instead of
    raising. Outside the main thread, where no signal handler can be set, Ctrl-C stays a
    ``KeyboardInterrupt``."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    previous = {
        sig: signal.signal(sig, lambda signum, frame: stop.set())
        for sig in (signal.SIGINT, signal.SIGTERM)
    }
    try:
        yield stop
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _parallel(
    job: Job, pending: Sequence[int], workers: int, stop: threading.Event, cpu: list[float]
) -> Generator[list[Outcome], None, None]:
    """The outcomes of the ``pending`` games of ``job`` in batches as workers finish them,
    until all are played or ``stop`` is set (then the chunks in flight end, and their
    batches are the last); the CPU seconds the workers took for them are added to
    ``cpu[0]``."""
    total = len(pending)
    ctx, registered = _context(job)
    pool = ctx.Pool(min(workers, total), initializer=_init_worker, initargs=(job, registered))
    done: queue.SimpleQueue[tuple[list[Outcome], float, float] | BaseException] = (
        queue.SimpleQueue()
    )
    following = 0  # the first game not yet handed out
    in_flight = 0
    per_game: float | None = None
    failed: BaseException | None = None
    try:
        while True:
            while not stop.is_set() and following < total and in_flight < 2 * workers:
                size = chunk_size(per_game, total - following, workers)
                chunk = pending[following : following + size]
                pool.apply_async(_play_chunk, (chunk,), callback=done.put, error_callback=done.put)
                following += len(chunk)
                in_flight += 1
            if not in_flight:
                break
            if stop.is_set():
                # Ctrl-C or SIGTERM: nothing more is handed out, and the chunks in flight
                # (two per worker at most, a quarter of a second each) are let end and kept,
                # for the reason given for a failed game below; a chunk still running after
                # DRAIN_SECONDS (a slow game) has the workers terminated.
                try:
                    item = done.get(timeout=DRAIN_SECONDS)
                except queue.Empty:
                    pool.terminate()
                    return
            else:
                got = _wait(done, stop)
                if got is None:
                    continue
                item = got
            in_flight -= 1
            if isinstance(item, BaseException):
                # A game failed: the chunks in flight (two per worker at most, a quarter of
                # a second each) are let end rather than the workers terminated, since a
                # worker killed while it sends a result leaves the pool's lock on its
                # results held, and terminate() then waited on it (minutes, or for ever).
                failed = item
                break
            batch, seconds, chunk_cpu = item
            per_game = seconds / len(batch)
            cpu[0] += chunk_cpu
            yield batch
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()
    if failed is not None:
        raise failed


def _wait(
    done: queue.SimpleQueue[tuple[list[Outcome], float, float] | BaseException],
    stop: threading.Event,
) -> tuple[list[Outcome], float, float] | BaseException | None:
    """The next finished chunk (or a worker's error), or None once ``stop`` is set."""
    while not stop.is_set():
        try:
            return done.get(timeout=POLL_SECONDS)
        except queue.Empty:
            pass
    return None


# ---------------------------------------------------------------------- Ray


@dataclass(frozen=True)
class Ray:
    """Where to run on Ray: ``address`` of a running cluster (``ray start --head`` prints
    it; ``"auto"`` finds one on this machine), or None to start a local one for the run
    with ``cpus`` CPUs (None: all of them)."""

    address: str | None = None
    cpus: int | None = None


# What a Ray worker process plays with, built once per job.
_ray_cache: dict[str, tuple[Game, list[Bot]]] = {}


def _ray_chunk(job: Job, indices: Sequence[int]) -> tuple[list[Outcome], float, float]:
    """A Ray task: play games ``indices`` of ``job`` (the game and bots built once per
    worker process and job), with the wall-clock and CPU seconds they took."""
    key = repr(job)
    cached = _ray_cache.get(key)
    if cached is None:
        game = job.make_game()
        cached = (game, make_bots(job, game))
        _ray_cache.clear()
        _ray_cache[key] = cached
    game, bots = cached
    start, cpu = perf_counter(), process_time()
    played = [play_game(job, game, bots, i) for i in indices]
    return played, perf_counter() - start, process_time() - cpu


def _ray_module() -> Any:
    try:
        import ray
    except ImportError:
        raise SimulationError(
            "--ray needs ray: install dragonlair with the sim extra (pip install 'dragonlair[sim]')"
        ) from None
    return ray


def _parallel_ray(
    job: Job, pending: Sequence[int], where: Ray, stop: threading.Event, cpu: list[float]
) -> Generator[list[Outcome], None, None]:
    """The outcomes of the ``pending`` games of ``job`` as Ray tasks finish them, chunks
    sized as for local workers with two per cluster CPU in flight, until all are played or
    ``stop`` is set (then the tasks in flight are cancelled); the tasks' CPU seconds are
    added to ``cpu[0]``."""
    ray = _ray_module()
    started = False
    if not ray.is_initialized():
        try:
            ray.init(
                address=where.address,
                num_cpus=where.cpus if where.address is None else None,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise SimulationError(
                f"cannot reach the Ray cluster at {where.address}: {e}"
                if where.address
                else f"cannot start a local Ray cluster: {e}"
            ) from None
        started = True
    try:
        task = ray.remote(_ray_chunk)
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        job_ref = ray.put(job)
        total = len(pending)
        following = 0
        per_game: float | None = None
        in_flight: list[Any] = []
        while True:
            while following < total and len(in_flight) < 2 * cpus:
                size = chunk_size(per_game, total - following, cpus)
                chunk = list(pending[following : following + size])
                in_flight.append(task.remote(job_ref, chunk))
                following += len(chunk)
            if not in_flight:
                break
            ready: list[Any] = []
            while not ready:
                if stop.is_set():
                    for ref in in_flight:
                        ray.cancel(ref, force=True)
                    return
                ready, in_flight = ray.wait(in_flight, num_returns=1, timeout=POLL_SECONDS)
            try:
                batch, seconds, chunk_cpu = ray.get(ready[0])
            except ray.exceptions.RayTaskError as e:
                cause = e.as_instanceof_cause()
                raise (
                    cause if isinstance(cause, SimulationError) else SimulationError(str(e))
                ) from None
            per_game = seconds / len(batch)
            cpu[0] += chunk_cpu
            yield batch
    finally:
        if started:
            ray.shutdown()
