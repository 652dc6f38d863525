"""A fifth game from outside: examples/high_card, a distribution of its own, installed
into a fresh folder with pip and put on the path of programs started here. With no change
to dragonlair it is listed, simulated, played at the terminal, served with its own browser
board and played over the wire, and played through PettingZoo, Gymnasium and OpenSpiel."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.core.outside_game import install

SURFACES = Path(__file__).with_name("outside_game.py")

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a process that has High Card installed."""
    env = install(tmp_path_factory.mktemp("high_card"))
    return dict(env, COLUMNS="120", NO_COLOR="1")


def _run(env: dict[str, str], *args: str, timeout: float = 300) -> str:
    done = subprocess.run(
        [sys.executable, *args],
        check=False,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_it_is_listed_checked_and_simulated(installed: dict[str, str]) -> None:
    listed = _run(installed, "-m", "dragonlair", "games")
    assert "high-card" in listed and "High Card" in listed
    _run(
        installed,
        "-c",
        "from dragonlair.core.conformance import check_game; check_game('high-card', games=5)",
    )
    out = _run(
        installed,
        "-m",
        "dragonlair",
        "simulate",
        "high-card",
        "-n",
        "40",
        "--bots",
        "heuristic,random",
    )
    assert "High Card, 2 players: 40 games" in out
    assert "heuristic" in out and "random" in out


def test_it_is_played_at_the_terminal(installed: dict[str, str]) -> None:
    pexpect = pytest.importorskip("pexpect")
    env = dict(installed, TERM="xterm-256color", LINES="24", COLUMNS="80")
    env.pop("NO_COLOR")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "dragonlair", "play", "high-card", "--bots", "heuristic", "--seed", "3", "--fast"],
        env=env,
        encoding="utf-8",
        timeout=120,
        dimensions=(24, 80),
    )
    child.expect("Your hand")  # the game's own terminal part, drawn at 80x24
    screen = ""
    for _ in range(200):
        child.send("\r")  # Enter takes the highlighted choice
        if child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=0.2) == 0:
            break
        screen = (screen + (child.before or ""))[-4000:]
    else:
        raise AssertionError("the game did not end")
    screen += child.before or ""
    child.close()
    assert child.exitstatus == 0
    assert "Final scores" in screen


def test_it_is_served_with_its_own_board_and_played_over_the_wire(
    installed: dict[str, str],
) -> None:
    seen = json.loads(_run(installed, str(SURFACES), "server").splitlines()[-1])
    assert seen["board"] == "games/high-card/board.js"
    assert seen["board_status"] == 200 and "javascript" in seen["board_type"]
    assert seen["board_exports"] and seen["css_status"] == 200
    # only the board's own folder is published, and only for the game whose board it is
    assert set(seen["refused"].values()) == {404}, seen["refused"]
    assert seen["status"] == "over" and seen["moves"] == 10 and seen["replays"]


def test_it_is_played_through_the_rl_libraries(installed: dict[str, str]) -> None:
    pytest.importorskip("pyspiel")
    seen = json.loads(_run(installed, str(SURFACES), "rl").splitlines()[-1])
    assert seen["pettingzoo_rounds"] == 5 and seen["gymnasium_steps"] == 5
    assert seen["gymnasium_id"] == "dragonlair/HighCard-v0"
    assert seen["openspiel_steps"] == 5 and len(seen["openspiel_returns"]) == 2
