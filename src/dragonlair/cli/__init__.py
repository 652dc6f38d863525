"""The ``dragonlair`` command.

Built with Typer: each command is a typed Python function, so ``--help`` on every command
and clear errors for bad arguments come from the signatures, and Rich draws the output.
Each command lives in its own module here and is added to the app by ``register``.

The help a player reads (the app's, and ``play``, ``watch``, ``replay`` and ``puzzles``
with their options) is in the locale's language (:func:`dragonlair.i18n.from_environment`):
the commands' help is chosen when this module builds the app, their options' help when
Typer reads the signatures in :func:`main`, both before any ``--lang`` is seen.
"""

from __future__ import annotations

import importlib
from typing import Annotated

import typer

import dragonlair

from ..i18n import _, from_environment, using

_HELP_LANGUAGE = from_environment()

with using(_HELP_LANGUAGE):
    _APP_HELP = _("Four tabletop games: play them, simulate them, study them.")

app = typer.Typer(
    name="dragonlair",
    help=_APP_HELP,
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


@app.callback(help=_APP_HELP)
def root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help=_("Show the version.")),
    ] = False,
) -> None:
    """The app's options (``--version``)."""


with using(_HELP_LANGUAGE):
    for _name in COMMANDS:
        importlib.import_module(f"{__name__}.{_name}").register(app)


def main() -> None:
    # The options' help is read from the signatures when Typer builds the command.
    with using(_HELP_LANGUAGE):
        app()
