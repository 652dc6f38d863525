"""The terminal game driven through a real pseudo-terminal (pexpect), on the example game."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

RUN = str(Path(__file__).parents[1] / "core" / "run_cli.py")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
PROMPT = r"your choice \[1-\d+, text, \?\]: "


def spawn(*args: str) -> pexpect.spawn:
    env = dict(os.environ, COLUMNS="160", LINES="60", NO_COLOR="1", TERM="dumb")
    child = pexpect.spawn(
        sys.executable, [RUN, *args], env=env, encoding="utf-8", timeout=30, dimensions=(60, 160)
    )
    return child


def clean(text: str) -> str:
    return ANSI.sub("", text)


def finish(child: pexpect.spawn, answer: str = "1") -> str:
    """Answer every prompt with ``answer`` until the game ends; the whole transcript."""
    seen = []
    while True:
        i = child.expect([PROMPT, r"Winner: |Shared win: ", pexpect.EOF])
        seen.append(clean(child.before or ""))
        if i == 0:
            child.sendline(answer)
        elif i == 1:
            child.expect(pexpect.EOF)
            seen.append(clean(child.before or ""))
            return "".join(seen)
        else:
            raise AssertionError("the program ended without a result:\n" + "".join(seen)[-2000:])


def test_a_whole_game_against_bots() -> None:
    child = spawn("play", "pebble-auction", "-n", "3", "--bots", "random", "--seed", "4", "--fast")
    out = finish(child)
    assert "Final scores" in out
    child.close()
    assert child.exitstatus == 0


def test_bad_input_gets_a_message_and_a_new_prompt() -> None:
    child = spawn("play", "pebble-auction", "-n", "2", "--bots", "random", "--seed", "1", "--fast")
    child.expect(PROMPT)
    child.sendline("99")
    child.expect("There is no choice 99")
    child.expect(PROMPT)
    child.sendline("fly away")
    child.expect("unknown word 'fly'")
    child.expect(PROMPT)
    child.sendline("take")
    child.expect("take is not one of your choices now")
    child.expect(PROMPT)
    child.sendline("")
    child.expect("Type a number")
    child.expect(PROMPT)
    child.sendline("?")
    child.expect("the rules in brief")
    child.expect("your choices now")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("Stopped")
    child.expect(pexpect.EOF)


def test_save_then_resume_and_replay(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    child = spawn("play", "pebble-auction", "-n", "3", "--bots", "random", "--seed", "9", "--fast")
    for _ in range(3):
        child.expect(PROMPT)
        child.sendline("1")
    child.expect(PROMPT)
    child.sendline(f"save {save}")
    child.expect("Saved to")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    saved = json.loads(save.read_text())
    assert saved["format"] == "dragonlair.save/1"
    moves_at_save = len(saved["state"]["actions"])
    assert moves_at_save >= 3

    child = spawn("play", "--resume", str(save), "--fast")
    out = finish(child)
    assert "Final scores" in out
    final = json.loads(save.read_text())  # --resume keeps saving to the same file
    assert final["state"]["actions"][:moves_at_save] == saved["state"]["actions"]
    assert len(final["state"]["actions"]) > moves_at_save

    child = spawn("replay", str(save), "--seat", "0", "--all")
    child.expect("Final scores")
    child.expect(pexpect.EOF)
    child = spawn("replay", str(save))
    child.expect(r"move 1/\d+ \[Enter, number, q\]: ")
    child.sendline("")
    child.expect(r"move 2/\d+")
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_hotseat_passes_the_screen_between_players() -> None:
    child = spawn(
        "play",
        "pebble-auction",
        "-n",
        "2",
        "--hotseat",
        "--seed",
        "2",
        "--fast",
        "--name",
        "Ann",
        "--name",
        "Bob",
    )
    child.expect("Pass the screen to Ann")
    child.expect("Ann, press Enter when you are ready: ")
    child.sendline("")
    child.expect("Ann, " + PROMPT)
    shown_to_ann = clean(child.before or "")
    child.sendline("1")
    child.expect("Pass the screen to Bob")
    between = clean(child.before or "")
    child.expect("Bob, press Enter when you are ready: ")
    assert "hand" not in between  # nothing of Ann's hand stays on the pass screen
    child.sendline("")
    child.expect("Bob, " + PROMPT)
    shown_to_bob = clean(child.before or "")
    ann_hand = re.search(r"hand\s+(\[[^\]]*\])", shown_to_ann)
    bob_hand = re.search(r"hand\s+(\[[^\]]*\])", shown_to_bob)
    assert ann_hand and bob_hand and ann_hand.group(1) != bob_hand.group(1)
    assert ann_hand.group(1) not in shown_to_bob
    child.sendline("quit")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "chess"], "no game 'chess'"),
        (["play", "pebble-auction", "--bots", "genius"], "no bot level 'genius'"),
        (["play", "pebble-auction", "-n", "2", "--seat", "5", "--bots", "random"], "seat 5"),
        (["play", "--resume", "/nonexistent/save.json"], "cannot read"),
        (["replay", "/nonexistent/save.json"], "cannot read"),
    ],
)
def test_bad_arguments_are_refused(args: list[str], message: str) -> None:
    child = spawn(*args)
    child.expect(pexpect.EOF)
    assert message in clean(child.before or "")
    child.close()
    assert child.exitstatus != 0
