"""The speed benchmark behind ``dragonlair bench`` and ``make bench``.

For each game and player count it measures, through the public surface only:

- random playouts: games/s and decisions/s, where a decision is one applied player
  action and the loop asks ``to_act``, asks ``legal_actions``, picks with its own seeded
  generator and applies;
- clones/s of a mid-game state;
- bytes per state (everything a mid-game state holds that its game object does not) and
  bytes per clone (what a clone adds on top of the state it was cloned from).

When OpenSpiel is installed it runs the same loop, in the same process, on OpenSpiel's
C++ ``hearts`` and Python ``python_liars_poker`` (chance outcomes sampled by their
probabilities, counted as steps but not as decisions), so the ratios printed compare like
with like on whatever machine runs it. Hearts is measured again next to each of our games,
slice for slice (a slice of hearts, then a slice of ours, repeated), and each ratio is the
median of the per-slice ratios, so a change in the machine's load during the run moves
both sides of a ratio together. Rates are per second of this process's CPU time
(``time.process_time``), which other work on a shared machine disturbs far less than the
wall clock. Every figure is the median of several repetitions.

**The other build.** The rows above are of the build this process runs (``build``: pure
Python, or compiled with mypyc: ``dragonlair.COMPILED``). Given an interpreter that has the
other build installed (``other_python``; ``make bench`` passes ``.venv-compiled``'s), the
same playout and clone rows are measured again by that interpreter in a subprocess, each
with its own slices of hearts in between, so that pure, compiled and hearts are compared in
one run: the compiled build's speed-up over pure is the ratio of their ratios to hearts.
So are the rows of simulate's loop with bots (unless left out), each beside the other
build's own raw loop, and the RL rows (unless left out), each beside its own slices of
connect_four_v3.

Two more sections measure the services built on the engines:

- **ISMCTS**: simulations (search iterations) per second of our ISMCTS bot at a mid-game
  position of each game at its default player count (the first decision with a choice
  after the middle of a seeded random game), with uniformly random rollouts to the end
  and every seat searching (like for like with OpenSpiel's bot), and with the game's
  default configuration (what plain ``ismcts`` plays: the other seats playing the game's
  heuristic in the tree, and whatever the game declares, such as cut-off rollouts or
  paired evaluation, where a simulation is one playout of one root action). With OpenSpiel
  installed, the same run measures OpenSpiel's own Python ISMCTS
  (``open_spiel.python.algorithms.ismcts``, random-rollout evaluator, a fresh world
  sample per simulation) on its C++ ``hearts`` at a mid-game position, and prints our
  ratio to it.
- **simulate**: games per second of ``dragonlair.sim.run`` with random bots at the
  default player count, with one worker (in this process) and with two worker processes,
  on the same batch of games (sized to take about ``simulate_s`` seconds with one
  worker), and the speed-up; also the CPU time each run took (this process and its
  workers), whose ratio says what two idle cores would give on a busy machine.
- **bots in simulate**: decisions per second of simulate's game loop (``play_game``, without
  per-game data or records) with random bots and with the game's heuristic in every seat,
  and of the heuristic game with its per-game data and results row (as ``simulate`` plays
  by default), each next to the raw loop above, slice for slice, and how many times slower
  each is (median of the per-slice ratios). The raw loop picks at random, so those ratios
  include the bots' own choosing; the last ratio compares the heuristic game with its data
  and row against the raw loop **with the same heuristic bots** choosing
  (:func:`bot_playout`), which leaves the bots' cost on both sides: that is the ratio the
  workbench's target (within 3×) is about. Also the microseconds of one
  ``state.view(seat)`` at a mid-game state.
- **heuristic throughput**: ``throughput_games`` heuristic games of each game at its
  default player count, played as ``dragonlair simulate --bots heuristic -w 2 --out
  F.parquet`` plays them (two worker processes, the per-game data, every row streamed to
  the results file and counted into the summary, the Parquet file written at the end), with
  the wall clock, the CPU time of this process and its workers, and the load average. The
  workbench's target is :data:`THROUGHPUT_TARGET` games in :data:`THROUGHPUT_SECONDS`; a
  run of fewer games (the quick bench's) is extrapolated to it and says so. Two
  projections: by the wall clock (what this run got of a possibly busy machine) and by the
  CPU time over two cores (what two idle cores would give).
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from .core import DragonlairError, State, games, make
from .core.game import Game

if TYPE_CHECKING:
    from .accel.bench import AccelMeasure  # imports JAX: only with the accel extra


@dataclass
class Measure:
    """One benchmark line: a game (ours or a reference) at a player count."""

    name: str
    players: int
    games_per_s: float = 0.0
    decisions_per_s: float = 0.0
    steps_per_s: float = 0.0
    decisions_per_game: float = 0.0
    clones_per_s: float = 0.0
    state_bytes: int = 0
    clone_bytes: int = 0
    ratio_hearts: float | None = None
    clone_ratio_hearts: float | None = None
    ratio_liars_poker: float | None = None
    reference: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class SearchMeasure:
    """ISMCTS simulations per second at one position (ours, or OpenSpiel's on hearts)."""

    name: str
    players: int
    config: str
    sims_per_s: float = 0.0
    move: int = 0
    actions: int = 0
    ratio_openspiel: float | None = None
    reference: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class SimulateMeasure:
    """``simulate`` games per second with one worker and with two, on the same batch."""

    name: str
    players: int
    games: int = 0
    one_worker_games_per_s: float = 0.0
    two_workers_games_per_s: float = 0.0
    one_worker_cpu_s: float | None = None
    two_workers_cpu_s: float | None = None

    @property
    def speedup(self) -> float:
        """Wall-clock speed-up of two workers over one."""
        one = self.one_worker_games_per_s
        return self.two_workers_games_per_s / one if one else 0.0

    @property
    def cpu_efficiency(self) -> float | None:
        """CPU time of one worker over that of two workers and their parent: the speed-up
        two idle cores would give, divided by two. Unlike the wall-clock speed-up it does
        not depend on what else the machine runs."""
        one, two = self.one_worker_cpu_s, self.two_workers_cpu_s
        return one / two if one and two else None

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "speedup": self.speedup, "cpu_efficiency": self.cpu_efficiency}


