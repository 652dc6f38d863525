"""Each game at the real terminal program (pexpect): a whole game against bots, and the
hidden-information check end to end.

The hidden-information check: stop a game at a prompt and save it; redraw everything the
human seat cannot see (the game's hidden-state sampler) into a second save file; resume
that file. The board on the screen must be identical, character for character: nothing
the seat could not know was drawn.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pexpect
import pytest
from test_terminal import PROMPT, clean, finish, spawn

import dragonlair

GAMES = [g for g in dragonlair.games() if g != "pebble-auction"]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_game_against_bots(game_id: str) -> None:
    child = spawn("play", game_id, "--bots", "heuristic,random", "--seed", "11", "--fast")
    out = finish(child)
    assert "Final scores" in out
    child.close()
    assert child.exitstatus == 0


def _board(screen: str) -> str:
    """The screen from its header to the log panel (the log of a resumed game is empty)."""
    start = screen.rfind(dragonlair.spec(GAME_NAME[0]).name + "  ·")
    text = screen[start:]
    end = re.search(r"^╭─+ log ─+╮|^You are asked|^ *1\) ", text, re.MULTILINE)
    assert end is not None
    return text[: end.start()]


GAME_NAME: list[str] = []


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("prompt_no", [1, 4])
def test_the_screen_shows_nothing_hidden(game_id: str, prompt_no: int, tmp_path: Path) -> None:
    GAME_NAME[:] = [game_id]
    save = tmp_path / "real.json"
    child = spawn(
        "play", game_id, "--bots", "random", "--seed", str(prompt_no), "--fast", "--save", str(save)
    )
    for _ in range(prompt_no - 1):
        child.expect(PROMPT)
        child.sendline("1")
    child.expect(PROMPT)
    real_screen = _board(clean(child.before or ""))
    child.sendline("quit")
    child.expect(pexpect.EOF)

    doc = json.loads(save.read_text())
    state = dragonlair.load(json.dumps(doc["state"]))
    seat = 0
    assert seat in state.to_act
    sampled = state.game.sample_state(state.view(seat), random.Random(prompt_no))
    assert sampled.to_json() != state.to_json()  # a deck or another hand was redrawn
    doc["state"] = json.loads(sampled.to_json())
    other = tmp_path / "sampled.json"
    other.write_text(json.dumps(doc))

    child = spawn("play", "--resume", str(other), "--fast")
    child.expect(PROMPT)
    sampled_screen = _board(clean(child.before or ""))
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert re.search(r"move \d+", real_screen)
    assert sampled_screen == real_screen
