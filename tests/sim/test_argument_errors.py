"""Every simulation command refuses a bad argument before any work: no game is played, no
worker is started, no results file is read, and nothing is written; the message says what
was wrong."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dragonlair.cli import app

runner = CliRunner()


class WorkStarted(AssertionError):
    pass


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small results file for the report's cases."""
    path = tmp_path_factory.mktemp("results") / "ds.csv"
    args = ["simulate", "dragon-stripes", "--bots", "heuristic", "-n", "4", "-q", "--out"]
    done = runner.invoke(app, [*args, str(path)])
    assert done.exit_code == 0, done.output
    return path


@pytest.fixture
def no_work(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every way a command starts work, replaced by one that records it and fails: playing
    games (locally, in workers or on Ray, all through ``running.run``) and reading a
    results file (the report)."""
    import dragonlair.cli.running
    import dragonlair.sim.output
    import dragonlair.sim.stats

    started: list[str] = []

    def stop(what: str) -> Any:
        def refuse(*args: object, **kwargs: object) -> None:
            started.append(what)
            raise WorkStarted(what)

        return refuse

    monkeypatch.setattr(dragonlair.cli.running, "run", stop("games played"))
    monkeypatch.setattr(dragonlair.sim.stats, "tally_rows", stop("results tallied"))
    monkeypatch.setattr(dragonlair.sim.output, "read_frame", stop("results read"))
    yield started


SD = ["space-dragons", "--bots", "heuristic", "-n", "3"]
DS = ["dragon-stripes", "--bots", "heuristic", "-n", "3"]

CASES: list[tuple[str, list[str], str]] = [
    # simulate
    ("simulate", ["nope", "-n", "3"], "nope"),
    ("simulate", ["space-dragons", "--bots", "bogus"], "bogus"),
    ("simulate", [*SD, "-n", "0"], "-n"),
    ("simulate", [*SD, "-w", "0"], "--workers"),
    ("simulate", [*SD, "-o", "shield=99"], "shield"),
    ("simulate", [*SD, "-o", "data=TMP/missing.json"], "missing.json"),
    ("simulate", [*SD, "-o", "data:hand_size=99"], "hand_size"),
    ("simulate", [*SD, "--out", "TMP/no/such/folder/r.csv"], "folder"),
    ("simulate", [*SD, "--plot", "TMP/chart.bogus"], "bogus"),
    ("simulate", [*SD, "--records", "TMP/afile"], "afile"),
    # a sweep
    ("simulate", [*SD, "-o", "shield=1,99"], "shield"),
    ("simulate", [*SD, "-o", "data:rounds=5,12"], "rounds"),
    ("simulate", [*SD, "-o", "shield=1,2", "--out", "TMP/no/such/folder/r.csv"], "folder"),
    # tournament and its round robin
    ("tournament", [*DS[:1], "--bots", "heuristic,bogus", "-n", "3"], "bogus"),
    ("tournament", [*DS, "-o", "start_gems=-4"], "start_gems"),
    ("tournament", [*DS[:1], "--matrix", "--bots", "heuristic,bogus", "-n", "3"], "bogus"),
    ("tournament", [*DS[:1], "--matrix", "--bots", "heuristic,random", "-n", "0"], "-n"),
    # compare
    ("compare", [*SD, "-A", "shield=99", "-B", "shield=1"], "shield"),
    ("compare", [*SD, "-A", "shield=1", "-B", "bots=bogus"], "bogus"),
    ("compare", [*SD, "-B", "data:hand_size=0"], "hand_size"),
    ("compare", [*SD, "-B", "shield=2", "--out-a", "TMP/no/such/a.csv"], "no/such"),
    # tune
    ("tune", [*DS, "--param", "start_gems=1..9", "--target", "bogus"], "targets are"),
    ("tune", [*DS, "--param", "nope", "--target", "fair"], "nope"),
    ("tune", [*DS, "--param", "data:start_gemz=1..3", "--target", "fair"], "start_gemz"),
    ("tune", [*DS, "--param", "data:start_gems=20..40", "--target", "expr=df.nope.mean()"], "nope"),
    ("tune", [*DS, "--param", "data:start_gems=20..40", "--target", "expr=np.nope(1)"], "nope"),
    ("tune", [*DS, "--param", "data:start_gems=20..40", "--target", "expr=mean(df)"], "mean"),
    ("tune", [*DS, "--param", "data:start_gems=20..40", "--target", "fair", "--data-dir",
              "TMP/no/such"], "no such folder"),
    ("tune", [*DS, "--param", "data:start_gems=20..40", "--param", "data:start_gems=20..30",
              "--target", "fair"], "each --param once"),
]  # fmt: skip


def said(message: str, output: str) -> bool:
    """Whether the error box says ``message``: the box wraps a long path or word anywhere,
    so both are compared without spaces, line ends and the box's edges."""
    flat = "".join(output.replace("│", "").split())
    return "".join(message.split()) in flat


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("command", "args", "message"), CASES)
def test_a_bad_argument_is_refused_before_any_work(
    command: str, args: list[str], message: str, tmp_path: Path, no_work: list[str]
) -> None:
    (tmp_path / "afile").write_text("")
    before = sorted(tmp_path.rglob("*"))
    argv = [command, *(a.replace("TMP", str(tmp_path)) for a in args)]
    result = runner.invoke(app, argv)
    assert not isinstance(result.exception, WorkStarted), f"work started: {no_work}"
    assert no_work == []
    assert result.exit_code == 2, result.output
    assert said(message, result.output), result.output
    assert sorted(tmp_path.rglob("*")) == before  # nothing written