@dataclass
class BotLoopMeasure:
    """Decisions per second of simulate's game loop with random bots and with the game's
    heuristic in every seat, next to the raw to_act/legal_actions/apply loop in the same
    run (slice for slice), how many times slower each is, and one ``state.view(seat)``."""

    name: str
    players: int
    raw_decisions_per_s: float = 0.0
    random_decisions_per_s: float = 0.0
    heuristic_decisions_per_s: float = 0.0
    random_slower: float = 0.0  # the raw loop's rate over the random bots' (median per slice)
    heuristic_slower: float = 0.0
    # the heuristic game with its per-game data (features, breakdown, snapshots) and its
    # results row built, as `dragonlair simulate` plays it by default
    features_decisions_per_s: float = 0.0
    features_slower: float = 0.0
    # the raw loop with the same heuristic bots choosing (the bots' own cost on both sides)
    # and how many times slower the game with its data and row is: the workbench's target
    raw_heuristic_decisions_per_s: float = 0.0
    features_over_raw_heuristic: float = 0.0
    view_us: float = 0.0  # one state.view(seat) at a mid-game state, in microseconds

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# The workbench's throughput target: this many heuristic games of every game, with their
# per-game data and the Parquet file, within this many seconds with THROUGHPUT_WORKERS.
THROUGHPUT_TARGET = 100_000
THROUGHPUT_SECONDS = 180.0
THROUGHPUT_WORKERS = 2


@dataclass
class ThroughputMeasure:
    """Heuristic games played as ``simulate --bots heuristic -w 2 --out F.parquet`` plays
    them: how long they took, and that time carried over to :data:`THROUGHPUT_TARGET`."""

    name: str
    players: int
    games: int = 0
    workers: int = THROUGHPUT_WORKERS
    seconds: float = 0.0  # wall clock, from the first game handed out to the file written
    cpu_s: float | None = None  # this process and its workers (None: not measurable here)
    load: float | None = None  # the 1-minute load average, mean of the start and the end
    target_games: int = THROUGHPUT_TARGET

    @property
    def extrapolated(self) -> bool:
        """Whether the target's figures are carried over from fewer games."""
        return self.games != self.target_games

    @property
    def target_s(self) -> float:
        """The target's games at this run's wall-clock rate."""
        return self.seconds * self.target_games / self.games if self.games else 0.0

    @property
    def target_idle_s(self) -> float | None:
        """The target's games on ``workers`` idle cores: the CPU time over the cores."""
        if self.cpu_s is None or not self.games:
            return None
        return self.cpu_s * self.target_games / self.games / self.workers

    def to_dict(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "extrapolated": self.extrapolated,
            "target_s": self.target_s,
            "target_idle_s": self.target_idle_s,
        }


@dataclass
class Settings:
    """How long to measure: ``slice_s`` of wall time per repetition, ``reps`` repetitions;
    ``simulate_s`` is the one-worker length of the batch the simulate speed-up runs
    (default: four slices)."""

    slice_s: float = 1.0
    reps: int = 5
    seed: int = 0
    games: list[str] | None = None
    players: list[int] | None = None
    references: bool = True
    ismcts: bool = True
    simulate: bool = True
    simulate_s: float | None = None
    other_python: str | None = None  # an interpreter with the other build (see above)
    bot_loops: bool = True  # simulate's loop with random and heuristic bots, and view costs
    rl: bool = True
    accel: bool = False  # the batched engines on JAX (dragonlair.accel.bench), with its extra
    # heuristic games of each game played as simulate plays them (ThroughputMeasure), when
    # ``throughput`` is set (some minutes a game at the target's count; make bench sets it)
    throughput: bool = False
    throughput_games: int = THROUGHPUT_TARGET

    @classmethod
    def quick(cls) -> Settings:
        return cls(slice_s=0.25, reps=3, throughput_games=2_000)


def build_name() -> str:
    """Which build this process runs: "compiled" (mypyc) or "pure"."""
    from . import COMPILED

    return "compiled" if COMPILED else "pure"


@dataclass
class Report:
    measures: list[Measure] = field(default_factory=list)
    searches: list[SearchMeasure] = field(default_factory=list)
    simulations: list[SimulateMeasure] = field(default_factory=list)
    bot_loops: list[BotLoopMeasure] = field(default_factory=list)
    throughput: list[ThroughputMeasure] = field(default_factory=list)
    rl: list[RLMeasure] = field(default_factory=list)
    accel: list[AccelMeasure] = field(default_factory=list)
    python: str = sys.version.split()[0]
    openspiel: str | None = None
    # whether OpenSpiel's games were measured as references (bench --no-references: not)
    references: bool = True
    build: str = field(default_factory=build_name)
    other_build: OtherBuild | None = None

    def references_text(self) -> str:
        """What the report says of OpenSpiel: its version, and whether its games were
        measured as references."""
        if self.openspiel is None:
            return "OpenSpiel not installed"
        if not self.references:
            return f"OpenSpiel {self.openspiel}, references not measured"
        return f"OpenSpiel {self.openspiel}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "python": self.python,
            "openspiel": self.openspiel,
            "references": self.references,
            "build": self.build,
            "other_build": None if self.other_build is None else self.other_build.to_dict(),
            "measures": [m.to_dict() for m in self.measures],
            "ismcts": [m.to_dict() for m in self.searches],
            "simulate": [m.to_dict() for m in self.simulations],
            "bot_loops": [m.to_dict() for m in self.bot_loops],
            "throughput": [m.to_dict() for m in self.throughput],
            "rl": [m.to_dict() for m in self.rl],
            "accel": [m.to_dict() for m in self.accel],
        }


