"""The batched engines' rows of ``dragonlair bench``: table steps per CPU second at 1, 64,
1,024 and 4,096 tables, next to PettingZoo's ``connect_four_v3`` (one table, Python)
measured slice for slice in the same run, and next to Pgx's own ``connect_four`` and
``leduc_holdem`` run the same way at the same batch sizes (each row's rate is also given
over Pgx's connect_four's at its batch size, both from the same run); and each engine's
jit compile time.

Every engine runs as Pgx's examples run it: ``init`` and ``step`` under ``jax.vmap``, the
action of each table picked at random among its legal ones (``pgx.experimental.act_randomly``)
and a finished table dealt again (``auto_reset``), a chunk of steps in one ``jax.lax.scan``
under ``jax.jit``. A step is one table's action. Rates are per second of this process's CPU
time, every thread of it counted (``time.process_time``), so they are per core however many
threads XLA uses; ratios are medians of per-slice ratios, so a change in the machine's load
moves both sides of a ratio together.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

BATCHES = (1, 64, 1024, 4096)
# (name in the table, engine id, players): ours at the smallest and the default table
# size, then Pgx's own games
ENGINES: tuple[tuple[str, str, int], ...] = (
    ("dragon-stripes (JAX)", "dragon-stripes", 2),
    ("dragon-stripes (JAX)", "dragon-stripes", 4),
    ("space-dragons (JAX)", "space-dragons", 4),
    ("space-race (JAX)", "space-race", 4),
    ("dragon-race (JAX)", "dragon-race", 4),
    ("connect_four (Pgx)", "pgx:connect_four", 2),
    ("leduc_holdem (Pgx)", "pgx:leduc_holdem", 2),
)
PGX_CONNECT_FOUR = "connect_four (Pgx)"  # the row each engine's rate is also set against
STEPS_PER_CHUNK = 16_384  # table steps per jitted call (at least one step per table)
CLOCK = time.process_time
COMPILE_AT = 1024  # the batch size whose jit compile time is shown

# connect_four_v3's slice, as dragonlair.bench gives it: (games, decisions, steps, seconds)
Slice = Callable[[float], tuple[int, int, int, float]]


@dataclass
class AccelMeasure:
    """One engine at one batch size: table steps per CPU second, the median of its
    per-slice ratios to connect_four_v3 (None without PettingZoo's classic games), the
    wall seconds that jit took to compile its chunk (at 1,024 tables), and its rate over
    the rate of Pgx's connect_four at the same batch size in the same run (None when
    that engine is not measured)."""

    name: str
    players: int
    tables: int
    steps_per_s: float
    ratio_connect_four: float | None
    compile_s: float | None = None
    ratio_pgx_connect_four: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _env(engine: str, players: int) -> Any:
    if engine.startswith("pgx:"):
        import pgx

        return pgx.make(engine[4:])
    from . import make

    return make(engine, players=players)


def chunk(env: Any, tables: int) -> tuple[Any, Any, int]:
    """The jitted chunk of random steps over ``tables`` tables, its first carry, and how
    many table steps one call makes."""
    import jax
    from pgx.experimental import act_randomly, auto_reset

    length = max(1, STEPS_PER_CHUNK // tables)
    step = jax.vmap(auto_reset(env.step, env.init))

    def body(carry: Any, _: Any) -> tuple[Any, None]:
        state, key = carry
        key, k1, k2 = jax.random.split(key, 3)
        action = act_randomly(k1, state.legal_action_mask)  # a batch of masks
        state = step(state, action, jax.random.split(k2, tables))
        return (state, key), None

    def run(state: Any, key: Any) -> Any:
        return jax.lax.scan(body, (state, key), None, length=length)[0]

    key = jax.random.PRNGKey(0)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(key, tables))
    return jax.jit(run), (state, key), length * tables


def engine_slice(env: Any, tables: int) -> tuple[Slice, float]:
    """A slice of ``env`` at ``tables`` tables, and the wall seconds its jit took."""
    import jax

    run, carry, per_call = chunk(env, tables)
    ready: Any = jax.block_until_ready  # not annotated in JAX
    start = time.perf_counter()
    compiled = run.lower(*carry).compile()
    compile_s = time.perf_counter() - start
    box = [ready(compiled(*carry))]

    def slice_(seconds: float) -> tuple[int, int, int, float]:
        steps = 0
        start = CLOCK()
        deadline = start + seconds
        while True:
            box[0] = ready(compiled(*box[0]))
            steps += per_call
            now = CLOCK()
            if now >= deadline:
                return 0, steps, steps, now - start

    return slice_, compile_s


def measure(
    reps: int,
    slice_s: float,
    connect_four: Slice | None,
    progress: Callable[[str], None] | None = None,
) -> list[AccelMeasure]:
    """Every engine of :data:`ENGINES` at every batch size of :data:`BATCHES`, each slice
    after a slice of connect_four_v3 (when given)."""
    out = []
    for name, engine, players in ENGINES:
        env = _env(engine, players)
        for tables in BATCHES:
            if progress:
                progress(f"{name} {players}p at {tables} tables")
            slice_, compile_s = engine_slice(env, tables)
            rates, ratios = [], []
            for _ in range(reps):
                ref = connect_four(slice_s) if connect_four is not None else None
                _, _, steps, elapsed = slice_(slice_s)
                rates.append(steps / elapsed)
                if ref is not None:
                    ratios.append(rates[-1] / (ref[2] / ref[3]))
            out.append(
                AccelMeasure(
                    name,
                    players,
                    tables,
                    statistics.median(rates),
                    statistics.median(ratios) if ratios else None,
                    compile_s if tables == COMPILE_AT or len(BATCHES) == 1 else None,
                )
            )
    pgx_rates = {m.tables: m.steps_per_s for m in out if m.name == PGX_CONNECT_FOUR}
    for m in out:
        if m.tables in pgx_rates:
            m.ratio_pgx_connect_four = m.steps_per_s / pgx_rates[m.tables]
    return out


def load_average() -> str:
    """The machine's load averages over 1, 5 and 15 minutes, as the table's title shows them."""
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def print_table(out: Any, rows: Sequence[AccelMeasure]) -> None:
    """The rows as a rich table on the console ``out``."""
    from rich.table import Table

    table = Table(
        title="batched engines: steps per CPU second",
        caption=f"load average {load_average()}",
    )
    columns = ("engine", "players", "tables", "steps/s", "× connect_four_v3", "× Pgx c4", "jit s")
    for col in columns:
        table.add_column(col, justify="left" if col == "engine" else "right")
    for m in rows:
        table.add_row(
            m.name,
            str(m.players),
            f"{m.tables:,}",
            f"{m.steps_per_s:,.0f}",
            "-" if m.ratio_connect_four is None else f"{m.ratio_connect_four:.1f}",
            "-" if m.ratio_pgx_connect_four is None else f"{m.ratio_pgx_connect_four:.2f}",
            "-" if m.compile_s is None else f"{m.compile_s:.2f}",
        )
    out.print(table)
