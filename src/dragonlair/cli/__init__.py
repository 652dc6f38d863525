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
import os
import sys
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
    """Run the command line: what ``app()`` does, but a refused argument is shown without
    Typer's ``rich_utils`` (see :func:`_refuse`)."""
    # The options' help is read from the signatures when Typer builds the command.
    with using(_HELP_LANGUAGE):
        try:
            # not standalone: Click's errors come here rather than to Typer's handler;
            # every command returns None, so an int is the code of a typer.Exit
            # (--help's, Ctrl-C's 130)
            code = app(standalone_mode=False)
        except typer.BadParameter as e:  # a bad or missing argument: the common refusal
            _refuse(e)
            sys.exit(e.exit_code)
        except typer.TyperException as e:  # Click's other errors, as Typer shows them
            from typer import rich_utils

            rich_utils.rich_format_error(e)  # type: ignore[arg-type]  # a ClickException
            sys.exit(getattr(e, "exit_code", 1))
        except typer.Abort:
            from typer import rich_utils

            rich_utils.rich_abort_error()
            sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)


def _refuse(e: typer.BadParameter) -> None:
    """Show a refused argument as Typer's ``rich_utils.rich_format_error`` does (the usage,
    the hint to ``--help``, the message in a red panel, in Typer's styles and words), but
    with Rich's console and panel only: importing ``rich_utils`` imports Rich's Markdown
    and traceback renderers (markdown-it, Pygments), a fifth of the CPU time a designer
    command took to refuse a bad argument (docs/simulate.md, "Start-up")."""
    from rich.console import Console
    from rich.highlighter import RegexHighlighter
    from rich.markup import escape
    from rich.panel import Panel
    from rich.text import Text
    from rich.theme import Theme

    class Options(RegexHighlighter):
        highlights = [  # Typer's OptionHighlighter
            r"(^|\W)(?P<switch>\-\w+)(?![a-zA-Z0-9])",
            r"(^|\W)(?P<option>\-\-[\w\-]+)(?![a-zA-Z0-9])",
            r"(?P<types>\<[^\>]+\>)",
            r"(?P<usage>Usage: )",
        ]

    highlight = Options()
    width = os.environ.get("TERMINAL_WIDTH")
    force = (
        True
        if any(os.environ.get(v) for v in ("GITHUB_ACTIONS", "FORCE_COLOR", "PY_COLORS"))
        else None
    )
    if os.environ.get("_TYPER_FORCE_DISABLE_TERMINAL"):
        force = False
    console = Console(
        theme=Theme(
            {
                "option": "bold cyan",
                "switch": "bold green",
                "negative_option": "bold magenta",
                "negative_switch": "bold red",
                "types": "bold yellow",
                "types_sep": "dim",
                "usage": "yellow",
            }
        ),
        highlighter=highlight,
        # no emoji codes (nor in the panel's title, a Text for that): these texts have
        # none, and looking for them imports Rich's table of every emoji
        emoji=False,
        force_terminal=force,
        width=int(width) if width else None,
        stderr=True,
    )
    ctx = e.ctx
    if ctx is not None:
        console.print(highlight(ctx.get_usage()), style="bold")
        if ctx.command.get_help_option(ctx) is not None:
            path, option = escape(ctx.command_path), ctx.help_option_names[0]
            console.print(f"Try [blue]'{path} {option}'[/] for help.", style="dim")
    console.print(
        Panel(
            highlight(e.format_message()),
            border_style="red",
            title=Text("Error"),
            title_align="left",
        )
    )