CLOCK = time.process_time  # CPU seconds of this process: see the module docstring

# A slice of a playout loop: (games, decisions, steps, seconds) for about ``seconds``.
Slice = Callable[[float], tuple[int, int, int, float]]


@dataclass
class Reference:
    """OpenSpiel's hearts, measured again next to each of our games (every slice kept)."""

    playout: Slice
    clone: Callable[[], object]
    decisions_per_s: list[float] = field(default_factory=list)
    clones_per_s: list[float] = field(default_factory=list)


def _median_rate(run: Slice, s: Settings) -> tuple[float, float, float, float]:
    """Median games/s, decisions/s, steps/s over ``s.reps`` slices, and decisions/game."""
    g_rates, d_rates, st_rates, per_game = [], [], [], []
    for _ in range(s.reps):
        n_games, decisions, steps, elapsed = run(s.slice_s)
        g_rates.append(n_games / elapsed)
        d_rates.append(decisions / elapsed)
        st_rates.append(steps / elapsed)
        per_game.append(decisions / max(1, n_games))
    return (
        statistics.median(g_rates),
        statistics.median(d_rates),
        statistics.median(st_rates),
        statistics.median(per_game),
    )


def playout(game: Game, seed: int) -> Callable[[float], tuple[int, int, int, float]]:
    """The random-playout loop on one of our games, run for about ``seconds``."""

    def run(seconds: float) -> tuple[int, int, int, float]:
        rng = random.Random(seed)
        choice = rng.choice
        n_games = decisions = 0
        start = CLOCK()
        deadline = start + seconds
        i = seed
        while True:
            s = game.new_game(seed=i)
            i += 1
            while not s.is_over:
                to_act = s.to_act
                seat = to_act[0] if len(to_act) == 1 else choice(to_act)
                legal = s.legal_actions(seat)
                s.apply(seat, choice(legal))
                decisions += 1
            n_games += 1
            now = CLOCK()
            if now >= deadline:
                return n_games, decisions, decisions, now - start

    return run


def mid_game_state(game: Game, seed: int) -> State:
    """A state about halfway through a seeded random game."""
    rng = random.Random(seed)
    full = game.new_game(seed=seed)
    length = 0
    while not full.is_over:
        seat = rng.choice(full.to_act)
        full.apply(seat, rng.choice(full.legal_actions(seat)))
        length += 1
    rng = random.Random(seed)
    s = game.new_game(seed=seed)
    for _ in range(length // 2):
        seat = rng.choice(s.to_act)
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    return s


def clone_slice(clone: Callable[[], object], seconds: float) -> float:
    """Clones per second of ``clone`` over about ``seconds``."""
    n = 0
    start = CLOCK()
    deadline = start + seconds
    while True:
        for _ in range(1000):
            clone()
        n += 1000
        now = CLOCK()
        if now >= deadline:
            return n / (now - start)


def clone_rate(clone: Callable[[], object], s: Settings) -> float:
    return statistics.median(clone_slice(clone, s.slice_s / 2) for _ in range(s.reps))


def deep_size(root: object, exclude: set[int]) -> int:
    """Bytes of every object reachable from ``root`` except those in ``exclude`` (whose
    ids are added to ``exclude`` as they are counted, so shared objects count once)."""
    total = 0
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in exclude:
            continue
        exclude.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, list | tuple | set | frozenset):
            stack.extend(obj)
        elif not isinstance(obj, int | float | str | bytes | bool | type(None)):
            for klass in type(obj).__mro__:
                for name in klass.__dict__.get("__slots__", ()):
                    if hasattr(obj, name):
                        stack.append(getattr(obj, name))
            if hasattr(obj, "__dict__"):
                stack.append(obj.__dict__)
    return total


def _reachable(root: object) -> set[int]:
    seen: set[int] = set()
    deep_size(root, seen)
    return seen


def measure_game(
    game_id: str, players: int, s: Settings, hearts: Reference | None = None
) -> Measure:
    """One game at one player count; with ``hearts``, each slice of ours follows a slice
    of hearts and the ratios are medians of the per-slice ratios."""
    game = make(game_id, players=players)
    m = Measure(game_id, players)
    run = playout(game, s.seed)
    mid = mid_game_state(game, s.seed + 1)
    g_rates, d_rates, per_game, clones, ratios, clone_ratios = [], [], [], [], [], []
    for _ in range(s.reps):
        if hearts is not None:
            h = hearts.playout(s.slice_s)
            hearts.decisions_per_s.append(h[1] / h[3])
            hearts.clones_per_s.append(clone_slice(hearts.clone, s.slice_s / 2))
        n_games, decisions, _, elapsed = run(s.slice_s)
        g_rates.append(n_games / elapsed)
        d_rates.append(decisions / elapsed)
        per_game.append(decisions / max(1, n_games))
        clones.append(clone_slice(mid.clone, s.slice_s / 2))
        if hearts is not None:
            ratios.append(d_rates[-1] / hearts.decisions_per_s[-1])
            clone_ratios.append(clones[-1] / hearts.clones_per_s[-1])
    m.games_per_s = statistics.median(g_rates)
    m.decisions_per_s = m.steps_per_s = statistics.median(d_rates)
    m.decisions_per_game = statistics.median(per_game)
    m.clones_per_s = statistics.median(clones)
    if hearts is not None:
        m.ratio_hearts = statistics.median(ratios)
        m.clone_ratio_hearts = statistics.median(clone_ratios)
    shared = _reachable(game)
    m.state_bytes = deep_size(mid, set(shared))
    in_state = _reachable(mid) | shared
    m.clone_bytes = deep_size(mid.clone(), in_state)
    return m


def openspiel_version() -> str | None:
    try:
        import pyspiel
    except ImportError:
        return None
    return str(getattr(pyspiel, "__version__", "installed"))


