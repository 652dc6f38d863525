"""Analysis reads the seat's view only, and says sensible things about clear positions."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

import dragonlair
from dragonlair.bots.analysis import analyse_view
from dragonlair.bots.checks import PeekedAtState, PoisonedView, poisoned
from dragonlair.cli import app
from dragonlair.core.puzzles import puzzle, puzzles

runner = CliRunner()
FAST: dict[str, Any] = {"samples": 6, "iterations": 20}


@pytest.mark.parametrize("name", [p.name for p in puzzles()])
def test_analysis_reads_only_the_seats_view(name: str) -> None:
    p = puzzle(name)
    state = p.state(seed=3)
    seat = p.seat if p.seat is not None else state.to_act[0]
    game, view, legal = state.game, state.view(seat), state.legal_actions(seat)
    with poisoned(state):
        blind = analyse_view(game, PoisonedView(view), legal, games=1, seed=5, **FAST)
        with pytest.raises(PeekedAtState):
            state.view(seat)  # the poison works
    seen = dragonlair.analyse(state, seat, games=1, seed=5, **FAST)
    assert blind.to_dict() == seen.to_dict()
    assert {str(a.action) for a in seen.actions} == {str(a) for a in legal}
    assert seen.pick in legal
    for a in seen.actions:
        assert 0.0 <= a.playouts.win.low <= a.playouts.win.value <= a.playouts.win.high <= 1.0


def test_the_same_view_gives_the_same_analysis_and_another_seat_is_refused() -> None:
    state = puzzle("dragon-stripes/near-the-head").state(seed=1)
    a = dragonlair.analyse(state, 0, seed=2, **FAST)
    b = dragonlair.analyse(state.clone(), 0, seed=2, **FAST)
    assert a.to_dict() == b.to_dict()
    with pytest.raises(dragonlair.DragonlairError, match="not asked to act"):
        dragonlair.analyse(state, 1, **FAST)
    with pytest.raises(dragonlair.BadSeat):
        dragonlair.analyse(state, 7, **FAST)


def test_analysis_tells_a_clear_choice() -> None:
    """Three stripes from the head with a pot of 36: drawing wins far more often than
    holding (any 3 or 4 reaches the head and the whole lair)."""
    state = puzzle("dragon-stripes/near-the-head").state(seed=1)
    result = dragonlair.analyse(state, 0, samples=60, iterations=200, seed=1)
    by = {str(a.action): a for a in result.actions}
    assert by["draw"].playouts.win.low > by["hold"].playouts.win.high
    assert result.pick == state.game.parse_action("draw")


def test_analyse_command(tmp_path: object) -> None:
    out = runner.invoke(
        app,
        [
            "analyse",
            "puzzle:offered-for-forty",
            "--samples",
            "8",
            "--ismcts",
            "ismcts:iterations=30",
            "--json",
        ],
    )
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert doc["seat"] == 1 and {a["action"] for a in doc["actions"]} == {"take", "decline"}
    table = runner.invoke(
        app,
        [
            "analyse",
            "puzzle:offered-for-forty",
            "--samples",
            "5",
            "--games",
            "2",
            "--ismcts",
            "ismcts:iterations=20",
        ],
    )
    assert table.exit_code == 0 and "pick" in table.output and "2 games" in table.output
    bad = runner.invoke(app, ["analyse", "puzzle:offered-for-forty", "--seat", "1"])
    assert bad.exit_code != 0 and "not asked to act" in bad.output
    missing = runner.invoke(app, ["analyse", "puzzle:no-such-thing"])
    assert missing.exit_code != 0 and "no puzzle" in missing.output
