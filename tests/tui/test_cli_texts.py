"""The terminal's commands speak to players: no traceback, no internals, and lines that fit
80 columns (``replay --all``, ``puzzles``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

import dragonlair
from dragonlair.cli import app
from dragonlair.tui.session import PlaySession, SeatConfig

runner = CliRunner()


def test_replay_all_of_a_save_naming_fewer_seats_than_players(tmp_path: Path) -> None:
    game = dragonlair.make("dragon-stripes", players=3)
    state = game.new_game(seed=2)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[0])
    seats = [SeatConfig("Ann"), SeatConfig("Bob", "random"), SeatConfig("Cy", "random")]
    save = PlaySession(state, seats).to_save()
    save["seats"] = save["seats"][:1]  # a save that names one seat of three
    path = tmp_path / "game.json"
    path.write_text(json.dumps(save))
    done = runner.invoke(app, ["replay", str(path), "--all", "--seat", "1"])
    assert done.exit_code == 0, done.output
    assert done.exception is None
    assert "Ann" in done.output and "Player 3" in done.output and "Final scores" in done.output


def test_puzzles_shows_every_name_whole_at_80_columns() -> None:
    from dragonlair.core.puzzles import puzzles

    done = runner.invoke(app, ["puzzles"], env={"COLUMNS": "80"})
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    for p in puzzles(None):
        assert any(line.startswith(f" {p.name} ") for line in lines), p.name


def test_resuming_a_damaged_save_says_so_without_internals(tmp_path: Path) -> None:
    game = dragonlair.make("dragon-race", players=3)
    seats = [SeatConfig("Ann"), SeatConfig("Bob", "random"), SeatConfig("Cy", "random")]
    save = PlaySession(game.new_game(seed=2), seats).to_save()
    snapshot = save["state"]["state"]
    del snapshot[next(iter(snapshot))]  # a field of the state is missing
    path = tmp_path / "game.json"
    path.write_text(json.dumps(save))
    done = runner.invoke(app, ["play", "--resume", str(path)])
    assert done.exit_code == 2
    assert "saved state is damaged" in " ".join(done.output.split())
    assert not re.search(r"\b_[a-z]+", done.output.replace(str(path), ""))
