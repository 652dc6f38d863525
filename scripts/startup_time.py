#!/usr/bin/env python3
"""How long ``dragonlair --help`` and every command's ``--help`` take to start (a
measurement, not a test; ``tests/core/test_startup.py`` checks what they import).

Runs each ``--help`` in a process of its own ``--runs`` times and prints one Markdown row
per command: the median CPU time of the process (user and system, which the machine's
load barely changes) and its median wall time. A first, unmeasured run of each writes the
byte code of what it imports (``PYTHONDONTWRITEBYTECODE`` is removed from the processes'
environment), which an installed package has, so the figures do not include compiling the
sources.

    .venv/bin/python scripts/startup_time.py
    .venv/bin/python scripts/startup_time.py --runs 9
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

from dragonlair.cli import COMMANDS


def once(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """The CPU and wall seconds of one ``dragonlair <args>`` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "dragonlair", *args], env=env, check=True, capture_output=True
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="processes per command (median)")
    runs = parser.parse_args().runs
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores, {runs} runs each")
    print()
    print("| command | CPU s (median) | wall s (median) |")
    print("|---|---|---|")
    for command in [[], *([c] for c in COMMANDS)]:
        once([*command, "--help"], env)  # a first run writes anything still uncompiled
        got = [once([*command, "--help"], env) for _ in range(runs)]
        cpu = statistics.median(c for c, _ in got)
        wall = statistics.median(w for _, w in got)
        print(f"| `dragonlair {' '.join([*command, '--help'])}` | {cpu:.2f} | {wall:.2f} |")


if __name__ == "__main__":
    main()
