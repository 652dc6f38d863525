"""The light install (``pip install dragonlair``, no extras), as a player gets it: a fresh
virtual environment with this tree installed and nothing else, where the hint (F2) and
``dragonlair analyse`` either work or say what the install lacks, and never crash."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
PUZZLE = "puzzle:dragon-stripes/offered-for-forty"


@pytest.fixture(scope="module")
def light(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The ``bin`` folder of a fresh venv holding dragonlair without any extra. The venv
    has no pip of its own (making one takes ensurepip longer than the install): this run's
    pip installs into it (``--python``), building the tree in an isolated environment as a
    player's ``pip install`` does."""
    where = tmp_path_factory.mktemp("light") / "venv"
    venv.create(where, with_pip=False)
    bin_dir = where / "bin"
    pip = [sys.executable, "-m", "pip", "--python", str(bin_dir / "python")]
    subprocess.run(
        [*pip, "install", "-q", "--no-compile", str(ROOT)],
        check=True,
        timeout=600,
        env={k: v for k, v in os.environ.items() if k != "DRAGONLAIR_COMPILE"},
    )
    found = subprocess.run(
        [str(bin_dir / "python"), "-c", "import textual, dragonlair.tui.app"], check=False
    )
    assert found.returncode == 0, "the light install cannot run the terminal game"
    yield bin_dir


@pytest.mark.timeout(900)
def test_analyse_answers_or_says_what_is_missing(light: Path) -> None:
    done = subprocess.run(
        [str(light / "dragonlair"), "analyse", PUZZLE, "--samples", "4"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    # the analysis needs nothing beyond the base install (its interval is written out)
    assert done.returncode == 0, done.stderr
    assert "picks" in done.stdout


@pytest.mark.timeout(900)
def test_f2_in_the_light_install_never_ends_the_game(light: Path, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="80", LINES="24")
    child = pexpect.spawn(
        str(light / "dragonlair"),
        ["play", "dragon-race", "-n", "3", "--seed", "3", "--fast", "--save", str(save)],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(24, 80),
    )
    try:
        child.expect("move ahead")  # your first play is asked
        child.send("\x1bOQ")  # F2
        child.expect("★", timeout=240)  # a real hint marks the best choice, no extra
        child.send("\r")  # and the game goes on
        child.send("\x11")  # ctrl+q
        child.expect("Leave the game")
        child.expect("saved in")
        child.send("\t\t")  # from "Quit" (the first button) onwards: Enter presses it
        child.send("\x1b[Z\x1b[Z")
        child.send("\r")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        assert save.exists()
    finally:
        child.close(force=True)
