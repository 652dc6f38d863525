"""The ``dragonlair`` command.

Built with Typer: each command is a typed Python function, so ``--help`` on every command
and clear errors for bad arguments come from the signatures, and Rich draws the output.
Each command lives in its own module here and is added to the app by ``register``.
"""

from __future__ import annotations

import importlib
from typing import Annotated

import typer

import dragonlair

app = typer.Typer(
    name="dragonlair",
    help="Four tabletop games: play them, simulate them, study them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
)

# The command modules, in the order --help lists them; each one defines register(app) and
# imports what an optional extra brings only when its command runs.
COMMANDS = (
    "games",
    "play",
    "watch",
    "replay",
    "analyse",
    "position",
    "puzzles",
    "simulate",
    "tournament",
    "compare",
    "report",
    "tune",
    "serve",
    "bench",
)


def _version(value: bool) -> None:
    if value:
        print(f"dragonlair {dragonlair.__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Four tabletop games: play them, simulate them, study them."""


for _name in COMMANDS:
    importlib.import_module(f"{__name__}.{_name}").register(app)


def main() -> None:
    app()
