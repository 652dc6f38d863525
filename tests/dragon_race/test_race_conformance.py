"""The engine's conformance suite: random playouts with every check, for 2, 3 and 4 players
and a spread of options (card conservation and the leak test through the sampler included)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import dragonlair
from dragonlair.core.conformance import check_game

BUILTIN = Path(dragonlair.__file__).parent / "dragon_race" / "data" / "great_dragon_race.json"


@pytest.mark.slow
def test_conformance_default_rules() -> None:
    # Whole races under the default rules are long (hundreds of decisions): every decision
    # gets the cheap checks, every 30th the costly ones (JSON, replay, clones, leaks).
    report = check_game("dragon-race", games=2, every=30)
    assert report.games == 3 * 2
    assert report.leak_samples > 100


@pytest.mark.slow
def test_conformance_with_options() -> None:
    report = check_game(
        "dragon-race",
        options=({"bonus_play": "must", "turn_cap": 40}, {"turn_cap": 12}),
        games=2,
        seed=7,
        every=5,
    )
    assert report.games == 3 * 2 * 2


@pytest.mark.slow
def test_conformance_with_a_users_data_file(tmp_path: Path) -> None:
    data = json.loads(BUILTIN.read_text())
    data["board"].update(
        finish=40,
        watering_holes=[9, 18, 27],
        shortcut={"entry_arrow": 12, "exit_arrow": 16},
        crossing=None,
        ballista_bolts=[4, 20],
        flaming_balls=[13, 30],
    )
    path = tmp_path / "small.json"
    path.write_text(json.dumps(data))
    report = check_game(
        "dragon-race", players=[2, 4], options=({"data": str(path)},), games=2, every=20
    )
    assert report.games == 4
