"""Every command's ``--help`` starts without the heavy libraries: those of the optional
extras (simulate's tables and statistics, Ray, the RL libraries, JAX), the terminal game's
Textual and the server's FastAPI are imported only by the command that runs with them.

Checked with ``python -X importtime`` (which names every module a process imports, in the
order imported), never with wall time: one process runs ``dragonlair --help`` and then
every command's ``--help``, writing a mark before each, so each import is put down to the
first command that needed it. ``scripts/startup_time.py`` measures the time it takes."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from dragonlair.cli import COMMANDS

HEAVY = frozenset(
    {
        "fastapi",
        "gymnasium",
        "jax",
        "jaxlib",
        "matplotlib",
        "numpy",
        "optuna",
        "pandas",
        "pettingzoo",
        "psycopg",
        "pyarrow",
        "pyspiel",
        "ray",
        "scipy",
        "sqlalchemy",
        "starlette",
        "statsmodels",
        "textual",
        "torch",
        "uvicorn",
    }
)

MARK = "-- dragonlair"

DRIVER = textwrap.dedent(
    f"""
    import sys
    from dragonlair.cli import COMMANDS, main

    for command in [[], *([c] for c in COMMANDS)]:
        print({MARK!r}, *command, "--help", file=sys.stderr, flush=True)
        sys.argv = ["dragonlair", *command, "--help"]
        try:
            main()
        except SystemExit as e:
            assert e.code in (0, None), (command, e.code)
        else:
            raise AssertionError(f"{{command}} --help did not exit")
    """
)


def imports_by_command() -> dict[str, list[str]]:
    """The modules each ``--help`` imported first (``"import"``: importing the command
    line itself), from one process's ``-X importtime`` report."""
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", DRIVER],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.count("Usage") == len(COMMANDS) + 1, run.stdout[-3000:]
    found: dict[str, list[str]] = {"import": []}
    current = found["import"]
    for line in run.stderr.splitlines():
        if line.startswith(MARK):
            current = found.setdefault(line[len(MARK) :].strip(), [])
        elif line.startswith("import time:") and "self [us]" not in line:
            current.append(line.rsplit("|", 1)[1].strip())
    return found


def test_no_command_imports_a_heavy_library_for_its_help() -> None:
    found = imports_by_command()
    assert set(found) == {"import", "--help", *(f"{c} --help" for c in COMMANDS)}
    heavy = {
        command: sorted({m for m in modules if m.split(".")[0] in HEAVY})
        for command, modules in found.items()
    }
    assert not any(heavy.values()), {c: m for c, m in heavy.items() if m}
    everything = {m for modules in found.values() for m in modules}
    # the report is read right: the command line and its libraries are in it, and the
    # bench, the simulation tools and the server's app are not
    assert {"typer", "rich", "dragonlair.cli", "dragonlair.core"} <= everything
    assert not everything & {"dragonlair.bench", "dragonlair.sim.runner", "dragonlair.web.app"}
