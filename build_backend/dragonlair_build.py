"""The build backend: setuptools' own, which also asks for mypy (whose mypyc compiles the
engine) and NumPy (which the compiled observation layouts import, so mypyc type-checks
them against it) when ``DRAGONLAIR_COMPILE=1`` is set at build time. Without it nothing
more is needed than setuptools, and the package is pure Python (see setup.py)."""

from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the backend's hooks, as setuptools defines them)

MYPY = "mypy>=1.11"
NUMPY = "numpy>=1.26"  # as the rl extra asks


def _compile_requires() -> list[str]:
    return [MYPY, NUMPY] if os.environ.get("DRAGONLAIR_COMPILE", "0") == "1" else []


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _setuptools.get_requires_for_build_wheel(config_settings) + _compile_requires()


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _setuptools.get_requires_for_build_editable(config_settings) + _compile_requires()
