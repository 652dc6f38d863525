"""Run a command and report the peak memory of it and every process it starts.

``/usr/bin/time -v`` reports the largest single process; a run with workers (local ones,
or Ray's daemons and workers, which Ray starts below the command) uses the sum. This
samples, every half second, the proportional set size (PSS: shared pages split between
the processes sharing them, so forked workers are not counted twice) of the command and
all its descendants with psutil, and prints the peak on stderr when the command ends::

    python scripts/peak_memory.py dragonlair simulate space-race -n 10000 -w 2 --ray -q

It exits with the command's exit code.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time

import psutil

INTERVAL = 0.5


def tree_pss(root: psutil.Process) -> tuple[int, int]:
    """The summed PSS (bytes) of ``root`` and its descendants, and how many there are."""
    try:
        procs = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0, 0
    total = 0
    for p in procs:
        with contextlib.suppress(psutil.Error):  # ended meanwhile, or not ours to read
            total += p.memory_full_info().pss
    return total, len(procs)


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python scripts/peak_memory.py COMMAND [ARGS...]", file=sys.stderr)
        return 2
    start = time.monotonic()
    proc = subprocess.Popen(argv)
    root = psutil.Process(proc.pid)
    peak, peak_procs = 0, 0
    while proc.poll() is None:
        total, count = tree_pss(root)
        if total > peak:
            peak, peak_procs = total, count
        time.sleep(INTERVAL)
    print(
        f"peak memory (PSS of the command and its descendants): {peak / 2**20:,.0f} MiB "
        f"over {peak_procs} processes; {time.monotonic() - start:.1f} s",
        file=sys.stderr,
    )
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