def openspiel_playout(name: str, seed: int) -> tuple[Any, Slice]:
    """An OpenSpiel game and the same loop on it: chance outcomes sampled by probability,
    counted as steps but not as decisions."""
    import pyspiel

    if name.startswith("python_"):
        import open_spiel.python.games  # noqa: F401  (registers the Python games)

    game = pyspiel.load_game(name)

    def run(seconds: float) -> tuple[int, int, int, float]:
        rng = random.Random(seed)
        choice, choices = rng.choice, rng.choices
        n_games = decisions = steps = 0
        start = CLOCK()
        deadline = start + seconds
        while True:
            st = game.new_initial_state()
            while not st.is_terminal():
                if st.is_chance_node():
                    acts, probs = zip(*st.chance_outcomes(), strict=True)
                    st.apply_action(choices(acts, probs)[0])
                else:
                    st.apply_action(choice(st.legal_actions(st.current_player())))
                    decisions += 1
                steps += 1
            n_games += 1
            now = CLOCK()
            if now >= deadline:
                return n_games, decisions, steps, now - start

    return game, run


def openspiel_mid_state(game: Any, decisions: int, seed: int) -> Any:
    """An OpenSpiel state about ``decisions`` player decisions into a seeded random game."""
    st = game.new_initial_state()
    rng = random.Random(seed)
    done = 0
    while not st.is_terminal() and done < decisions:
        if st.is_chance_node():
            acts, probs = zip(*st.chance_outcomes(), strict=True)
            st.apply_action(rng.choices(acts, probs)[0])
        else:
            st.apply_action(rng.choice(st.legal_actions(st.current_player())))
            done += 1
    return st