REPORT_CASES: list[tuple[list[str], str]] = [
    (["TMP/missing.csv"], "missing.csv"),
    (["RESULTS", "-o", "TMP/no/such/report.html"], "no/such"),
    (["RESULTS", "--against", "TMP/missing.csv"], "missing.csv"),
    (["RESULTS", "--against", "TMP/afile"], "afile"),
]


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("args", "message"), REPORT_CASES)
def test_a_bad_report_argument_is_refused_before_reading_the_results(
    args: list[str], message: str, tmp_path: Path, results: Path, no_work: list[str]
) -> None:
    (tmp_path / "afile").write_text("")
    before = sorted(tmp_path.rglob("*"))
    argv = ["report", *(a.replace("TMP", str(tmp_path)) for a in args)]
    argv = [str(results) if a == "RESULTS" else a for a in argv]
    result = runner.invoke(app, argv)
    assert not isinstance(result.exception, WorkStarted), f"work started: {no_work}"
    assert no_work == []
    assert result.exit_code == 2, result.output
    assert said(message, result.output), result.output
    assert sorted(tmp_path.rglob("*")) == before


def test_a_refused_argument_imports_none_of_the_heavy_libraries() -> None:
    """The designer's commands start quickly: a bad argument is refused before NumPy,
    pandas, pyarrow, statsmodels, SciPy, Matplotlib or Ray is imported (each is imported
    inside the function that uses it), in a fresh interpreter as a designer runs them."""
    import subprocess
    import sys

    script = """
import sys
from dragonlair.cli import app
HEAVY = ("numpy", "pandas", "pyarrow", "statsmodels", "scipy", "matplotlib", "ray")
for args in (
    ["simulate", "nope"],
    ["simulate", "space-race", "-n", "0"],
    ["compare", "dragon-stripes", "-B", "data:nosuch=1"],
    ["tune", "dragon-stripes", "--param", "data:start_gemz=20..60", "--target", "fair"],
    ["report", "missing.parquet"],
    ["tournament", "nope"],
):
    try:
        app(args, standalone_mode=False)
    except SystemExit:
        pass
    except Exception as e:  # the refusal, as Click raises it without its standalone mode
        if "Error" not in type(e).__name__ and "Parameter" not in type(e).__name__:
            raise
    else:
        raise AssertionError(f"{args} was not refused")
    loaded = [m for m in HEAVY if m in sys.modules]
    assert not loaded, f"{args[0]}: {loaded}"
print("refused, nothing heavy")
"""
    done = subprocess.run(
        [sys.executable, "-c", script], check=False, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "refused, nothing heavy" in done.stdout


def test_the_command_refuses_without_importing_typers_help_renderers() -> None:
    """The ``dragonlair`` entry point (``cli.main``) shows a refused argument without
    importing Typer's ``rich_utils`` and what it imports (Rich's Markdown, markdown-it,
    Pygments) or Rich's table of emoji; an unknown game is refused before the simulation
    and its progress bars are imported. Exit code 2 and the message on stderr, as
    Typer's own handler gives them; in a fresh interpreter as a designer runs them."""
    import subprocess
    import sys

    script = """
import contextlib, io, sys
from dragonlair.cli import main
LATER = ("typer.rich_utils", "markdown_it", "pygments", "rich.markdown", "rich._emoji_codes")
for args, message, unloaded in (
    (["simulate", "nope"], "no game 'nope'", ("dragonlair.cli.running", "dragonlair.sim")),
    (["tournament", "nope"], "no game 'nope'", ("dragonlair.cli.running", "dragonlair.sim")),
    (["simulate", "space-race", "-n", "0"], "-n", ()),
    (["compare", "dragon-stripes", "-B", "data:nosuch=1"], "nosuch", ()),
    (["tune", "dragon-stripes", "--param", "data:start_gemz=20..60", "--target", "fair"],
     "start_gemz", ()),
    (["report", "missing.parquet"], "missing.parquet", ()),
):
    sys.argv = ["dragonlair", *args]
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            main()
        except SystemExit as e:
            assert e.code == 2, (args, e.code, err.getvalue())
        else:
            raise AssertionError(f"{args} was not refused")
    flat = "".join(err.getvalue().replace("\\u2502", "").split())
    assert "".join(message.split()) in flat, (args, err.getvalue())
    assert "Try 'dragonlair " in err.getvalue(), err.getvalue()
    loaded = [m for m in (*LATER, *unloaded) if m in sys.modules]
    assert not loaded, f"{args}: {loaded}"
print("refused, without the help's renderers")
"""
    done = subprocess.run(
        [sys.executable, "-c", script], check=False, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "refused, without the help's renderers" in done.stdout


@pytest.mark.parametrize("color", [False, True])
def test_a_refusal_looks_as_typer_shows_it(
    color: bool, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``cli._refuse`` draws a refused argument exactly as Typer's ``rich_format_error``
    does (usage, the hint to --help, the message in a red panel), in colour and without:
    the same characters, the same escape codes."""
    import typer
    from typer import rich_utils

    from dragonlair.cli import _refuse

    if color:
        monkeypatch.setenv("FORCE_COLOR", "1")
        monkeypatch.setattr(rich_utils, "FORCE_TERMINAL", True)
    monkeypatch.setenv("TERMINAL_WIDTH", "60")
    monkeypatch.setattr(rich_utils, "MAX_WIDTH", 60)
    # a real refusal, with its context: the message says what was wrong and names options
    with pytest.raises(typer.BadParameter) as caught:
        app(["simulate", "dragon-stripes", "-n", "0", "--bots", "heuristic"], standalone_mode=False)
    capsys.readouterr()
    rich_utils.rich_format_error(caught.value)
    typers = capsys.readouterr().err
    _refuse(caught.value)
    ours = capsys.readouterr().err
    assert "--games" in typers or "-n" in typers, typers
    assert ("\x1b[" in typers) == color, typers
    assert ours == typers
