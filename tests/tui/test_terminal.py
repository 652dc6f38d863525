"""The terminal game as its players run it: the real program in a real pseudo-terminal
(pexpect), and in tmux, whose pane keeps a scrollback like a player's terminal."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

import dragonlair
from tests.games import table_size

# End to end: the real program in a pseudo-terminal and in tmux.
pytestmark = pytest.mark.slow

RUN = str(Path(__file__).parents[1] / "core" / "run_cli.py")
GAMES = [g for g in dragonlair.games() if g != "pebble-auction"]
# The Great Dragon Race runs 65 to 90 turns to its finish line at a table of three, 100 s of
# Enter in a pseudo-terminal on a loaded machine; here its games stop at the safety cap
# (the pawn furthest ahead wins), which ends with the same final scores and winner. Its
# finish line is reached on the full screen in tests/i18n/test_screen_german.py.
SHORT = {"dragon-race": ["--option", "turn_cap=24"]}


def spawn(*args: str, rows: int = 40, cols: int = 120) -> pexpect.spawn:
    env = dict(os.environ, TERM="xterm-256color", COLUMNS=str(cols), LINES=str(rows))
    return pexpect.spawn(
        sys.executable,
        [RUN, *args],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(rows, cols),
    )


def press_enter_until_over(child: pexpect.spawn, limit: float = 240) -> None:
    """Enter takes the highlighted choice at every question until the game is over, and
    then leaves: the program prints the final scores on the ordinary screen."""
    end = time.monotonic() + limit
    tail = ""
    while time.monotonic() < end:
        child.send("\r")
        if child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=0.05) == 0:
            break
        tail = (tail + (child.before or ""))[-4000:]
    else:
        raise AssertionError("the game did not end")
    tail += child.before or ""
    child.close()
    assert child.exitstatus == 0
    assert "Final scores" in tail[-3000:]
    assert "Winner: " in tail[-3000:] or "Shared win: " in tail[-3000:]


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_game_against_bots(game_id: str) -> None:
    # two bots where the game seats three, one where it seats only two
    bots = ",".join(["heuristic", "random"][: table_size(game_id) - 1])
    child = spawn(
        "play", game_id, "--bots", bots, "--seed", "11", "--fast", *SHORT.get(game_id, [])
    )
    press_enter_until_over(child)


def saved_moves(save: Path) -> int:
    """How many moves the save file holds (0 before it is first written)."""
    try:
        return len(json.loads(save.read_text())["state"]["actions"])
    except OSError:  # not written yet
        return 0


def test_save_quit_resume_and_replay(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    child = spawn(
        "play", "dragon-race", "--seed", "3", "--fast", "--save", str(save), *SHORT["dragon-race"]
    )
    child.expect("choices")
    # every move is saved as it is made: Enter until the first one is (under load, an Enter
    # sent as the first question appeared once went unread)
    end = time.monotonic() + 60
    while saved_moves(save) < 1:
        assert time.monotonic() < end, "no move was saved"
        child.send("\r")
        wait = time.monotonic() + 1
        while saved_moves(save) < 1 and time.monotonic() < wait:
            time.sleep(0.05)
    child.send("\x11")  # ctrl+q
    child.expect("Leave the game")
    child.expect("saved in")
    child.send("\t\t")  # from "Quit" (the first button) onwards: Enter presses it
    child.send("\x1b[Z\x1b[Z")
    child.send("\r")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    saved = json.loads(save.read_text())
    moves = len(saved["state"]["actions"])
    assert saved["format"] == "dragonlair.save/1" and moves >= 1

    child = spawn("play", "--resume", str(save), "--fast")
    press_enter_until_over(child)
    final = json.loads(save.read_text())
    assert final["state"]["actions"][:moves] == saved["state"]["actions"]

    out = subprocess.run(
        [sys.executable, RUN, "replay", str(save), "--seat", "1", "--all"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "You are dealt" in out and "Final scores" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "chess"], "no game 'chess'"),
        (["play", "dragon-race", "--bots", "genius"], "no bot level 'genius'"),
        (["play", "dragon-race", "-n", "2", "--seat", "5"], "seat 5 is not at a table of 2"),
        (["play", "dragon-race", "--seed", "-5"], "--seed"),
        (["play", "dragon-race", "--save", "/nonexistent/dir/g.json"], "does not exist"),
        (["play", "--resume", "/nonexistent/save.json"], "cannot read"),
        (["replay", "/nonexistent/save.json"], "cannot read"),
        (["watch", "dragon-race", "--seed", "-1"], "--seed"),
    ],
)
def test_bad_arguments_are_refused_before_the_screen(args: list[str], message: str) -> None:
    done = subprocess.run([sys.executable, RUN, *args], check=False, capture_output=True, text=True)
    assert done.returncode != 0
    assert message in done.stdout + done.stderr
    assert "Traceback" not in done.stderr


def test_a_name_goes_to_the_human_seat() -> None:
    from dragonlair.cli.play import _seats

    seats = _seats(4, None, False, 2, ["Alice"])
    assert seats[1].name == "Alice" and seats[1].human
    assert [s.name for s in seats if not s.human] == ["Heuristic 1", "Heuristic 3", "Heuristic 4"]


TMUX = shutil.which("tmux")


def _tmux(*args: str) -> str:
    assert TMUX is not None
    return subprocess.run([TMUX, *args], capture_output=True, text=True, check=True).stdout


def _wait_for(session: str, text: str, limit: float = 30) -> str:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        screen = _tmux("capture-pane", "-p", "-t", session)
        if text in screen:
            return screen
        time.sleep(0.1)
    raise AssertionError(f"{text!r} never appeared:\n{screen}")


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
def test_hotseat_leaves_nothing_of_a_hand_in_the_scrollback(tmp_path: Path) -> None:
    session = f"dragonlair-hotseat-{os.getpid()}"
    command = (
        f"{sys.executable} {RUN} play dragon-race -n 2 --hotseat --seed 3 --fast "
        "--name Ann --name Bob; sleep 30"
    )
    _tmux("new-session", "-d", "-s", session, "-x", "100", "-y", "30", command)
    try:
        _wait_for(session, "Pass the screen to Ann")
        _tmux("send-keys", "-t", session, "Enter")
        screen = _wait_for(session, "your hand")
        lines = screen.splitlines()
        hand = lines[next(i for i, ln in enumerate(lines) if "your hand" in ln) + 1].strip()
        # the card of the highlighted choice is marked, once the choices are drawn
        hand = hand.removeprefix("▸")
        assert hand.startswith("[")
        _tmux("send-keys", "-t", session, "Enter")
        _wait_for(session, "Pass the screen to Bob")
        everything = _tmux("capture-pane", "-p", "-S", "-", "-E", "-", "-t", session)
        assert "Pass the screen to Bob" in everything
        assert hand not in everything
        assert "your hand" not in everything
    finally:
        subprocess.run([str(TMUX), "kill-session", "-t", session], check=False)


def test_watch_shows_the_board_to_the_end(tmp_path: Path) -> None:
    child = spawn("watch", "dragon-stripes", "-n", "3", "--seed", "2", "--delay", "0.01")
    child.expect("game over", timeout=120)
    child.send("q")
    child.expect("Final scores")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
def test_replay_steps_forward_back_and_to_a_move(tmp_path: Path) -> None:
    game = dragonlair.make("dragon-stripes", players=3)
    state = game.new_game(seed=2)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[0])
    record = tmp_path / "game.json"
    record.write_text(state.to_json())
    total = len(state.record.actions)
    session = f"dragonlair-replay-{os.getpid()}"
    command = f"{sys.executable} {RUN} replay {record} --seat 2; echo EXIT $?; sleep 30"
    _tmux("new-session", "-d", "-s", session, "-x", "100", "-y", "30", command)
    try:
        _wait_for(session, f"move 0 of {total}, as Player 2")
        for keys, move in (("Right", 1), ("Right", 2), ("Left", 1), ("End", total)):
            _tmux("send-keys", "-t", session, keys)
            _wait_for(session, f"move {move} of {total}")
        _tmux("send-keys", "-t", session, "7", "Enter")
        _wait_for(session, f"move 7 of {total}")
        _tmux("send-keys", "-t", session, "q")
        _wait_for(session, "EXIT 0")
    finally:
        subprocess.run([str(TMUX), "kill-session", "-t", session], check=False)


def test_a_puzzle_opens_with_its_question_at_its_seat() -> None:
    child = spawn("play", "--from", "puzzle:dragon-race/halt", "--fast", rows=24, cols=80)
    child.expect("you are Player 2")
    child.expect("Puzzle: Call HALT!, or pass")
    child.send("\x11")  # ctrl+q
    child.expect("Leave the game")
    child.send("\x1b")  # keep playing: the dialog closes, the game is still there
    assert child.isalive()
    child.close(force=True)