def measure_openspiel(name: str, s: Settings) -> Measure:
    """The same loop on an OpenSpiel game, and clones of a mid-game state."""
    game, run = openspiel_playout(name, s.seed)
    m = Measure(name, game.num_players(), reference=True)
    m.games_per_s, m.decisions_per_s, m.steps_per_s, m.decisions_per_game = _median_rate(run, s)
    st = openspiel_mid_state(game, int(m.decisions_per_game) // 2, s.seed)
    m.clones_per_s = clone_rate(st.clone, s)
    return m


def hearts_reference(s: Settings) -> tuple[Measure, Reference]:
    """Hearts measured once on its own (its table row), and ready to be measured again
    next to each of our games."""
    m = measure_openspiel("hearts", s)
    game, run = openspiel_playout("hearts", s.seed)
    st = openspiel_mid_state(game, int(m.decisions_per_game) // 2, s.seed)
    return m, Reference(run, st.clone)


def run(s: Settings, progress: Callable[[str], None] | None = None) -> Report:
    """Measure every selected game and player count, and the references when available."""
    report = Report(openspiel=openspiel_version(), references=s.references)
    measure_refs = s.references and report.openspiel is not None
    refs: dict[str, Measure] = {}
    hearts: Reference | None = None
    if measure_refs:
        if progress:
            progress("hearts")
        refs["hearts"], hearts = hearts_reference(s)
        if progress:
            progress("python_liars_poker")
        refs["python_liars_poker"] = measure_openspiel("python_liars_poker", s)
    for game_id in s.games or games():
        spec = make(game_id).spec
        counts: Iterable[int] = s.players or range(spec.min_players, spec.max_players + 1)
        for n in counts:
            if not spec.min_players <= n <= spec.max_players:
                continue
            if progress:
                progress(f"{game_id} {n}p")
            m = measure_game(game_id, n, s, hearts)
            if "python_liars_poker" in refs:
                m.ratio_liars_poker = m.decisions_per_s / refs["python_liars_poker"].decisions_per_s
            report.measures.append(m)
    if hearts is not None and hearts.decisions_per_s:
        # the hearts row: every slice measured in the run, beside ours and on its own
        h = refs["hearts"]
        h.decisions_per_s = statistics.median([h.decisions_per_s, *hearts.decisions_per_s])
        h.clones_per_s = statistics.median([h.clones_per_s, *hearts.clones_per_s])
    report.measures.extend(refs.values())
    selected = s.games or games()
    if s.other_python is not None:
        if progress:
            progress(f"the other build, with {s.other_python}")
        report.other_build = measure_other_build(s.other_python, s)
    if s.ismcts:
        reference = None
        if measure_refs:
            if progress:
                progress("OpenSpiel ISMCTS on hearts")
            reference = measure_openspiel_ismcts(s)
        for game_id in selected:
            if progress:
                progress(f"{game_id} ISMCTS")
            for sm in measure_ismcts(game_id, s):
                if reference is not None:
                    sm.ratio_openspiel = sm.sims_per_s / reference.sims_per_s
                report.searches.append(sm)
        if reference is not None:
            report.searches.append(reference)
    if s.simulate:
        for game_id in selected:
            if progress:
                progress(f"{game_id} simulate, 1 and 2 workers")
            report.simulations.append(measure_simulate(game_id, s))
    if s.bot_loops:
        for game_id in selected:
            if progress:
                progress(f"{game_id} simulate with random and heuristic bots, and views")
            report.bot_loops.append(measure_bot_loops(game_id, s))
    if s.throughput and s.throughput_games > 0:
        for game_id in selected:
            if progress:
                progress(f"{game_id}: {s.throughput_games:,} heuristic games with 2 workers")
            measured = measure_throughput(game_id, s.throughput_games, s.seed)
            if measured is not None:
                report.throughput.append(measured)
    if s.rl:
        report.rl = run_rl(selected, s, progress)
    if s.accel:
        report.accel = run_accel(s, progress)
    return report


def run_accel(s: Settings, progress: Callable[[str], None] | None = None) -> list[AccelMeasure]:
    """The batched engines' rows, beside connect_four_v3 (none without the accel extra)."""
    try:
        from .accel import bench as accel_bench
    except ImportError:
        return []
    return accel_bench.measure(s.reps, s.slice_s, connect_four_slice(), progress=progress)


def run_rl(
    game_ids: Iterable[str], s: Settings, progress: Callable[[str], None] | None = None
) -> list[RLMeasure]:
    """The RL rows of every game with an observation layout (none without the ``rl``
    extra), and connect_four_v3's when PettingZoo's classic games can be imported."""
    try:
        from .rl import layout_ids
    except ImportError:
        return []
    with_layout = set(layout_ids())
    chosen = [g for g in game_ids if g in with_layout]
    if not chosen:
        return []
    connect_four = connect_four_slice()
    out = []
    for game_id in chosen:
        if progress:
            progress(f"{game_id} RL interfaces")
        out += measure_rl(game_id, s, connect_four)
    if connect_four is not None:
        out.append(connect_four_measure(connect_four, s))
    return out


# ---------------------------------------------------------------------- ISMCTS


def decision_state(game: Game, seed: int) -> State:
    """The first state from the middle of a seeded random game on where the seat asked
    first has a choice to make (a position worth searching)."""
    rng = random.Random(seed)
    s = mid_game_state(game, seed)
    while not s.is_over and len(s.legal_action_ids(s.to_act[0])) < 2:
        seat = s.to_act[0]
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    if s.is_over:
        s = game.new_game(seed=seed)
    return s


# The ISMCTS configuration that does what OpenSpiel's does: random rollouts to the end,
# every seat searching (with the generic exploration constant).
LIKE_OPENSPIEL = {"rollout": "random", "opponents": "search", "paired": False, "depth": None}


def default_label(game: Game) -> str:
    """How the game's default ISMCTS configuration differs from random rollouts with
    every seat searching, e.g. ``defaults (opponents=heuristic, depth=0)``."""
    from .bots.ismcts import Config, ISMCTSBot

    c = ISMCTSBot(game).config
    if c.paired:
        parts = ["paired"]
    else:
        parts = [f"opponents={c.opponents}"] if c.opponents != "search" else []
        if c.rollout != "random":
            parts.append(f"rollout={c.rollout}")
    if c.depth is not None:
        parts.append(f"depth={c.depth}")
    if c.c != Config.c:
        parts.append(f"c={c.c}")
    return f"defaults ({', '.join(parts)})" if parts else "defaults"


def measure_ismcts(game_id: str, s: Settings) -> list[SearchMeasure]:
    """Our ISMCTS at a mid-game position: random rollouts with every seat searching (like
    for like with OpenSpiel's bot), then the game's default configuration if different."""
    from .bots.ismcts import Config, ISMCTSBot

    game = make(game_id)
    state = decision_state(game, s.seed + 2)
    seat = state.to_act[0]
    view, legal = state.view(seat), state.legal_actions(seat)
    like = {**LIKE_OPENSPIEL, "c": Config.c}
    configs: list[tuple[str, dict[str, Any]]] = [("random rollouts", like)]
    label = default_label(game)
    if label != "defaults":
        configs.append((label, {}))
    out = []
    for name, params in configs:
        bot = ISMCTSBot(game, time=s.slice_s, iterations=None, **params)
        rates = [
            bot.search(view, legal, random.Random(s.seed + r)).per_second for r in range(s.reps)
        ]
        m = SearchMeasure(game_id, game.players, name, statistics.median(rates))
        m.move, m.actions = state.move, len(legal)
        out.append(m)
    return out


def measure_openspiel_ismcts(s: Settings) -> SearchMeasure:
    """OpenSpiel's Python ISMCTS on its C++ hearts, at a mid-game position."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("hearts")

    def play(limit: int | None) -> tuple[Any, int]:
        rng = random.Random(s.seed)
        st = game.new_initial_state()
        decisions = 0
        while not st.is_terminal() and (limit is None or decisions < limit):
            if st.is_chance_node():
                acts, probs = zip(*st.chance_outcomes(), strict=True)
                st.apply_action(rng.choices(acts, probs)[0])
            else:
                st.apply_action(rng.choice(st.legal_actions()))
                decisions += 1
        return st, decisions

    _, length = play(None)
    state, _ = play(length // 2)
    while not state.is_terminal() and len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])

    def bot(sims: int, r: int) -> Any:
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(s.seed + r))
        return ismcts.ISMCTSBot(
            game, evaluator, 2.0, sims, random_state=np.random.RandomState(s.seed + r)
        )

    start = time.perf_counter()
    bot(50, 0).step(state)
    per_sim = (time.perf_counter() - start) / 50
    sims = max(50, int(s.slice_s / per_sim))
    rates = []
    for r in range(s.reps):
        b = bot(sims, r)
        start = time.perf_counter()
        b.step(state)
        rates.append(sims / (time.perf_counter() - start))
    m = SearchMeasure("hearts (OpenSpiel ISMCTS)", game.num_players(), "random rollouts")
    m.sims_per_s = statistics.median(rates)
    m.move, m.actions, m.reference = length // 2, len(state.legal_actions()), True
    return m


# ---------------------------------------------------------------------- simulate


def measure_simulate(game_id: str, s: Settings) -> SimulateMeasure:
    """Games/s of ``dragonlair.sim.run`` with one and with two workers on the same batch."""
    from .bots import parse_bots
    from .sim import Job, run

    game = make(game_id)
    bots = tuple(parse_bots("random", game.players))

    def job(n: int) -> Job:
        return Job(game_id, game.players, bots, n=n, seed=s.seed)

    probe = run(job(20))
    per_game = probe.seconds / 20
    seconds = s.simulate_s if s.simulate_s is not None else 4 * s.slice_s
    n = max(40, int(seconds / max(per_game, 1e-6)))
    m = SimulateMeasure(game_id, game.players, games=n)
    cpu0 = _cpu_seconds()
    one = run(job(n), workers=1)
    cpu1 = _cpu_seconds()
    two = run(job(n), workers=2)
    cpu2 = _cpu_seconds()
    m.one_worker_games_per_s = n / one.seconds
    m.two_workers_games_per_s = n / two.seconds
    if cpu0 is not None and cpu1 is not None and cpu2 is not None:
        m.one_worker_cpu_s = cpu1 - cpu0
        m.two_workers_cpu_s = cpu2 - cpu1
    return m


def _cpu_seconds() -> float | None:
    """User and system CPU time of this process and its finished children (Unix only)."""
    try:
        import resource
    except ImportError:
        return None
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        r = resource.getrusage(who)
        total += r.ru_utime + r.ru_stime
    return total


def measure_throughput(game_id: str, games: int, seed: int = 0) -> ThroughputMeasure | None:
    """``games`` games of ``game_id`` at its default player count with its heuristic in
    every seat, played as ``dragonlair simulate --bots heuristic -w 2 --out F.parquet``
    plays them: :data:`THROUGHPUT_WORKERS` worker processes, the per-game data, each batch
    streamed to the results file and counted into the summary as it arrives, the Parquet
    file written at the end (in a temporary folder).
    The command's one-off imports (pyarrow) come before the clock starts. None for a
    game without a heuristic, or without pyarrow (the sim extra)."""
    import os
    import tempfile
    from pathlib import Path

    from .bots import BotSpec, heuristic_class
    from .sim.output import ResultsFile
    from .sim.runner import Job, Outcome
    from .sim.runner import run as run_job
    from .sim.stats import Tally

    game = make(game_id)
    try:
        heuristic_class(game)
    except DragonlairError:
        return None
    players = game.players
    job = Job(game_id, players, (BotSpec("heuristic"),) * players, n=games, seed=seed)
    # what the command imports once, however many games it plays, is imported before the
    # clock starts, so that it is not carried over to the target's games
    try:
        import pyarrow.compute
        import pyarrow.csv
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        return None  # Parquet files need the sim extra

    m = ThroughputMeasure(game_id, players, games=games)
    with tempfile.TemporaryDirectory() as folder:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
        cpu = time.process_time()
        start = time.perf_counter()
        results = ResultsFile(Path(folder) / "results.parquet", job)
        tally = Tally(game_id, players, {}, [b.text for b in job.bots])

        def sink(batch: list[Outcome]) -> None:
            results.add(batch)
            for o in batch:
                tally.add(job, o)

        try:
            played = run_job(job, workers=THROUGHPUT_WORKERS, sink=sink, keep=False)
        finally:
            results.close()
        m.seconds = time.perf_counter() - start
        # this process's (the file, the summary, handing out work) and the workers' games
        m.cpu_s = time.process_time() - cpu + played.play_cpu_s
        if load is not None:
            m.load = (load + os.getloadavg()[0]) / 2
    return m


# ---------------------------------------------------------------------- the other build


@dataclass
class OtherBuild:
    """The playout and clone rows of the other build, measured by ``python``, and its
    bot-loop and RL rows (connect_four_v3's included) when the run measures them."""

    python: str
    build: str
    version: str
    measures: list[Measure] = field(default_factory=list)
    bot_loops: list[BotLoopMeasure] = field(default_factory=list)
    rl: list[RLMeasure] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "python": self.python,
            "build": self.build,
            "version": self.version,
            "measures": [m.to_dict() for m in self.measures],
            "bot_loops": [m.to_dict() for m in self.bot_loops],
            "rl": [m.to_dict() for m in self.rl],
        }


class OtherBuildFailed(RuntimeError):
    """The other build's interpreter could not run its bench."""


def measure_other_build(python: str, s: Settings) -> OtherBuild:
    """``dragonlair bench --json`` run by ``python`` (an interpreter with the other build
    installed) on the same games, player counts and slices, without the ISMCTS and simulate
    sections (and without the bots and RL ones when this run leaves them out); its rows of
    our games (each with its own ratio to hearts), its bot-loop rows (each with its own raw
    loop) and its RL rows."""
    cmd = [python, "-m", "dragonlair", "bench", "--json", "--no-ismcts", "--no-simulate"]
    if not s.bot_loops:
        cmd.append("--no-bots")
    if not s.rl:
        cmd.append("--no-rl")
    cmd += ["--reps", str(s.reps), "--slice", str(s.slice_s)]
    if not s.references:
        cmd.append("--no-references")
    for g in s.games or []:
        cmd += ["--game", g]
    for n in s.players or []:
        cmd += ["--players", str(n)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        detail = getattr(e, "stderr", "") or str(e)
        raise OtherBuildFailed(f"the other build's bench failed ({python}): {detail}") from None
    doc = json.loads(done.stdout)
    fields = set(Measure.__dataclass_fields__)
    rows = [Measure(**{k: v for k, v in m.items() if k in fields}) for m in doc["measures"]]
    other = OtherBuild(python, doc.get("build", "pure"), doc["python"])
    other.measures = [m for m in rows if not m.reference]
    bot_fields = set(BotLoopMeasure.__dataclass_fields__)
    other.bot_loops = [
        BotLoopMeasure(**{k: v for k, v in m.items() if k in bot_fields})
        for m in doc.get("bot_loops", [])
    ]
    rl_fields = set(RLMeasure.__dataclass_fields__)
    other.rl = [
        RLMeasure(**{k: v for k, v in m.items() if k in rl_fields}) for m in doc.get("rl", [])
    ]
    return other


# ---------------------------------------------------------------------- bots in simulate


def simulate_loop(game: Game, level: str, seed: int, data: bool = False) -> Slice:
    """Simulate's own game loop (``dragonlair.sim.runner.play_game``, no records; the
    per-game data, and the results row built from it, only with ``data``) with a
    ``level`` bot in every seat, run for about ``seconds``."""
    from .bots import BotSpec
    from .sim.output import row
    from .sim.runner import Job, play_game

    bots_spec = (BotSpec(level),) * game.players
    job = Job(game.spec.id, game.players, bots_spec, n=1, seed=seed, data=data)
    bots = [spec.make(game) for spec in job.bots]

    def run(seconds: float) -> tuple[int, int, int, float]:
        n_games = decisions = 0
        start = CLOCK()
        deadline = start + seconds
        while True:
            outcome = play_game(job, game, bots, n_games)
            if data:
                row(job, outcome)
            decisions += outcome.length
            n_games += 1
            now = CLOCK()
            if now >= deadline:
                return n_games, decisions, decisions, now - start

    return run


def bot_playout(game: Game, level: str, seed: int) -> Slice:
    """The raw loop with a ``level`` bot in every seat: ``to_act``, ``legal_actions``, the
    bot's choice (not asked when one action is legal) and ``apply``, nothing else. It plays
    the games and makes the decisions simulate's loop does with the same seed (the same
    game seeds and per-seat generators), so beside that loop it leaves out only what the
    loop adds around the bots: per-game data, the results row and the checks."""
    from .bots import BotSpec
    from .core.bot import view_for
    from .sim.runner import Job, SeededOnUse

    job = Job(game.spec.id, game.players, (BotSpec(level),) * game.players, n=1, seed=seed)
    bots = [spec.make(game) for spec in job.bots]

    def run(seconds: float) -> tuple[int, int, int, float]:
        n_games = decisions = 0
        start = CLOCK()
        deadline = start + seconds
        while True:
            state = game.new_game(seed=job.game_seed(n_games))
            rngs = [SeededOnUse(s) for s in job.bot_seeds(n_games)]
            while not state.is_over:
                seat = state.to_act[0]
                legal = state.legal_actions(seat)
                if len(legal) == 1:
                    action = legal[0]
                else:
                    bot = bots[seat]
                    action = bot.choose(view_for(bot, state, seat), legal, rngs[seat])
                state.apply(seat, action)
                decisions += 1
            n_games += 1
            now = CLOCK()
            if now >= deadline:
                return n_games, decisions, decisions, now - start

    return run


def view_micros(state: State, seat: int, seconds: float) -> float:
    """Microseconds per ``state.view(seat)`` over about ``seconds``."""
    n = 0
    start = CLOCK()
    deadline = start + seconds
    while True:
        for _ in range(200):
            state.view(seat)
        n += 200
        now = CLOCK()
        if now >= deadline:
            return (now - start) / n * 1e6


def measure_bot_loops(game_id: str, s: Settings) -> BotLoopMeasure:
    """Simulate's loop with random and with heuristic bots against the raw loop, a slice of
    each in turn so that the machine's load moves all three together; and a view's cost."""
    from .bots import heuristic_class

    game = make(game_id)
    m = BotLoopMeasure(game_id, game.players)
    raw = playout(game, s.seed)
    loops = {"random": simulate_loop(game, "random", s.seed)}
    try:
        heuristic_class(game)
        loops["heuristic"] = simulate_loop(game, "heuristic", s.seed)
        loops["features"] = simulate_loop(game, "heuristic", s.seed, data=True)
        loops["raw_heuristic"] = bot_playout(game, "heuristic", s.seed)
    except DragonlairError:
        pass  # a game without a heuristic has the random row only
    rates: dict[str, list[float]] = {"raw": [], **{k: [] for k in loops}}
    slower: dict[str, list[float]] = {k: [] for k in loops}
    over_raw_heuristic: list[float] = []
    for _ in range(s.reps):
        _, d, _, t = raw(s.slice_s)
        rates["raw"].append(d / t)
        for level, loop in loops.items():
            _, d, _, t = loop(s.slice_s)
            rates[level].append(d / t)
            slower[level].append(rates["raw"][-1] / rates[level][-1])
        if "raw_heuristic" in loops:
            over_raw_heuristic.append(rates["raw_heuristic"][-1] / rates["features"][-1])
    m.raw_decisions_per_s = statistics.median(rates["raw"])
    m.random_decisions_per_s = statistics.median(rates["random"])
    m.random_slower = statistics.median(slower["random"])
    if "heuristic" in loops:
        m.heuristic_decisions_per_s = statistics.median(rates["heuristic"])
        m.heuristic_slower = statistics.median(slower["heuristic"])
        m.features_decisions_per_s = statistics.median(rates["features"])
        m.features_slower = statistics.median(slower["features"])
        m.raw_heuristic_decisions_per_s = statistics.median(rates["raw_heuristic"])
        m.features_over_raw_heuristic = statistics.median(over_raw_heuristic)
    mid = mid_game_state(game, s.seed + 1)
    seat = mid.to_act[0] if mid.to_act else 0
    m.view_us = statistics.median(view_micros(mid, seat, s.slice_s / 4) for _ in range(s.reps))
    return m


# ---------------------------------------------------------------------- RL interfaces


@dataclass
class RLMeasure:
    """One research-interface figure for a game: ``steps_per_s`` of CPU time (a step is
    one applied action of a PettingZoo AEC environment, or one table's step of a vector
    environment), its ratio to PettingZoo's ``connect_four_v3`` measured slice for slice
    beside it; or, for OpenSpiel, microseconds per information-state string."""

    name: str
    players: int
    interface: str
    steps_per_s: float = 0.0
    ratio_connect_four: float | None = None
    micros: float | None = None
    size: int | None = None
    reference: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


VECTOR_TABLES = 64  # tables per vector environment in the bench


def connect_four_slice() -> Slice | None:
    """PettingZoo's own ``connect_four_v3`` under :func:`aec_slice`'s loop (None when
    PettingZoo's classic games cannot be imported: they need pygame-ce)."""
    import warnings

    try:
        with warnings.catch_warnings():  # PettingZoo 1.27 deprecates its module names
            warnings.simplefilter("ignore", DeprecationWarning)
            from pettingzoo.classic.connect_four_v3 import env  # type: ignore[import-untyped]
    except ImportError:
        return None
    return aec_slice(env())


def aec_slice(env: Any, seed: int = 0) -> Slice:
    """Random legal actions through a PettingZoo AEC environment, the way its API is
    used (``agent_iter``, ``last``, a pick from the action mask, ``step``), whole games."""
    import numpy as np

    def run(seconds: float) -> tuple[int, int, int, float]:
        rng = random.Random(seed)
        env.reset(seed=seed)
        n_games = steps = 0
        start = CLOCK()
        deadline = start + seconds
        while True:
            for _ in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                else:
                    legal = np.flatnonzero(obs["action_mask"])
                    env.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
            n_games += 1
            now = CLOCK()
            if now >= deadline:
                return n_games, steps, steps, now - start
            env.reset()

    return run


def vector_slice(envs: Any, seed: int = 0) -> Slice:
    """Random legal actions at every table of a vector environment, picked in one batch
    from the masks (as a learner samples from a masked policy); steps are table steps."""
    import numpy as np

    def run(seconds: float) -> tuple[int, int, int, float]:
        rng = np.random.default_rng(seed)
        _, info = envs.reset(seed=seed)
        tables = len(info["action_mask"])
        steps = ended = 0
        start = CLOCK()
        deadline = start + seconds
        while True:
            for _ in range(10):
                mask = info["action_mask"]
                actions = np.argmax(np.where(mask > 0, rng.random(mask.shape), -1.0), axis=1)
                _, _, terms, truncs, info = envs.step(actions)
                ended += int(terms.sum() + truncs.sum())
            steps += 10 * tables
            now = CLOCK()
            if now >= deadline:
                return ended, steps, steps, now - start

    return run


def _beside(ours: Slice, reference: Slice | None, s: Settings) -> tuple[float, float | None]:
    """Median steps/s of ``ours``, and the median of its per-slice ratios to
    ``reference`` measured just before each slice."""
    rates, ratios = [], []
    for _ in range(s.reps):
        ref = reference(s.slice_s) if reference is not None else None
        _, _, steps, elapsed = ours(s.slice_s)
        rates.append(steps / elapsed)
        if ref is not None:
            ratios.append(rates[-1] / (ref[2] / ref[3]))
    return statistics.median(rates), statistics.median(ratios) if ratios else None


def measure_rl(game_id: str, s: Settings, connect_four: Slice | None) -> list[RLMeasure]:
    """A game through PettingZoo's AEC API, the PettingZoo-style and Gymnasium vector
    environments (``VECTOR_TABLES`` tables; Gymnasium's with random bots at the other
    seats), and the cost of OpenSpiel information-state strings."""
    from .rl.gymnasium_env import DragonlairVectorEnv
    from .rl.pettingzoo_env import env, vector_env

    game = make(game_id)
    n = game.players
    out = []
    for interface, slicer in (
        ("PettingZoo AEC", aec_slice(env(game_id, players=n), s.seed)),
        (
            f"vector env, {VECTOR_TABLES} tables",
            vector_slice(vector_env(game_id, VECTOR_TABLES, players=n), s.seed),
        ),
        (
            f"Gymnasium vector env, {VECTOR_TABLES} tables",
            vector_slice(DragonlairVectorEnv(game_id, VECTOR_TABLES, players=n), s.seed),
        ),
    ):
        m = RLMeasure(game_id, n, interface)
        m.steps_per_s, m.ratio_connect_four = _beside(slicer, connect_four, s)
        out.append(m)
    out += measure_information_states(game_id, s)
    return out


def measure_information_states(game_id: str, s: Settings) -> list[RLMeasure]:
    """Microseconds per OpenSpiel information-state string of the seat to act: along
    seeded random games (one string after every action, as a search or a learner asks
    for them; the action's own cost excluded), and on a fresh clone of a mid-game state
    whose string was never asked for (the whole memory rendered at once)."""
    from .rl import openspiel

    game = openspiel.load_game(game_id, turn_based=True, seed=s.seed)
    rng = random.Random(s.seed)
    middles: list[str] = []
    longest = 0
    spent = 0.0
    calls = 0
    deadline = CLOCK() + s.slice_s * s.reps
    while CLOCK() < deadline or not middles:
        st = game.new_initial_state()
        history = []
        while not st.is_terminal():
            t = CLOCK()
            text = st.information_state_string(st.current_player())
            spent += CLOCK() - t
            calls += 1
            longest = max(longest, len(text))
            history.append(st)
            st = st.clone()
            st.apply_action(rng.choice(st.legal_actions()))
        middles.append(history[len(history) // 2].serialize())
    cold = []
    for text in middles[: 10 * s.reps]:
        fresh = game.deserialize_state(text)  # nothing of it asked for yet
        t = CLOCK()
        fresh.information_state_string(fresh.current_player())
        cold.append(CLOCK() - t)
    name = openspiel.game_name(game_id, turn_based=True)
    n = game.num_players()
    return [
        RLMeasure(game_id, n, f"{name} info state, along a game", micros=1e6 * spent / calls),
        RLMeasure(
            game_id,
            n,
            f"{name} info state, fresh mid-game",
            micros=1e6 * statistics.median(cold),
            size=longest,
        ),
    ]


def connect_four_measure(connect_four: Slice, s: Settings) -> RLMeasure:
    """The reference row: connect_four_v3's AEC steps/s on its own."""
    rates = []
    for _ in range(s.reps):
        _, _, steps, elapsed = connect_four(s.slice_s)
        rates.append(steps / elapsed)
    m = RLMeasure("connect_four_v3 (PettingZoo)", 2, "PettingZoo AEC", reference=True)
    m.steps_per_s = statistics.median(rates)
    return m
