"""The files in deploy/ read as systemd reads them: the environment file's settings
(``EnvironmentFile=``) and the unit's ``ExecStart`` for one instance, its ``%i`` and
``${NAME}`` expanded from those settings."""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from pathlib import Path

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
ENV_FILE = DEPLOY / "dragonlair.env.example"
UNIT = DEPLOY / "systemd" / "dragonlair@.service"


def environment(path: Path = ENV_FILE) -> dict[str, str]:
    """The ``NAME=value`` lines of an environment file (comments and blank lines skipped)."""
    out = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, value = line.partition("=")
            out[name] = value
    return out


def exec_start(instance: str, env: Mapping[str, str], unit: Path = UNIT) -> list[str]:
    """The unit's command line for ``instance`` (``%i``), every ``${NAME}`` replaced by
    ``env[NAME]``; AssertionError naming a variable ``env`` does not set."""
    start = unit.read_text().split("ExecStart=", 1)[1]
    lines = []
    for line in start.splitlines():
        lines.append(line.rstrip("\\").strip())
        if not line.endswith("\\"):
            break
    command = " ".join(lines).replace("%i", instance)
    for name, value in env.items():
        command = command.replace("${" + name + "}", value)
    assert "${" not in command, f"a variable the unit uses is not set: {command}"
    return shlex.split(command)
