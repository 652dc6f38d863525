"""``dragonlair serve`` refuses bad options before starting anything."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from dragonlair.cli import app


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--db", "mysql://h/db"], "unsupported database"),
        (["--db", "sqlite://"], "must be a file"),
        (["--ws-rate", "lots"], "a rate is a count per period"),
        (["--http-rate", "0/second"], "a rate is a count per period"),
        (["--bot-pool", "gpu"], "'thread' or 'process'"),
        (["--sqlite-sync", "sometimes"], "FULL, NORMAL or EXTRA"),
        (["--log-level", "chatty"], "debug, info, warning or error"),
        (["--port", "70000"], "65535"),
        (["--deadline", "0"], "0"),
    ],
)
def test_bad_serve_options(args: list[str], says: str) -> None:
    result = CliRunner().invoke(app, ["serve", *args])
    assert result.exit_code == 2
    text = " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())
    assert says in text
